package markdown

import (
	"slices"
	"strings"
	"testing"
)

// fakeLookup is a small organization.
type fakeLookup struct{}

var people = []User{{12, "Full Name", true}, {13, "Ada Admin", true}, {14, "Gone Person", false}}

func (fakeLookup) UserByName(name string) (User, bool) {
	for _, u := range people {
		if strings.EqualFold(u.FullName, name) {
			return u, true
		}
	}
	return User{}, false
}

func (fakeLookup) UserByID(id int64) (User, bool) {
	for _, u := range people {
		if u.ID == id {
			return u, true
		}
	}
	return User{}, false
}

func (fakeLookup) GroupByName(name string) (Group, bool) {
	if name == "grp" {
		return Group{7, "grp"}, true
	}
	return Group{}, false
}

func (fakeLookup) StreamByName(name string) (Stream, bool) {
	if strings.EqualFold(name, "Verona") {
		return Stream{5, "Verona"}, true
	}
	return Stream{}, false // unknown or hidden from the sender
}

func (fakeLookup) CustomEmoji(name string) (CustomEmoji, bool) {
	if name == "party_parrot" {
		return CustomEmoji{"3", "party_parrot", "/user_avatars/1/emoji/images/3.gif"}, true
	}
	return CustomEmoji{}, false
}

