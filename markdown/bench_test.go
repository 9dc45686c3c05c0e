package markdown

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/yuin/goldmark"
)

// chatCorpus is a day of plausible chat: short lines, mentions, links,
// emoji, code, quotes, lists and the odd table.
func chatCorpus() []string {
	messages := []string{
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
		"fixed in #1234, thanks @_**Ada Admin**",
		"/me is out until <time:2024-06-05T14:00:00Z>",
		"```spoiler Release notes\n1. faster sync\n2. fewer bugs\n```",
		"the error rate is $$\\frac{e}{n}$$ — still ~~too high~~ fine",
		"ok",
		"can someone review https://git.example.org/team/app/pull/88/files?diff=split (it's small)",
		"@*dev team* standup in 5",
		"```python\ndef retry(fn, n=3):\n    for i in range(n):\n        try:\n            return fn()\n        except IOError:\n            pass\n```",
		"I think the issue is that the cache is keyed by user id, not by session, so two tabs fight over it.\nLet's key it by both.",
		"thanks! :tada: :tada:",
	}
	var out []string
	for i := range 200 {
		out = append(out, fmt.Sprintf("%s (%d)", messages[i%len(messages)], i))
	}
	return out
}

func corpusBytes(corpus []string) int64 {
	n := 0
	for _, m := range corpus {
		n += len(m)
	}
	return int64(n)
}

func BenchmarkRender(b *testing.B) {
	corpus := chatCorpus()
	r := New()
	links := mustLinkifiers(b, Linkifier{1, `#(?P<id>[0-9]+)`, "https://git.example.org/team/app/issues/{id}"})
	b.SetBytes(corpusBytes(corpus))
	b.ReportAllocs()
	for b.Loop() {
		for _, m := range corpus {
			r.Render(m, fakeLookup{}, links)
		}
	}
	b.ReportMetric(float64(len(corpus)*b.N)/b.Elapsed().Seconds(), "msgs/s")
}

// BenchmarkGoldmarkCommonMark is plain goldmark on the same corpus: the
// cost of the chat dialect is the difference.
func BenchmarkGoldmarkCommonMark(b *testing.B) {
	corpus := chatCorpus()
	md := goldmark.New()
	b.SetBytes(corpusBytes(corpus))
	b.ReportAllocs()
	var buf bytes.Buffer
	for b.Loop() {
		for _, m := range corpus {
			buf.Reset()
			if err := md.Convert([]byte(m), &buf); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(len(corpus)*b.N)/b.Elapsed().Seconds(), "msgs/s")
}
