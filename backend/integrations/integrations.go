// Package integrations turns third-party webhook payloads into chat
// messages. Each integration lives in its own file and is a pure function
// of the request; sending is the domain's job.
package integrations

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
)

// Request is what an integration sees of an incoming webhook call.
type Request struct {
	Body   []byte
	Header http.Header
	Query  url.Values
	// MaxContent is the longest message the server keeps, in bytes:
	// integrations that list items stop before it and say how many they
	// left out, rather than have the end cut off unannounced.
	MaxContent int
}

// Message is one message an integration posts; an empty Topic means the
// integration's default.
type Message struct {
	Topic   string
	Content string
}

// Integration is one registered webhook.
type Integration struct {
	Name string // the URL's last segment
	// Client names the sender in messages, as Zulip does:
	// Zulip<Client>Webhook.
	Client       string
	DefaultTopic string
	// DisplayName names the integration in menus (register's
	// realm_incoming_webhook_bots); Client when empty.
	DisplayName string
	// Options are the URL parameters the integration reads, offered when
	// a URL for it is made.
	Options []ConfigOption
	// Convert returns the messages for one delivery: usually one, more
	// when the sender's items belong in different topics.
	Convert func(Request) ([]Message, error)
}

// ErrPayload marks payloads an integration cannot use; errors.Is tells
// them apart, and their text alone says what is wrong, for the caller.
var ErrPayload = errors.New("bad payload")

type payloadErr string

func (e payloadErr) Error() string        { return string(e) }
func (e payloadErr) Is(target error) bool { return target == ErrPayload }

func payloadError(format string, args ...any) error {
	return payloadErr(fmt.Sprintf(format, args...))
}

// unsupportedEvent is an event the sender sends (told by a header) that
// the integration does not post: the sender is told it was ignored.
type unsupportedEvent string

func (e unsupportedEvent) Error() string {
	return fmt.Sprintf("The event '%s' is not supported", string(e))
}

// UnsupportedEvent tells whether err is an event an integration ignores,
// and which.
func UnsupportedEvent(err error) (event string, ok bool) {
	var u unsupportedEvent
	if errors.As(err, &u) {
		return string(u), true
	}
	return "", false
}

// ConfigOption is a URL parameter of an integration, as Zulip's
// config_options: its key, a label, and check_string or check_bool.
type ConfigOption struct {
	Key       string `json:"key"`
	Label     string `json:"label"`
	Validator string `json:"validator"`
}

var registry = map[string]Integration{}

func register(i Integration) { registry[i.Name] = i }

// Lookup finds an integration by the name in its URL.
func Lookup(name string) (Integration, bool) {
	i, ok := registry[name]
	return i, ok
}

// All are the registered integrations, by name.
func All() []Integration {
	out := make([]Integration, 0, len(registry))
	for _, name := range slices.Sorted(maps.Keys(registry)) {
		out = append(out, registry[name])
	}
	return out
}

// decode reads a JSON body into v.
func decode(r Request, v any) error {
	if err := json.Unmarshal(r.Body, v); err != nil {
		return payloadError("Malformed JSON")
	}
	return nil
}
