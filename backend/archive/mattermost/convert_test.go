package mattermost

import (
	"testing"
	"unicode/utf8"
)

// fakeNames knows two users and, in team "t", two channels.
type fakeNames struct{}

func (fakeNames) fullName(u string) (string, bool) {
	n, ok := map[string]string{"ron": "Ron Weasley", "john.doe": "John Doe", "a_b": "A B"}[u]
	return n, ok
}

func (fakeNames) streamName(team, c string) (string, bool) {
	n, ok := map[string]string{"t/town-square": "Town Square", "t/dev_ops": "Dev Ops"}[team+"/"+c]
	return n, ok
}

func TestConvert(t *testing.T) {
	cases := []struct{ in, want string }{
		{"@ron hi", "@**Ron Weasley** hi"},
		{"hi @ron.", "hi @**Ron Weasley**."},
		{"hi @Ron, @john.doe and @a_b_", "hi @**Ron Weasley**, @**John Doe** and @**A B**_"},
		{"@ronald and @nobody", "@ronald and @nobody"},
		{"mail ron@example.com", "mail ron@example.com"},
		{"@all @channel @here", "@**all** @**channel** @**channel**"},
		{"(@ron)", "(@**Ron Weasley**)"},
		{"see ~town-square and ~dev_ops!", "see #**Town Square** and #**Dev Ops**!"},
		{"~nowhere ~~struck~~", "~nowhere ~~struck~~"},
		{"https://example.com/~ron/@ron", "https://example.com/~ron/@ron"},
		{"`@ron` and ``a `@ron` b``", "`@ron` and ``a `@ron` b``"},
		{"```\n@ron _x_\n```\n@ron", "```\n@ron _x_\n```\n@**Ron Weasley**"},
		{"~~~python\n~town-square\n~~~", "~~~python\n~town-square\n~~~"},
		{"text\n\n    @ron in code\nafter @ron", "text\n\n    @ron in code\nafter @**Ron Weasley**"},
		{"_italic_ and __bold__ and snake_case_name", "*italic* and **bold** and snake_case_name"},
		{"_italic @ron_", "*italic @**Ron Weasley***"},
		{"a _ b _ c, __init__.py, _unclosed", "a _ b _ c, **init**.py, _unclosed"},
		{"![diagram](https://example.com/d.png)", "[diagram](https://example.com/d.png)"},
		{"wow! [link](x)", "wow! [link](x)"},
		{"![logo](https://example.com/l.png =200x100) and ![x](y =50)", "[logo](https://example.com/l.png) and [x](y)"},
		{"![a](b =huge)", "[a](b =huge)"},
		{"```latex\nx^2\n```", "```math\nx^2\n```"},
		{"```tex foo\nx\n```", "```math\nx\n```"},
		{`\@ron \_x\_`, `\@ron \_x\_`},
		{"# Heading @ron\n> quote ~town-square", "# Heading @**Ron Weasley**\n> quote #**Town Square**"},
		{"trailing newline\n", "trailing newline\n"},
	}
	for _, c := range cases {
		if got := convert(c.in, "t", fakeNames{}); got != c.want {
			t.Errorf("convert(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
	// A direct message has no team: a channel name is looked up in none.
	if got := convert("~town-square", "", fakeNames{}); got != "~town-square" {
		t.Errorf("direct: %q", got)
	}
}

func TestThreadTopic(t *testing.T) {
	cases := []struct {
		p    post
		want string
	}{
		{post{Message: "\n\n  ## Deploy   tonight?\nmore"}, "Deploy tonight?"},
		{post{Message: "> quoted\tstart"}, "quoted start"},
		{post{Message: "", Attachments: []attachment{{Path: "a/b/report.pdf"}}}, "report.pdf"},
		{post{Message: "```"}, defaultTopic},
	}
	for _, c := range cases {
		if got := threadTopic(&c.p); got != c.want {
			t.Errorf("threadTopic(%q) = %q, want %q", c.p.Message, got, c.want)
		}
	}
}

// FuzzConvert checks the converter on any text: it keeps valid UTF-8
// valid and never panics.
func FuzzConvert(f *testing.F) {
	for _, s := range []string{"@ron _x_ ~town-square", "```\n@ron\n", "``` `", "_a @ron_", "![x](y", "\\", "__", "@", "~"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := convert(s, "t", fakeNames{})
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Errorf("convert(%q) = %q: invalid UTF-8", s, got)
		}
	})
}

func TestRichText(t *testing.T) {
	atts := []richAttachment{
		{Pretext: "Build for @ron:", Title: "#42 failed", TitleLink: "https://ci.example/42", Text: "_flaky_ test",
			Fields: []struct {
				Title string `json:"title"`
				Value any    `json:"value"`
			}{{Title: "Branch", Value: "main"}, {Title: "Retries", Value: 3.0}, {Title: "Empty", Value: nil}}},
		{Fallback: "only a fallback"},
		{},
	}
	want := "Build for @**Ron Weasley**:\n**[#42 failed](https://ci.example/42)**\n*flaky* test\n**Branch**: main\n**Retries**: 3\n\nonly a fallback"
	if got := richText(atts, "t", fakeNames{}); got != want {
		t.Errorf("richText\n got %q\nwant %q", got, want)
	}
}
