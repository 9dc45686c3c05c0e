package markdown

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
)

// chatCorpus is a day of plausible chat: short lines, mentions, links,
// emoji, code and quotes.
func chatCorpus() []string {
	lines := []string{
		"morning all :wave:",
		"@**Full Name** can you look at the deploy? https://ci.example.org/build/4411",
		"sure, give me **five** minutes",
		"```go\nfunc main() {\n\tfmt.Println(\"hi\")\n}\n```",
		"> we should ship on friday\nagreed, if tests are green 👍",
		"* bump deps\n* fix the flaky test\n* release notes",
		"see #**Verona>release plan** for the checklist",
		"lunch? 🍕 :pizza:",
		"the `config.yaml` has a typo in `listen_addr`",
		"| host | status |\n|---|---|\n| db1 | ok |\n| db2 | *degraded* |",
	}
	var out []string
	for i := range 200 {
		out = append(out, fmt.Sprintf("%s (%d)", lines[i%len(lines)], i))
	}
	return out
}

func BenchmarkRender(b *testing.B) {
	corpus := chatCorpus()
	r := New()
	size := 0
	for _, m := range corpus {
		size += len(m)
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, m := range corpus {
			r.Render(m, fakeLookup{}, nil)
		}
	}
	b.ReportMetric(float64(len(corpus)*b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// BenchmarkGoldmarkCommonMark is plain goldmark on the same corpus: the
// cost of the chat dialect is the difference.
func BenchmarkGoldmarkCommonMark(b *testing.B) {
	corpus := chatCorpus()
	md := goldmark.New()
	size := 0
	for _, m := range corpus {
		size += len(m)
	}
	b.SetBytes(int64(size))
	var buf bytes.Buffer
	for b.Loop() {
		for _, m := range corpus {
			buf.Reset()
			md.Convert([]byte(strings.Clone(m)), &buf)
		}
	}
	b.ReportMetric(float64(len(corpus)*b.N)/b.Elapsed().Seconds(), "msgs/s")
}
