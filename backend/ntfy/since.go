package ntfy

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// sinceMarker is what a subscriber asks to catch up on (ntfy's since=):
// nothing, everything kept, the latest, what came after a message, or
// what came at or after a time.
type sinceMarker struct {
	none, all, latest bool
	id                string
	time              int64
}

var errSince = errors.New("invalid since parameter")

// parseSince reads since= (or its header and short forms) as ntfy does: a
// poll without it asks for everything kept.
func parseSince(r *http.Request, poll bool) (sinceMarker, error) {
	v := param(r, "x-since", "since", "si")
	switch {
	case v == "":
		return sinceMarker{all: poll, none: !poll}, nil
	case v == "all":
		return sinceMarker{all: true}, nil
	case v == "latest":
		return sinceMarker{latest: true}, nil
	case v == "none":
		return sinceMarker{none: true}, nil
	case len(v) == messageIDLength && strings.Trim(v, idAlphabet) == "":
		return sinceMarker{id: v}, nil
	}
	if t, err := strconv.ParseInt(v, 10, 64); err == nil {
		return sinceMarker{time: t}, nil
	}
	if d, err := time.ParseDuration(v); err == nil {
		return sinceMarker{time: time.Now().Add(-d).Unix()}, nil
	}
	return sinceMarker{none: true}, errSince
}

// of picks what the marker asks for among a topic's notifications, oldest
// first. An ID no longer kept finds nothing, as in ntfy.
func (s sinceMarker) of(cache []cached, now int64) []cached {
	cache = slices.DeleteFunc(slices.Clone(cache), func(c cached) bool { return c.expires <= now })
	switch {
	case s.none || len(cache) == 0:
		return nil
	case s.all:
		return cache
	case s.latest:
		return cache[len(cache)-1:]
	case s.id != "":
		if i := slices.IndexFunc(cache, func(c cached) bool { return c.id == s.id }); i >= 0 {
			return cache[i+1:]
		}
		return nil
	}
	i := slices.IndexFunc(cache, func(c cached) bool { return c.time >= s.time })
	if i < 0 {
		return nil
	}
	return cache[i:]
}

// param is the first of a request's header and query names that is set,
// as ntfy reads its parameters.
func param(r *http.Request, names ...string) string {
	for _, name := range names {
		if v := r.Header.Get(name); v != "" {
			return strings.TrimSpace(v)
		}
		if v := r.URL.Query().Get(name); v != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// boolParam is a yes/no parameter: 1, yes or true.
func boolParam(r *http.Request, names ...string) bool {
	switch strings.ToLower(param(r, names...)) {
	case "1", "yes", "true":
		return true
	}
	return false
}
