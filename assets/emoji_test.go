package assets

import "testing"

func TestEmojiLookups(t *testing.T) {
	for name, code := range map[string]string{"smile": "1f604", "+1": "1f44d", "thumbsup": "1f44d", "wave": "1f44b", "flag-us": "1f1fa-1f1f8", "relaxed": "263a"} {
		if e, ok := EmojiByName(name); !ok || e.Code != code {
			t.Errorf("EmojiByName(%q) = %+v %v, want %s", name, e, ok, code)
		}
	}
	if e, ok := EmojiByCode("1f44d"); !ok || e.Name != "+1" {
		t.Errorf("EmojiByCode(1f44d) = %+v", e)
	}
	if _, ok := EmojiByName("not_an_emoji"); ok {
		t.Error("unknown name found")
	}
	if len(EmojiNames()) < 1800 {
		t.Errorf("only %d names", len(EmojiNames()))
	}
}

func TestEmojiAt(t *testing.T) {
	cases := []struct {
		in   string
		code string
		size int
	}{
		{"🙂 hi", "1f642", len("🙂")},
		// Skin tones are not separate entries: the base emoji, then the tone.
		{"👍🏽!", "1f44d", len("👍")},
		{"🇺🇸", "1f1fa-1f1f8", len("🇺🇸")},
		{"☺️ok", "263a", len("☺️")},
		{"☺ok", "263a", len("☺")},
		{"hello", "", 0},
		{"", "", 0},
	}
	for _, tc := range cases {
		e, n := EmojiAt(tc.in)
		if e.Code != tc.code || n != tc.size {
			t.Errorf("EmojiAt(%q) = %q %d, want %q %d", tc.in, e.Code, n, tc.code, tc.size)
		}
	}
}
