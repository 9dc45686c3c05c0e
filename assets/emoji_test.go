package assets

import "testing"

func TestEmojiLookups(t *testing.T) {
	// Zulip's names where they differ from the dataset's, and the dataset's
	// names elsewhere.
	for name, code := range map[string]string{
		"smile": "1f642", "big_smile": "1f604", "slightly_smiling_face": "1f642", "+1": "1f44d", "thumbs_up": "1f44d",
		"thumbsup": "1f44d", "wave": "1f44b", "poop": "1f4a9", "cat": "1f408", "cat_face": "1f431", "heart": "2764",
		"hash": "0023-20e3", "woman_shrugging": "1f937-200d-2640", "woman-shrugging": "1f937-200d-2640",
		"us": "1f1fa-1f1f8", "flag-us": "1f1fa-1f1f8", "relaxed": "263a", "airplane": "2708",
	} {
		if e, ok := EmojiByName(name); !ok || e.Code != code {
			t.Errorf("EmojiByName(%q) = %+v %v, want %s", name, e, ok, code)
		}
	}
	for code, name := range map[string]string{"1f44d": "+1", "1f642": "smile", "1f937-200d-2640": "woman_shrugging", "2b06": "up"} {
		if e, ok := EmojiByCode(code); !ok || e.Name != name {
			t.Errorf("EmojiByCode(%q) = %+v %v", code, e, ok)
		}
	}
	for _, name := range []string{"not_an_emoji", "skin-tone-2", ""} {
		if _, ok := EmojiByName(name); ok {
			t.Errorf("EmojiByName(%q) found", name)
		}
	}
}

func TestEmojiAt(t *testing.T) {
	cases := []struct {
		in   string
		code string
		size int
	}{
		{"🙂 hi", "1f642", len("🙂")},
		{"🇺🇸!", "1f1fa-1f1f8", len("🇺🇸")},
		{"☺️ok", "263a", len("☺️")},
		{"#️⃣", "0023-20e3", len("#️⃣")},
		{"🤷\u200d♀️ yes", "1f937-200d-2640", len("🤷\u200d♀️")},
		{"🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F", "1f3f4-e0067-e0062-e0065-e006e-e0067-e007f", len("🏴\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F")},
		// Unknown sequences are read whole, so callers leave them as text.
		{"👍🏽!", "", len("👍🏽")},
		// Text-presentation characters are emoji only with FE0F.
		{"☺ok", "", len("☺")},
		{"5", "", 1},
		{"hello", "", 0},
		{"", "", 0},
	}
	for _, tc := range cases {
		e, n, ok := EmojiAt(tc.in)
		if e.Code != tc.code || n != tc.size || ok != (tc.code != "") {
			t.Errorf("EmojiAt(%q) = %q %d %v, want %q %d", tc.in, e.Code, n, ok, tc.code, tc.size)
		}
	}
}
