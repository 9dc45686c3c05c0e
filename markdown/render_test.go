package markdown

import "testing"

// renderCase is an input and the HTML Zulip produces for it.
type renderCase struct{ name, in, want string }

func runRenderCases(t *testing.T, cases []renderCase) {
	t.Helper()
	r := New()
	for _, tc := range cases {
		if got := r.Render(tc.in, fakeLookup{}, nil).HTML; got != tc.want {
			t.Errorf("%s: Render(%q)\n got %q\nwant %q", tc.name, tc.in, got, tc.want)
		}
	}
}

// Cases from the compatibility digest (section 6), verbatim, then more.
var textCases = []renderCase{
	{"paragraph", "text", "<p>text</p>"},
	{"lone newline", "a\nb", "<p>a<br>\nb</p>"},
	{"blocks joined by newline", "a\n\nb", "<p>a</p>\n<p>b</p>"},
	{"empty", "", ""},
	{"emphasis", "*x*", "<p><em>x</em></p>"},
	{"strong", "**x**", "<p><strong>x</strong></p>"},
	{"strong emphasis", "***x***", "<p><strong><em>x</em></strong></p>"},
	{"strikethrough", "~~x~~", "<p><del>x</del></p>"},
	{"one tilde is text", "~x~ ~~~x~~~", "<p>~x~ ~~~x~~~</p>"},
	{"strikethrough with spaces", "I ~~ like software ~~ love hardware", "<p>I <del> like software </del> love hardware</p>"},
	{"underscores", "_x_ __x__ snake_case_name", "<p>_x_ __x__ snake_case_name</p>"},
	{"pointer stars", "const char *x = (char *)y", "<p>const char *x = (char *)y</p>"},
	{"emphasis with spaces", "A *foo bar* is a *baz quux*", "<p>A <em>foo bar</em> is a <em>baz quux</em></p>"},
	{"quotes stay", `it's "lunch" time`, `<p>it's "lunch" time</p>`},
	{"entities", "& &amp; &amp;amp;", "<p>&amp; &amp; &amp;amp;</p>"},
	{"heading", "# T", "<h1>T</h1>"},
	{"heading 6", "###### T", "<h6>T</h6>"},
	{"heading 7 is text", "####### T", "<p>####### T</p>"},
	{"heading needs space", "#T", "<p>#T</p>"},
	{"heading spaces", "#  Hello world", "<h1>Hello world</h1>"},
	{"no setext heading", "a\n===", "<p>a<br>\n===</p>"},
	{"thematic break", "a\n\n---", "<p>a</p>\n<hr>"},
	{"no reference links", "Hello [world]\n\n[world]: https://google.com", `<p>Hello [world]</p>` + "\n" + `<p>[world]: <a href="https://google.com">https://google.com</a></p>`},
	{"/me", "/me waves", "<p>/me waves</p>"},
}

