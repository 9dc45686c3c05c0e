package integrations

import (
	"errors"
	"net/http"
	"os"
	"slices"
	"testing"
)

// convertCase is one payload for an integration: a recorded fixture (or an
// inline body), the Gitea event header if any, and either the exact
// message or the exact complaint.
type convertCase struct {
	name           string
	fixture, body  string
	event          string
	topic, content string
	err            string
}

// runCases converts each case with the named integration.
func runCases(t *testing.T, integration string, cases []convertCase) {
	t.Helper()
	i, ok := Lookup(integration)
	if !ok {
		t.Fatalf("%s not registered (have %v)", integration, Names())
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
			msg, err := i.Convert(Request{Body: body, Header: header})
			if tc.err != "" {
				if !errors.Is(err, ErrPayload) || err.Error() != tc.err {
					t.Errorf("error %v, want payload error %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if msg.Topic != tc.topic || msg.Content != tc.content {
				t.Errorf("got topic %q content\n%s\nwant topic %q content\n%s", msg.Topic, msg.Content, tc.topic, tc.content)
			}
		})
	}
}

func TestRegistry(t *testing.T) {
	if got := Names(); !slices.Equal(got, []string{"alertmanager", "gitea", "grafana", "helloworld", "json"}) {
		t.Errorf("registered %v", got)
	}
	for _, name := range Names() {
		if i, _ := Lookup(name); i.Client == "" || i.DefaultTopic == "" || i.Convert == nil {
			t.Errorf("%s is incomplete: %+v", name, i)
		}
	}
	if _, ok := Lookup("nosuch"); ok {
		t.Error("found an unregistered integration")
	}
}
