package integrations

import (
	"errors"
	"maps"
	"net/http"
	"net/url"
	"os"
	"slices"
	"testing"
)

// convertCase is one payload for an integration: a recorded fixture (or an
// inline body), the Gitea event header and URL query if any, and either
// the exact messages (topic and content, then more) or the exact
// complaint.
type convertCase struct {
	name           string
	fixture, body  string
	event, query   string
	topic, content string
	more           []Message
	err            string
	ignored        string // the event the integration must ignore
}

// serverLimit is the server's message limit (domain.MaxMessageBytes),
// which the domain passes on as Request.MaxContent.
const serverLimit = 10000

// runCases converts each case with the named integration.
func runCases(t *testing.T, integration string, cases []convertCase) {
	t.Helper()
	i, ok := Lookup(integration)
	if !ok {
		t.Fatalf("%s not registered (have %v)", integration, slices.Sorted(maps.Keys(registry)))
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := []byte(tc.body)
			if tc.fixture != "" {
				var err error
				if body, err = os.ReadFile("testdata/" + tc.fixture); err != nil {
					t.Fatal(err)
				}
			}
			header := http.Header{}
			if tc.event != "" {
				header.Set("X-Gitea-Event", tc.event)
			}
			query, err := url.ParseQuery(tc.query)
			if err != nil {
				t.Fatal(err)
			}
			msgs, err := i.Convert(Request{Body: body, Header: header, Query: query, MaxContent: serverLimit})
			if tc.ignored != "" {
				if event, ok := UnsupportedEvent(err); !ok || event != tc.ignored {
					t.Errorf("error %v, want the event %q ignored", err, tc.ignored)
				}
				return
			}
			if tc.err != "" {
				if !errors.Is(err, ErrPayload) || err.Error() != tc.err {
					t.Errorf("error %v, want payload error %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := append([]Message{{Topic: tc.topic, Content: tc.content}}, tc.more...)
			if len(msgs) != len(want) {
				t.Fatalf("got %d messages %q, want %d", len(msgs), msgs, len(want))
			}
			for j, msg := range msgs {
				if msg != want[j] {
					t.Errorf("message %d: got topic %q content\n%s\nwant topic %q content\n%s", j, msg.Topic, msg.Content, want[j].Topic, want[j].Content)
				}
			}
		})
	}
}

func TestRegistry(t *testing.T) {
	if got := slices.Sorted(maps.Keys(registry)); !slices.Equal(got, []string{"alertmanager", "gitea", "grafana", "helloworld", "json"}) {
		t.Errorf("registered %v", got)
	}
	for _, name := range slices.Sorted(maps.Keys(registry)) {
		if i, _ := Lookup(name); i.Client == "" || i.DefaultTopic == "" || i.Convert == nil {
			t.Errorf("%s is incomplete: %+v", name, i)
		}
	}
	if _, ok := Lookup("nosuch"); ok {
		t.Error("found an unregistered integration")
	}
}