var codeCases = []renderCase{
	{"inline code", "`x`", "<p><code>x</code></p>"},
	{"inline code keeps spaces", "` outer ` ```    space    ```", "<p><code> outer </code> <code>    space    </code></p>"},
	{"inline code escapes", "`<&nbsp;>`", "<p><code>&lt;&amp;nbsp;&gt;</code></p>"},
	{"inline code on one line", "``` one ```", "<p><code> one </code></p>"},
	{"unclosed backticks", "a ``b` c", "<p>a ``b` c</p>"},
	{"python", "```python\nprint(1)\n```", `<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="nb">print</span><span class="p">(</span><span class="mi">1</span><span class="p">)</span>` + "\n</code></pre></div>"},
	{"python with dot and tildes", "Hamlet said:\n~~~~.python \ndef speak(self):\n    x = 1\n~~~~",
		"<p>Hamlet said:</p>\n" + `<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="k">def</span> <span class="nf">speak</span><span class="p">(</span><span class="bp">self</span><span class="p">):</span>` + "\n" + `    <span class="n">x</span> <span class="o">=</span> <span class="mi">1</span>` + "\n</code></pre></div>"},
	{"py2 alias", "``` py2\nx\n```", `<div class="codehilite" data-code-language="Python 2.x"><pre><span></span><code><span class="n">x</span>` + "\n</code></pre></div>"},
	{"alias canonicalized", "```js\n1\n```", `<div class="codehilite" data-code-language="JavaScript"><pre><span></span><code><span class="mi">1</span>` + "\n</code></pre></div>"},
	{"language lower-cased", "```PYTHON\n1\n```", `<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="mi">1</span>` + "\n</code></pre></div>"},
	{"invented language", "``` inventedlanguage\ndef speak(self):\n    x = 1\n```", `<div class="codehilite" data-code-language="inventedlanguage"><pre><span></span><code>def speak(self):` + "\n    x = 1\n</code></pre></div>"},
	{"no language", "```\nplain <code> \"q\" 'a'\n```", `<div class="codehilite"><pre><span></span><code>plain &lt;code&gt; &quot;q&quot; &#39;a&#39;` + "\n</code></pre></div>"},
	{"tildes", "~~~\nx\n~~~", "<div class=\"codehilite\"><pre><span></span><code>x\n</code></pre></div>"},
	{"indented", "    def foo(): pass", "<div class=\"codehilite\"><pre><span></span><code>def foo(): pass\n</code></pre></div>"},
	{"two spaces are not code", "  notcode", "<p>notcode</p>"},
	{"trailing whitespace", "~~~~\ndef func():\n    y = 2\t\t\n\n    z = 3       \n~~~~", "<div class=\"codehilite\"><pre><span></span><code>def func():\n    y = 2\n\n    z = 3\n</code></pre></div>"},
	{"blank lines at the ends", "```\n\nx\n\n```", "<div class=\"codehilite\"><pre><span></span><code>x\n</code></pre></div>"},
	{"html in code", "~~~\n<h1>stay normal</h1>\n~~~", "<div class=\"codehilite\"><pre><span></span><code>&lt;h1&gt;stay normal&lt;/h1&gt;\n</code></pre></div>"},
	{"multi-line token", "```python\ns = \"\"\"a\nb\"\"\"\n```", `<div class="codehilite" data-code-language="Python"><pre><span></span><code><span class="n">s</span> <span class="o">=</span> <span class="s2">&quot;&quot;&quot;a</span>` + "\n" + `<span class="s2">b&quot;&quot;&quot;</span>` + "\n</code></pre></div>"},
	{"code and paragraphs", "Hamlet once said\n~~~~\nx = 1\n~~~~\nAnd all was good.", "<p>Hamlet once said</p>\n<div class=\"codehilite\"><pre><span></span><code>x = 1\n</code></pre></div>\n<p>And all was good.</p>"},
	{"codeblock list", "~~~\nint x = 3\n* 4;\n~~~", "<div class=\"codehilite\"><pre><span></span><code>int x = 3\n* 4;\n</code></pre></div>"},
}