// TestRender holds inputs against the HTML Zulip produces for them.
func TestRender(t *testing.T) {
	cases := []struct{ in, want string }{
		{"text", "<p>text</p>"},
		{"a\nb", "<p>a<br>\nb</p>"},
		{"*x* **x** ***x*** ~~x~~", "<p><em>x</em> <strong>x</strong> <strong><em>x</em></strong> <del>x</del></p>"},
		{"_x_ __x__ snake_case_name", "<p>_x_ __x__ snake_case_name</p>"},
		{"`x`", "<p><code>x</code></p>"},
		{"```python\nprint(1)\n```", `<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="nb">print</span><span class="p">(</span><span class="mi">1</span><span class="p">)</span>` + "\n</code></pre></div>"},
		{"```\nplain <code>\n```", "<div class=\"codehilite\"><pre><span></span><code>plain &lt;code&gt;\n</code></pre></div>"},
		{"```nosuchlang\nx\n```", "<div class=\"codehilite\" data-code-language=\"nosuchlang\"><pre><span></span><code>x\n</code></pre></div>"},
		{"~~~\nx\n~~~", "<div class=\"codehilite\"><pre><span></span><code>x\n</code></pre></div>"},
		{"    indented", "<div class=\"codehilite\"><pre><span></span><code>indented\n</code></pre></div>"},
		{"# T", "<h1>T</h1>"},
		{"###### T", "<h6>T</h6>"},
		{"#T", "<p>#T</p>"},
		{"> q", "<blockquote>\n<p>q</p>\n</blockquote>"},
		{"```quote\nq\n```", "<blockquote>\n<p>q</p>\n</blockquote>"},
		{"````quote\n```quote\ninner\n```\nouter\n````", "<blockquote>\n<blockquote>\n<p>inner</p>\n</blockquote>\n<p>outer</p>\n</blockquote>"},
		{"* a\n* b", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>"},
		{"- a\n+ b", "<ul>\n<li>a</li>\n</ul>\n<ul>\n<li>b</li>\n</ul>"},
		{"intro\n* a", "<p>intro</p>\n<ul>\n<li>a</li>\n</ul>"},
		{"1. a", "<ol>\n<li>a</li>\n</ol>"},
		{"3. a", "<ol start=\"3\">\n<li>a</li>\n</ol>"},
		{"[t](https://x.org)", `<p><a href="https://x.org">t</a></p>`},
		{"[](https://x.org)", `<p><a href="https://x.org">https://x.org</a></p>`},
		{"see https://x.org/a?b=1.", `<p>see <a href="https://x.org/a?b=1">https://x.org/a?b=1</a>.</p>`},
		{"<https://x.org>", `<p><a href="https://x.org">https://x.org</a></p>`},
		{"[up](/user_uploads/1/ab/c/f.pdf)", `<p><a href="/user_uploads/1/ab/c/f.pdf">up</a></p>`},
		{"[bad](javascript:alert(1))", "<p>bad</p>"},
		{"[bad](data:text/html,x)", "<p>bad</p>"},
		{"<b>hi</b> <script>x</script>", "<p>&lt;b&gt;hi&lt;/b&gt; &lt;script&gt;x&lt;/script&gt;</p>"},
		{"<div>\nblock\n</div>", "<p>&lt;div&gt;<br>\nblock<br>\n&lt;/div&gt;</p>"},
		{"@**Full Name**", `<p><span class="user-mention" data-user-id="12">@Full Name</span></p>`},
		{"@**full name|12**", `<p><span class="user-mention" data-user-id="12">@Full Name</span></p>`},
		{"@_**Full Name**", `<p><span class="user-mention silent" data-user-id="12">Full Name</span></p>`},
		{"@**Gone Person**", `<p><span class="user-mention silent" data-user-id="14">Gone Person</span></p>`},
		{"@**Nobody Here**", "<p>@<strong>Nobody Here</strong></p>"},
		{"@**all**", `<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span></p>`},
		{"@**everyone** @**stream**", `<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@everyone</span> <span class="user-mention channel-wildcard-mention" data-user-id="*">@stream</span></p>`},
		{"@**topic**", `<p><span class="topic-mention">@topic</span></p>`},
		{"@*grp*", `<p><span class="user-group-mention" data-user-group-id="7">@grp</span></p>`},
		{"@_*grp*", `<p><span class="user-group-mention silent" data-user-group-id="7">grp</span></p>`},
		{"> @**Full Name**", "<blockquote>\n<p><span class=\"user-mention silent\" data-user-id=\"12\">Full Name</span></p>\n</blockquote>"},
		{"#**Verona**", `<p><a class="stream" data-stream-id="5" href="/#narrow/channel/5-Verona">#Verona</a></p>`},
		{"#**Verona>lunch time**", `<p><a class="stream-topic" data-stream-id="5" href="/#narrow/channel/5-Verona/topic/lunch.20time">#Verona &gt; lunch time</a></p>`},
		{"#**Verona>t@123**", `<p><a class="message-link" href="/#narrow/channel/5-Verona/topic/t/near/123">#Verona &gt; t @ 💬</a></p>`},
		{"#**secret**", "<p>#<strong>secret</strong></p>"},
		{":smile:", `<p><span aria-label="smile" class="emoji emoji-1f604" role="img" title="smile">:smile:</span></p>`},
		{"🙂", `<p><span aria-label="slightly smiling face" class="emoji emoji-1f642" role="img" title="slightly smiling face">:slightly_smiling_face:</span></p>`},
		{":party_parrot:", `<p><img alt=":party_parrot:" class="emoji" src="/user_avatars/1/emoji/images/3.gif" title="party parrot"></p>`},
		{":not_an_emoji: 10:30:45", "<p>:not_an_emoji: 10:30:45</p>"},
		{"```spoiler Head\nbody\n```", "<div class=\"spoiler-block\"><div class=\"spoiler-header\">\n<p>Head</p>\n</div><div class=\"spoiler-content\" aria-hidden=\"true\">\n<p>body</p>\n</div></div>"},
		{"```spoiler\nbody\n```", "<div class=\"spoiler-block\"><div class=\"spoiler-header\">\n</div><div class=\"spoiler-content\" aria-hidden=\"true\">\n<p>body</p>\n</div></div>"},
		{"$$x^2$$", `<p><span class="katex"><span class="katex-mathml"><math><semantics><annotation encoding="application/x-tex">x^2</annotation></semantics></math></span></span></p>`},
		{"```math\nx<y\n```", `<p><span class="katex-display"><span class="katex"><span class="katex-mathml"><math><semantics><annotation encoding="application/x-tex">x&lt;y</annotation></semantics></math></span></span></span></p>`},
		{"<time:2017-06-05T22:30:00Z>", `<p><time datetime="2017-06-05T22:30:00Z">2017-06-05T22:30:00Z</time></p>`},
		{"<time:1496701800>", `<p><time datetime="2017-06-05T22:30:00Z">1496701800</time></p>`},
		{"<time:tomorrow-ish>", `<p><span class="timestamp-error">Invalid time format: tomorrow-ish</span></p>`},
		{"/me waves", "<p>/me waves</p>"},
		{"a\n\nb", "<p>a</p>\n<p>b</p>"},
		{"| a |\n|---|\n| 1 |", "<table>\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n</tr>\n</tbody>\n</table>"},
	}
	r := New()
	for _, tc := range cases {
		if got := r.Render(tc.in, fakeLookup{}, nil).HTML; got != tc.want {
			t.Errorf("Render(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
}

func TestRenderReports(t *testing.T) {
	cases := []struct {
		in   string
		want Result
	}{
		{"hi @**Full Name** and @**Ada Admin** and @**Full Name**", Result{MentionedUserIDs: []int64{12, 13}}},
		{"@_**Full Name** silently", Result{}},
		{"> @**Full Name** quoted", Result{}},
		{"```quote\n@**Full Name**\n```", Result{}},
		{"@**Gone Person**", Result{}},
		{"@*grp* meeting", Result{MentionedGroupIDs: []int64{7}}},
		{"@**all** @**topic**", Result{StreamWildcard: true, TopicWildcard: true}},
		{"`@**Full Name**` in code", Result{}},
		{"/me dances", Result{IsMeMessage: true}},
		{"/me dances\n\nsecond paragraph", Result{}},
		{"see https://x.org", Result{HasLink: true}},
		{"![cat](https://x.org/cat.png)", Result{HasLink: true, HasImage: true}},
		{"[report](/user_uploads/1/ab/xyz/report.pdf)", Result{HasLink: true, HasAttachment: true}},
		{"[pic](/user_uploads/1/ab/xyz/pic.JPG)", Result{HasLink: true, HasAttachment: true, HasImage: true}},
		{"[evil](javascript:x)", Result{}},
	}
	r := New()
	for _, tc := range cases {
		got := r.Render(tc.in, fakeLookup{}, nil)
		got.HTML = ""
		if !slices.Equal(got.MentionedUserIDs, tc.want.MentionedUserIDs) || !slices.Equal(got.MentionedGroupIDs, tc.want.MentionedGroupIDs) ||
			got.StreamWildcard != tc.want.StreamWildcard || got.TopicWildcard != tc.want.TopicWildcard || got.IsMeMessage != tc.want.IsMeMessage ||
			got.HasLink != tc.want.HasLink || got.HasImage != tc.want.HasImage || got.HasAttachment != tc.want.HasAttachment {
			t.Errorf("Render(%q) reports %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

func TestRenderWithoutLookup(t *testing.T) {
	got := New().Render("@**Full Name** #**Verona** :smile:", nil, nil).HTML
	want := `<p>@<strong>Full Name</strong> #<strong>Verona</strong> <span aria-label="smile" class="emoji emoji-1f604" role="img" title="smile">:smile:</span></p>`
	if got != want {
		t.Errorf("got %q", got)
	}
}

func TestLinkifiers(t *testing.T) {
	links, err := CompileLinkifiers([]Linkifier{
		{1, `#(?P<id>[0-9]+)`, "https://github.com/o/r/issues/{id}"},
		{2, `RFC(?P<num>[0-9]+)`, "https://tools.ietf.org/html/rfc%(num)s"},
	})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ in, want string }{
		{"fixes #123", `<p>fixes <a href="https://github.com/o/r/issues/123">#123</a></p>`},
		{"(#7) and RFC2119", `<p>(<a href="https://github.com/o/r/issues/7">#7</a>) and <a href="https://tools.ietf.org/html/rfc2119">RFC2119</a></p>`},
		{"abc#123 #12x", "<p>abc#123 #12x</p>"},
		{"`#123` [#9](https://x.org)", `<p><code>#123</code> <a href="https://x.org">#9</a></p>`},
	}
	r := New()
	for _, tc := range cases {
		if got := r.Render(tc.in, fakeLookup{}, links).HTML; got != tc.want {
			t.Errorf("Render(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
	}
	topic := r.TopicLinks("fix #42, see https://x.org/doc", links)
	if len(topic) != 2 || topic[0] != (TopicLink{"#42", "https://github.com/o/r/issues/42"}) || topic[1].URL != "https://x.org/doc" {
		t.Errorf("TopicLinks %+v", topic)
	}
	if got := r.TopicLinks("plain", nil); got == nil || len(got) != 0 {
		t.Errorf("TopicLinks of plain text %v", got)
	}
}

func TestValidateLinkifier(t *testing.T) {
	cases := []struct {
		pattern, template, want, err string
	}{
		{`#(?P<id>[0-9]+)`, "https://x.org/{id}", "https://x.org/{id}", ""},
		{`#(?P<id>[0-9]+)`, "https://x.org/%(id)s", "https://x.org/{id}", ""},
		{`#(?P<id>[0-9]+`, "https://x.org/{id}", "", "Invalid linkifier pattern"},
		{`#(?P<id>[0-9]+)`, "https://x.org/{other}", "", "not present in the pattern"},
		{`#(?P<id>[0-9]+)`, "javascript:{id}", "", "Invalid URL template"},
		{``, "https://x.org", "", "must not be empty"},
	}
	for _, tc := range cases {
		got, err := ValidateLinkifier(tc.pattern, tc.template)
		if got != tc.want || (err == nil) != (tc.err == "") || (err != nil && !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("ValidateLinkifier(%q, %q) = %q, %v; want %q, %q", tc.pattern, tc.template, got, err, tc.want, tc.err)
		}
	}
}
