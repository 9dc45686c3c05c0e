package integrations

import (
	"flag"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite docs/integrations.md's example messages from the code")

// docsPath is the integrations guide, whose example messages this test
// keeps true.
const docsPath = "../../docs/integrations.md"

// The guide marks each example with a line
// <!-- example integration=NAME fixture=FILE [event=X-Gitea-Event] [query=a=b&c=d] -->
// followed by a fenced text block, which this test fills in.
const examplePrefix, exampleSuffix = "<!-- example ", " -->"

// TestDocsExamples renders each example of docs/integrations.md from its
// fixture and checks the guide shows exactly that (go test
// ./backend/integrations -run TestDocsExamples -update-docs rewrites them).
func TestDocsExamples(t *testing.T) {
	doc, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(doc), "\n")
	var out []string
	found := 0
	for i := 0; i < len(lines); i++ {
		out = append(out, lines[i])
		spec, ok := strings.CutPrefix(lines[i], examplePrefix)
		if !ok {
			continue
		}
		spec = strings.TrimSuffix(spec, exampleSuffix)
		// Skip the old block: its opening fence line, to the line of
		// exactly that fence.
		if i+1 >= len(lines) || !strings.HasSuffix(lines[i+1], "text") {
			t.Fatalf("%s: no text block after the example %s", docsPath, spec)
		}
		fence := strings.TrimSuffix(lines[i+1], "text")
		end := i + 2
		for end < len(lines) && lines[end] != fence {
			end++
		}
		if end == len(lines) {
			t.Fatalf("%s: the example %s's block does not end", docsPath, spec)
		}
		i = end
		found++
		text, err := renderExample(spec)
		if err != nil {
			t.Errorf("%s: %v", spec, err)
			continue
		}
		fence = codeFence(text, 3)
		out = append(out, fence+"text", text, fence)
	}
	if found < 8 {
		t.Errorf("only %d examples in %s", found, docsPath)
	}
	rendered := strings.Join(out, "\n")
	if *updateDocs {
		if err := os.WriteFile(docsPath, []byte(rendered), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if rendered != string(doc) {
		t.Errorf("%s's examples are not what the code posts: run go test ./backend/integrations -run TestDocsExamples -update-docs", docsPath)
	}
}

// renderExample converts an example's fixture: each message as its topic,
// then its content.
func renderExample(spec string) (string, error) {
	fields := map[string]string{}
	for _, f := range strings.Fields(spec) {
		k, v, _ := strings.Cut(f, "=")
		fields[k] = v
	}
	i, ok := Lookup(fields["integration"])
	if !ok {
		return "", fmt.Errorf("no integration %q", fields["integration"])
	}
	body, err := os.ReadFile("testdata/" + fields["fixture"])
	if err != nil {
		return "", err
	}
	query, err := url.ParseQuery(fields["query"])
	if err != nil {
		return "", err
	}
	header := http.Header{}
	if e := fields["event"]; e != "" {
		header.Set("X-Gitea-Event", e)
	}
	msgs, err := i.Convert(Request{Body: body, Header: header, Query: query, MaxContent: serverLimit})
	if err != nil {
		return "", err
	}
	var parts []string
	for _, m := range msgs {
		parts = append(parts, fmt.Sprintf("topic: %s\n\n%s", cmpOr(m.Topic, i.DefaultTopic+" (the default)"), m.Content))
	}
	return strings.Join(parts, "\n\n――――\n\n"), nil
}