var blockCases = []renderCase{
	{"quote", "> q", "<blockquote>\n<p>q</p>\n</blockquote>"},
	{"fenced quote", "```quote\nq\n```", "<blockquote>\n<p>q</p>\n</blockquote>"},
	{"fenced quote paragraphs", "Hamlet said:\n~~~ quote\nTo be or **not** to be.\n\nThat is the question\n~~~",
		"<p>Hamlet said:</p>\n<blockquote>\n<p>To be or <strong>not</strong> to be.</p>\n<p>That is the question</p>\n</blockquote>"},
	{"quoted", "```quoted\nq\n```", "<blockquote>\n<p>q</p>\n</blockquote>"},
	{"nested fenced quote", "````quote\n```quote\ninner\n```\nouter\n````", "<blockquote>\n<blockquote>\n<p>inner</p>\n</blockquote>\n<p>outer</p>\n</blockquote>"},
	{"code inside quote closes first", "````quote\n```\ncode\n```\nafter\n````", "<blockquote>\n<div class=\"codehilite\"><pre><span></span><code>code\n</code></pre></div>\n<p>after</p>\n</blockquote>"},
	{"quote with heading", "```quote\n# line 1\n#line 2\n```", "<blockquote>\n<h1>line 1</h1>\n<p>#line 2</p>\n</blockquote>"},
	{"two quotes", "> Hello World!\n\n> Hello Universe!", "<blockquote>\n<p>Hello World!</p>\n</blockquote>\n<blockquote>\n<p>Hello Universe!</p>\n</blockquote>"},
	{"quote then quote", "Hamlet said:\n~~~quote\nCan we talk ?\n~~~\n> Yes !!\n\nWelcome to Open Source.",
		"<p>Hamlet said:</p>\n<blockquote>\n<p>Can we talk ?</p>\n</blockquote>\n<blockquote>\n<p>Yes !!</p>\n</blockquote>\n<p>Welcome to Open Source.</p>"},
	{"list", "* a\n* b", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>"},
	{"dash list", "- a\n- b", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>"},
	{"plus list", "+ a\n+ b", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>"},
	{"hanging list", "Some text with a hanging list:\n* One item\n* Two items", "<p>Some text with a hanging list:</p>\n<ul>\n<li>One item</li>\n<li>Two items</li>\n</ul>"},
	{"ordered", "1. a", "<ol>\n<li>a</li>\n</ol>"},
	{"ordered from 3", "3. a", "<ol start=\"3\">\n<li>a</li>\n</ol>"},
	{"renumbered", "3. A\n3. B", "<ol start=\"3\">\n<li>A</li>\n<li>B</li>\n</ol>"},
	{"loose list", "* Alpha\n\n* Beta", "<ul>\n<li>\n<p>Alpha</p>\n</li>\n<li>\n<p>Beta</p>\n</li>\n</ul>"},
	{"nested list", "Nested list\n* I am outer list\n  * I am inner nested list first item\n  * I am inner nested list second item",
		"<p>Nested list</p>\n<ul>\n<li>I am outer list<ul>\n<li>I am inner nested list first item</li>\n<li>I am inner nested list second item</li>\n</ul>\n</li>\n</ul>"},
	{"list in quote", "```quote\nSome text:\n* one\n* two\n```", "<blockquote>\n<p>Some text:</p>\n<ul>\n<li>one</li>\n<li>two</li>\n</ul>\n</blockquote>"},
	{"table", "This is a table:\n\nFirst header  | Second header\n------------- | -------------\nContent cell  | Content cell\n",
		"<p>This is a table:</p>\n<table>\n<thead>\n<tr>\n<th>First header</th>\n<th>Second header</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>Content cell</td>\n<td>Content cell</td>\n</tr>\n</tbody>\n</table>"},
	{"aligned table", "| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |",
		"<table>\n<thead>\n<tr>\n<th style=\"text-align: left;\">a</th>\n<th style=\"text-align: center;\">b</th>\n<th style=\"text-align: right;\">c</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td style=\"text-align: left;\">1</td>\n<td style=\"text-align: center;\">2</td>\n<td style=\"text-align: right;\">3</td>\n</tr>\n</tbody>\n</table>"},
	{"spoiler", "```spoiler Head\nbody\n```", "<div class=\"spoiler-block\"><div class=\"spoiler-header\">\n<p>Head</p>\n</div><div class=\"spoiler-content\" aria-hidden=\"true\">\n<p>body</p>\n</div></div>"},
	{"spoiler without header", "```spoiler\ncontent\n```\noutside spoiler\n", "<div class=\"spoiler-block\"><div class=\"spoiler-header\">\n</div><div class=\"spoiler-content\" aria-hidden=\"true\">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>"},
	{"spoiler header is markdown", "```spoiler [Header](https://example.com) :smile:\ncontent\n```",
		"<div class=\"spoiler-block\"><div class=\"spoiler-header\">\n<p><a href=\"https://example.com\">Header</a> <span aria-label=\"smile\" class=\"emoji emoji-1f642\" role=\"img\" title=\"smile\">:smile:</span></p>\n</div><div class=\"spoiler-content\" aria-hidden=\"true\">\n<p>content</p>\n</div></div>"},
	{"spoiler escapes", "```spoiler <script>alert(1)</script>\n<script>alert(1)</script>\n```",
		"<div class=\"spoiler-block\"><div class=\"spoiler-header\">\n<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n</div><div class=\"spoiler-content\" aria-hidden=\"true\">\n<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n</div></div>"},
	{"spoiler in quote", "~~~quote\n```spoiler header\ncontent\n```\noutside spoiler\n~~~\noutside quote",
		"<blockquote>\n<div class=\"spoiler-block\"><div class=\"spoiler-header\">\n<p>header</p>\n</div><div class=\"spoiler-content\" aria-hidden=\"true\">\n<p>content</p>\n</div></div>\n<p>outside spoiler</p>\n</blockquote>\n<p>outside quote</p>"},
}

var linkCases = []renderCase{
	{"link", "[t](https://x.org)", `<p><a href="https://x.org">t</a></p>`},
	{"empty link text", "[](https://x.org)", `<p><a href="https://x.org">https://x.org</a></p>`},
	{"scheme case folded in the href", "[t](HTTPS://X.org/A) [](httpS://0)", `<p><a href="https://X.org/A">t</a> <a href="https://0">https://0</a></p>`},
	{"blank link text", "[  ](https://github.com)", `<p><a href="https://github.com">https://github.com</a></p>`},
	{"link title dropped", `[t](https://x.org "title")`, `<p><a href="https://x.org">t</a></p>`},
	{"tel is not allowed", "[call](tel:+1415)", "<p>[call](tel:+1415)</p>"},
	{"javascript stays text", "[foo](javascript:alert(1))", "<p>[foo](javascript:alert(1))</p>"},
	{"javascript slashes", "[foo](javascript://foo.com)", "<p>[foo](javascript://foo.com)</p>"},
	{"data stays text", "[bad](data:text/html,x)", "<p>[bad](data:text/html,x)</p>"},
	{"entity-encoded javascript is an http path", "[x](&#106;avascript:alert(1))", `<p><a href="http://&amp;#106;avascript:alert(1)">x</a></p>`},
	{"no scheme is http", "[x](example.com/a)", `<p><a href="http://example.com/a">x</a></p>`},
	{"upload link", "[up](/user_uploads/1/ab/c/f.pdf)", `<p><a href="/user_uploads/1/ab/c/f.pdf">up</a></p>`},
	{"uploaded image previewed", "[pic.png](/user_uploads/1/ab/c/pic.png)",
		"<p><a href=\"/user_uploads/1/ab/c/pic.png\">pic.png</a></p>\n<div class=\"message_inline_image\"><a href=\"/user_uploads/1/ab/c/pic.png\" title=\"pic.png\"><img src=\"/user_uploads/1/ab/c/pic.png\" alt=\"pic.png\"></a></div>"},
	{"images previewed in order after their block", "- [a](/user_uploads/1/a.JPG) and [b](/user_uploads/1/b.gif)\n\nafter",
		"<ul>\n<li><a href=\"/user_uploads/1/a.JPG\">a</a> and <a href=\"/user_uploads/1/b.gif\">b</a></li>\n</ul>\n<div class=\"message_inline_image\"><a href=\"/user_uploads/1/a.JPG\" title=\"a\"><img src=\"/user_uploads/1/a.JPG\" alt=\"a.JPG\"></a></div>\n<div class=\"message_inline_image\"><a href=\"/user_uploads/1/b.gif\" title=\"b\"><img src=\"/user_uploads/1/b.gif\" alt=\"b.gif\"></a></div>\n<p>after</p>"},
	{"a preview's text alternative is its file name", "[team photo](/user_uploads/1/ab/team%20photo.png)",
		"<p><a href=\"/user_uploads/1/ab/team%20photo.png\">team photo</a></p>\n<div class=\"message_inline_image\"><a href=\"/user_uploads/1/ab/team%20photo.png\" title=\"team photo\"><img src=\"/user_uploads/1/ab/team%20photo.png\" alt=\"team photo.png\"></a></div>"},
	{"an upload's known size is data-original-dimensions (level 276)", "[sized](/user_uploads/1/ab/c/sized.png)",
		"<p><a href=\"/user_uploads/1/ab/c/sized.png\">sized</a></p>\n<div class=\"message_inline_image\"><a href=\"/user_uploads/1/ab/c/sized.png\" title=\"sized\"><img data-original-dimensions=\"640x480\" src=\"/user_uploads/1/ab/c/sized.png\" alt=\"sized.png\"></a></div>"},
	{"images elsewhere are not previewed", "[cat](https://x.org/cat.png)", `<p><a href="https://x.org/cat.png">cat</a></p>`},
	{"narrow link", "[n](#narrow/channel/5-Verona)", `<p><a href="#narrow/channel/5-Verona">n</a></p>`},
	{"other relative path", "[x](/etc/passwd)", "<p>[x](/etc/passwd)</p>"},
	{"image is a link", "![cat](https://x.org/cat.png)", `<p>!<a href="https://x.org/cat.png">cat</a></p>`},
	{"link in bold", "**[Static types](https://blog.zulip.com/x)**", `<p><strong><a href="https://blog.zulip.com/x">Static types</a></strong></p>`},
	{"html around link", "<h1>*<h1>[<h2>S</h2>](https://x.org/y)</h1>*</h1>", `<p>&lt;h1&gt;<em>&lt;h1&gt;<a href="https://x.org/y">&lt;h2&gt;S&lt;/h2&gt;</a>&lt;/h1&gt;</em>&lt;/h1&gt;</p>`},
	{"attribute escaping", `[x](https://x.org/?a="b"&c=<d>)`, `<p><a href="https://x.org/?a=&quot;b&quot;&amp;c=&lt;d&gt;">x</a></p>`},
	{"bare URL", "https://github.com", `<p><a href="https://github.com">https://github.com</a></p>`},
	{"bare URL with period", "see https://x.org/a?b=1.", `<p>see <a href="https://x.org/a?b=1">https://x.org/a?b=1</a>.</p>`},
	{"bare URL in parentheses", "(http://en.wikipedia.org/wiki/Each-way_(bet))", `<p>(<a href="http://en.wikipedia.org/wiki/Each-way_(bet)">http://en.wikipedia.org/wiki/Each-way_(bet)</a>)</p>`},
	{"bare URL commas", "http://example.com/something?with,commas,in,url, but not at end", `<p><a href="http://example.com/something?with,commas,in,url">http://example.com/something?with,commas,in,url</a>, but not at end</p>`},
	{"bare URL ampersand", "https://www.google.com/baz_(match)?with=foo&bar=baz with extras", `<p><a href="https://www.google.com/baz_(match)?with=foo&amp;bar=baz">https://www.google.com/baz_(match)?with=foo&amp;bar=baz</a> with extras</p>`},
	{"bare URL end of sentence", "end of sentence https://t.co.", `<p>end of sentence <a href="https://t.co">https://t.co</a>.</p>`},
	{"bare URL after comma", "sorry,http://example.com/", `<p>sorry,<a href="http://example.com/">http://example.com/</a></p>`},
	{"bare URL with user", "http://leo@foo.com/my/file", `<p><a href="http://leo@foo.com/my/file">http://leo@foo.com/my/file</a></p>`},
	{"deep parentheses", "eight is too many https://zulip.com/(we_like_((t(d(o(_(1(2)1)__)o)o))o_nest_)_nest)_nest", "<p>eight is too many https://zulip.com/(we_like_((t(d(o(_(1(2)1)__)o)o))o_nest_)_nest)_nest</p>"},
	{"www", "with www www.zulip.com/foo ok?", `<p>with www <a href="http://www.zulip.com/foo">www.zulip.com/foo</a> ok?</p>`},
	{"email", "a@b.com", `<p><a href="mailto:a@b.com">a@b.com</a></p>`},
	{"email in brackets", "<a@b.com>", `<p>&lt;<a href="mailto:a@b.com">a@b.com</a>&gt;</p>`},
	{"email with path", "a@b.com/foo", "<p>a@b.com/foo</p>"},
	{"javascript bare", "javascript://foo.com", "<p>javascript://foo.com</p>"},
	{"other scheme bare", "itms://itunes.com/apps/appname", "<p>itms://itunes.com/apps/appname</p>"},
	{"URL in strikethrough", "~~test http://xx.xx link~~", `<p><del>test <a href="http://xx.xx">http://xx.xx</a> link</del></p>`},
	{"underscores in URL", "https://x.org/a_b_c*d*", `<p><a href="https://x.org/a_b_c*d*">https://x.org/a_b_c*d*</a></p>`},
}

var inlineCases = []renderCase{
	{"mention", "@**Full Name**", `<p><span class="user-mention" data-user-id="12">@Full Name</span></p>`},
	{"mention case-insensitive", "@**full name**", `<p><span class="user-mention" data-user-id="12">@Full Name</span></p>`},
	{"mention with id", "@**Full Name|12**", `<p><span class="user-mention" data-user-id="12">@Full Name</span></p>`},
	{"mention id only", "@**|16**", `<p><span class="user-mention" data-user-id="16">@Twin</span></p>`},
	{"mention id disambiguates", "@**Twin|15**", `<p><span class="user-mention" data-user-id="15">@Twin</span></p>`},
	{"ambiguous name", "@**Twin**", "<p>@<strong>Twin</strong></p>"},
	{"mention name must match id", "@**Ada Admin|12**", "<p>@<strong>Ada Admin|12</strong></p>"},
	{"silent mention", "@_**Full Name**", `<p><span class="user-mention silent" data-user-id="12">Full Name</span></p>`},
	{"deactivated is silent", "@**Gone Person**", `<p><span class="user-mention silent" data-user-id="14">Gone Person</span></p>`},
	{"unknown name is text", "@**Nobody Here**", "<p>@<strong>Nobody Here</strong></p>"},
	{"mention needs a boundary", "email@**Full Name**", "<p>email@<strong>Full Name</strong></p>"},
	{"mention after parenthesis", "(@**Full Name**)", `<p>(<span class="user-mention" data-user-id="12">@Full Name</span>)</p>`},
	{"wildcard all", "@**all**", `<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@all</span></p>`},
	{"wildcard everyone", "@**everyone**", `<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@everyone</span></p>`},
	{"wildcard channel", "@**channel**", `<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@channel</span></p>`},
	{"wildcard stream", "@**stream**", `<p><span class="user-mention channel-wildcard-mention" data-user-id="*">@stream</span></p>`},
	{"silent wildcard", "@_**all**", `<p><span class="user-mention channel-wildcard-mention silent" data-user-id="*">all</span></p>`},
	{"topic wildcard", "@**topic**", `<p><span class="topic-mention">@topic</span></p>`},
	{"group", "@*grp*", `<p><span class="user-group-mention" data-user-group-id="7">@grp</span></p>`},
	{"silent group", "@_*grp*", `<p><span class="user-group-mention silent" data-user-group-id="7">grp</span></p>`},
	{"unknown group", "@*nobody*", "<p>@<em>nobody</em></p>"},
	{"mention in quote is silent", "> @**Full Name** and @*grp*", "<blockquote>\n<p><span class=\"user-mention silent\" data-user-id=\"12\">Full Name</span> and <span class=\"user-group-mention silent\" data-user-group-id=\"7\">grp</span></p>\n</blockquote>"},
	{"mention in code", "`@**Full Name**`", "<p><code>@**Full Name**</code></p>"},
	{"stream", "#**Verona**", `<p><a class="stream" data-stream-id="5" href="/#narrow/channel/5-Verona">#Verona</a></p>`},
	{"stream topic", "#**Verona>lunch time**", `<p><a class="stream-topic" data-stream-id="5" href="/#narrow/channel/5-Verona/topic/lunch.20time">#Verona &gt; lunch time</a></p>`},
	{"message link", "#**Verona>t@123**", `<p><a class="message-link" href="/#narrow/channel/5-Verona/topic/t/near/123">#Verona &gt; t @ 💬</a></p>`},
	{"stream with space", "#**Denmark Two**", `<p><a class="stream" data-stream-id="6" href="/#narrow/channel/6-Denmark-Two">#Denmark Two</a></p>`},
	{"stream URL encoding", "#**a.b (c)>x.y/z é**", `<p><a class="stream-topic" data-stream-id="8" href="/#narrow/channel/8-a.2Eb-.28c.29/topic/x.2Ey.2Fz.20.C3.A9">#a.b (c) &gt; x.y/z é</a></p>`},
	{"hidden stream is text", "#**secret**", "<p>#<strong>secret</strong></p>"},
	{"hidden stream topic is text", "#**secret>t**", "<p>#<strong>secret&gt;t</strong></p>"},
	{"emoji", ":smile:", `<p><span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span></p>`},
	{"unicode emoji", "🙂", `<p><span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span></p>`},
	{"emoji alias", ":thumbs_up: :+1:", `<p><span aria-label="thumbs up" class="emoji emoji-1f44d" role="img" title="thumbs up">:thumbs_up:</span> <span aria-label="+1" class="emoji emoji-1f44d" role="img" title="+1">:+1:</span></p>`},
	{"custom emoji", ":party_parrot:", `<p><img alt=":party_parrot:" class="emoji" src="/user_avatars/1/emoji/images/3.gif" title="party parrot"></p>`},
	{"custom emoji wins", ":heart:", `<p><img alt=":heart:" class="emoji" src="/user_avatars/1/emoji/images/4.png" title="heart"></p>`},
	{"emoji in bold", "**:smile:**", `<p><strong><span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span></strong></p>`},
	{"emoji without spaces", ":cat:hello:dog::rabbit:", `<p><span aria-label="cat" class="emoji emoji-1f408" role="img" title="cat">:cat:</span>hello<span aria-label="dog" class="emoji emoji-1f415" role="img" title="dog">:dog:</span><span aria-label="rabbit" class="emoji emoji-1f407" role="img" title="rabbit">:rabbit:</span></p>`},
	{"not emoji", ":not_an_emoji: 10:30:45 x::y::z", "<p>:not_an_emoji: 10:30:45 x::y::z</p>"},
	{"skin tones banned", ":skin-tone-2:", "<p>:skin-tone-2:</p>"},
	{"emoji sequence", "🤷\u200d♀️", `<p><span aria-label="woman shrugging" class="emoji emoji-1f937-200d-2640" role="img" title="woman shrugging">:woman_shrugging:</span></p>`},
	{"keycap", "#️⃣", `<p><span aria-label="hash" class="emoji emoji-0023-20e3" role="img" title="hash">:hash:</span></p>`},
	{"text-presentation character", "❤ © 5", "<p>❤ © 5</p>"},
	{"qualified character", "\u2b06\ufe0f", `<p><span aria-label="up" class="emoji emoji-2b06" role="img" title="up">:up:</span></p>`},
	{"unknown sequence stays whole", "👍🏽 🍋\u200d🟪", "<p>👍🏽 🍋\u200d🟪</p>"},
	{"emoji inside words", "Extra👽Terrestrial", `<p>Extra<span aria-label="alien" class="emoji emoji-1f47d" role="img" title="alien">:alien:</span>Terrestrial</p>`},
	{"emoji and line break", "👽\n👽", `<p><span aria-label="alien" class="emoji emoji-1f47d" role="img" title="alien">:alien:</span><br>` + "\n" + `<span aria-label="alien" class="emoji emoji-1f47d" role="img" title="alien">:alien:</span></p>`},
	{"emoji in code", "`🙂`", "<p><code>🙂</code></p>"},
	{"math", "$$x^2$$", `<p><span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><msup><mi>x</mi><mrow><mn>2</mn></mrow></msup></mrow><annotation encoding="application/x-tex">x^2</annotation></semantics></math></span></span></p>`},
	{"math keeps spaces", "$$    x =  7   $$", `<p><span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><mi>x</mi><mo>=</mo><mn>7</mn></mrow><annotation encoding="application/x-tex">    x =  7   </annotation></semantics></math></span></span></p>`},
	{"math escaped dollar", "($$x \\approx 500\\$$$)", `<p>(<span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><mi>x</mi><mo>≈</mo><mn>500</mn><mo>$</mo></mrow><annotation encoding="application/x-tex">x \approx 500\$</annotation></semantics></math></span></span>)</p>`},
	{"math escapes", "$$a<b$$", `<p><span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML"><semantics><mrow><mi>a</mi><mo>&lt;</mo><mi>b</mi></mrow><annotation encoding="application/x-tex">a&lt;b</annotation></semantics></math></span></span></p>`},
	{"math error", "$$\\frac{1$$", `<p><span class="tex-error">$$\frac{1$$</span></p>`},
	{"no math across lines", "$$x=3\ny=4$$", "<p>$$x=3<br>\ny=4$$</p>"},
	{"dollar smiley", "$$_$$ is a fun money-related smiley!", "<p>$$_$$ is a fun money-related smiley!</p>"},
	{"many dollars", "We are going to make some $$$ or maybe even $$$$!", "<p>We are going to make some $$$ or maybe even $$$$!</p>"},
	{"odd dollars", "$foo is$$", "<p>$foo is$$</p>"},
	{"math in code", "`$$a$$`", "<p><code>$$a$$</code></p>"},
	{"math block", "```math\nx<y\n```", `<p><span class="katex-display"><span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><semantics><mrow><mi>x</mi><mo>&lt;</mo><mi>y</mi></mrow><annotation encoding="application/x-tex">x&lt;y</annotation></semantics></math></span></span></span></p>`},
	{"math block paragraphs", "~~~math\na\n\nb\n~~~", `<p><span class="katex-display"><span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><semantics><mrow><mi>a</mi></mrow><annotation encoding="application/x-tex">a</annotation></semantics></math></span></span></span></p>` + "\n" + `<p><span class="katex-display"><span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><semantics><mrow><mi>b</mi></mrow><annotation encoding="application/x-tex">b</annotation></semantics></math></span></span></span></p>`},
	{"math block error", "~~~math\n\\<script type='x'>}\n~~~", `<p><span class="tex-error">\&lt;script type=&#x27;x&#x27;&gt;}</span></p>`},
	{"math block is not markdown", "```math\n\\text{**a**}\n```", `<p><span class="katex-display"><span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML" display="block"><semantics><mrow><mtext>**a**</mtext></mrow><annotation encoding="application/x-tex">\text{**a**}</annotation></semantics></math></span></span></span></p>`},
	{"time ISO", "<time:2017-06-05T22:30:00Z>", `<p><time datetime="2017-06-05T22:30:00Z">2017-06-05T22:30:00Z</time></p>`},
	{"time offset", "<time:2017-06-06T00:30:00+02:00>", `<p><time datetime="2017-06-05T22:30:00Z">2017-06-06T00:30:00+02:00</time></p>`},
	{"time unix", "Let's meet at <time:1496701800>.", `<p>Let's meet at <time datetime="2017-06-05T22:30:00Z">1496701800</time>.</p>`},
	{"time fractional", "<time:1496701800.5>", `<p><time datetime="2017-06-05T22:30:00.500000Z">1496701800.5</time></p>`},
	{"time natural", "<time:Jun 5th 2017, 10:30PM>", `<p><time datetime="2017-06-05T22:30:00Z">Jun 5th 2017, 10:30PM</time></p>`},
	{"time date", "<time:31 Dec 2017>", `<p><time datetime="2017-12-31T00:00:00Z">31 Dec 2017</time></p>`},
	{"time invalid", "<time:**hello world**>", `<p><span class="timestamp-error">Invalid time format: **hello world**</span></p>`},
	{"time hostile", "<time:<alert(1)>>", `<p><span class="timestamp-error">Invalid time format: &lt;alert(1)</span>&gt;</p>`},
}

var safetyCases = []renderCase{
	{"raw html", "<b>hi</b> <script>x</script>", "<p>&lt;b&gt;hi&lt;/b&gt; &lt;script&gt;x&lt;/script&gt;</p>"},
	{"html block", "<div>\nblock\n</div>", "<p>&lt;div&gt;<br>\nblock<br>\n&lt;/div&gt;</p>"},
	{"nested script", "<<script>script>evil()<</script>/script>", "<p>&lt;&lt;script&gt;script&gt;evil()&lt;&lt;/script&gt;/script&gt;</p>"},
	{"unclosed tag", `<script src="http://xx.com/xss.js"<b>`, `<p>&lt;script src="http://xx.com/xss.js"&lt;b&gt;</p>`},
	{"comment", "<!-- x -->", "<p>&lt;!-- x --&gt;</p>"},
	{"autolink brackets", "<https://x.org>", `<p>&lt;<a href="https://x.org">https://x.org</a>&gt;</p>`},
	{"nul", "a\x00b", "<p>a\uFFFDb</p>"},
}

func TestRenderText(t *testing.T)   { runRenderCases(t, textCases) }
func TestRenderCode(t *testing.T)   { runRenderCases(t, codeCases) }
func TestRenderBlocks(t *testing.T) { runRenderCases(t, blockCases) }
func TestRenderLinks(t *testing.T)  { runRenderCases(t, linkCases) }
func TestRenderInline(t *testing.T) { runRenderCases(t, inlineCases) }
func TestRenderSafety(t *testing.T) { runRenderCases(t, safetyCases) }

func TestRenderWithoutLookup(t *testing.T) {
	got := New().Render("@**Full Name** #**Verona** :smile: :party_parrot:", nil, nil).HTML
	want := `<p>@<strong>Full Name</strong> #<strong>Verona</strong> <span aria-label="smile" class="emoji emoji-1f642" role="img" title="smile">:smile:</span> :party_parrot:</p>`
	if got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// A render reuses its parser context (output.freshContext): what one
// message leaves in it must not change the next.
func TestRenderKeepsNothingFromTheMessageBefore(t *testing.T) {
	r := New()
	before := []string{
		"[x]: https://a.example\n\n[x]",
		"- a\n\n  - b\n\n- c\n",
		"*a _b **c ~~d",
		"| a | b |\n|---|---|\n| 1 | 2 |",
		"```python\ndef f():\n    return 1\n```",
		"> quote\n> - item\n\n    indented",
		"[](unclosed",
	}
	next := []string{"[b](https://c.example)", "[x]", "1. c\n2. d", "*a* _b_ **c** ~~d~~", "a | b", "    code", "> q"}
	for _, b := range next {
		r.Render("hi", nil, nil)
		want := r.Render(b, nil, nil).HTML
		for _, a := range before {
			r.Render(a, nil, nil)
			if got := r.Render(b, nil, nil).HTML; got != want {
				t.Errorf("%q after %q: got %q, want %q", b, a, got, want)
			}
		}
	}
}
