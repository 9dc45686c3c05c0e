package slack

import (
	"encoding/json"
	"os"
	"testing"
	"unicode/utf8"
)

// Zulip's own conversion cases, as its converter answers them, except
// where Lanchat deliberately keeps a link's label.
func TestConvertZulipFixtureCases(t *testing.T) {
	data, err := os.ReadFile("testdata/slack_message_conversion.json")
	if err != nil {
		t.Fatal(err)
	}
	var fixture struct {
		RegularTests []struct {
			Name, Input      string
			ConversionOutput string `json:"conversion_output"`
		} `json:"regular_tests"`
	}
	if err := json.Unmarshal(data, &fixture); err != nil {
		t.Fatal(err)
	}
	// Zulip leaves "url|label" as text; a markdown link keeps both.
	ours := map[string]string{
		"slack_link_with_pipe": ">Google logo today:\n>[foo](https://foo.com)\n>Kinda boring",
	}
	if len(fixture.RegularTests) < 16 {
		t.Fatalf("only %d cases in the fixture", len(fixture.RegularTests))
	}
	for _, c := range fixture.RegularTests {
		want := c.ConversionOutput
		if o, ok := ours[c.Name]; ok {
			want = o
		}
		if got := convert(c.Input, names{}); got != want {
			t.Errorf("%s: convert(%q) = %q, want %q", c.Name, c.Input, got, want)
		}
	}
}

func TestConvertEntities(t *testing.T) {
	n := names{users: map[string]string{"U1": "Ada Lovelace"}, channels: map[string]string{"C1": "general"}}
	for _, c := range []struct{ in, want string }{
		{"<@U1> hi", "@**Ada Lovelace** hi"},
		{"<@U1|ada>: see", "@**Ada Lovelace**: see"},
		{"<@U9|ghost> and <@U8>", "@ghost and @U8"},
		{"in <#C1|general> and <#C2|other>", "in #**general** and #**other**"},
		{"<!here> <!channel> <!everyone>", "@**all** @**all** @**all**"},
		{"<!subteam^S1|@devs> look", "@devs look"},
		{"<https://a.test/x|the docs>", "[the docs](https://a.test/x)"},
		{"<https://a.test/(x)|a [b]>", `[a [b\]](https://a.test/%28x%29)`},
		{"<http://aa.com|aa.com>", "http://aa.com"},
		{"1 &lt; 2 &amp;&amp; 3 &gt; 2 &copy;", "1 < 2 && 3 > 2 &copy;"},
		{"a < b", "a < b"},
		{"`*not bold*` *bold*", "`*not bold*` **bold**"},
		{"```\n_x_\n``` _y_", "```\n_x_\n``` *y*"},
		{"*see <https://a.test/a_b_c|here>*", "**see [here](https://a.test/a_b_c)**"},
		{"*two\nlines*", "*two\nlines*"},
		{"Zoë *grüße*", "Zoë **grüße**"},
	} {
		if got := convert(c.in, n); got != c.want {
			t.Errorf("convert(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzConvert(f *testing.F) {
	for _, s := range []string{"*a* _b_ ~c~", "<@U1|x> <#C1> <!here> <http://a|b>", "&lt;&amp;", "```*x*```", "<", "*<a>*", "_`_`_"} {
		f.Add(s)
	}
	n := names{users: map[string]string{"U1": "Ada"}, channels: map[string]string{"C1": "general"}}
	f.Fuzz(func(t *testing.T, in string) {
		out := convert(in, n)
		if utf8.ValidString(in) && !utf8.ValidString(out) {
			t.Errorf("convert(%q) = %q: not UTF-8", in, out)
		}
	})
}
