package api_test

import (
	"bytes"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lanchat/backend/apitest"
)

func TestAvatars(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	me := alice.Get("/api/v1/users/me", nil).OK()
	url := me.Str("avatar_url")
	// The generated default is a PNG (Zulip's mobile app draws no SVG), at
	// the medium size too, under the name the app derives from avatar_url.
	sizes := map[string]int{}
	for _, path := range []string{url, strings.Replace(url, ".png", "-medium.png", 1)} {
		got := bob.Do("GET", path, "", nil)
		img, err := png.Decode(bytes.NewReader(got.Raw))
		if got.Status != 200 || got.Header.Get("Content-Type") != "image/png" || err != nil {
			t.Fatalf("generated avatar %s: %d %v %v", path, got.Status, got.Header, err)
		}
		sizes[path] = img.Bounds().Dx()
	}
	if len(sizes) != 2 || sizes[url] >= sizes[strings.Replace(url, ".png", "-medium.png", 1)] {
		t.Errorf("avatar sizes %v: the medium one should be larger", sizes)
	}
	// Zulip's /avatar/{id or email}/medium is the same medium image.
	medium := bob.Do("GET", strings.Replace(url, ".png", "-medium.png", 1), "", nil).Raw
	for _, path := range []string{"/avatar/alice@example.com/medium", fmt.Sprintf("/avatar/%d/medium", me.Int("user_id"))} {
		if got := bob.Do("GET", path, "", nil); got.Status != 200 || got.Header.Get("Content-Type") != "image/png" || !bytes.Equal(got.Raw, medium) {
			t.Errorf("%s: %d %v, not the medium avatar", path, got.Status, got.Header)
		}
	}
	if bob.Do("GET", "/avatar/9999/medium", "", nil).Status != 404 || s.Anonymous().Do("GET", "/avatar/alice@example.com/medium", "", nil).Status != 401 {
		t.Error("medium avatar of an unknown user, or without credentials")
	}
	if s.Anonymous().Do("GET", url, "", nil).Status != 401 {
		t.Error("anonymous avatar fetch allowed")
	}
	if bob.Do("GET", "/avatar/alice@example.com", "", nil).Status != 200 || bob.Do("GET", "/avatar/9999", "", nil).Status != 404 {
		t.Error("avatar by email / unknown user")
	}
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"realm_user"}})
	res := alice.PostMultipart("/api/v1/users/me/avatar", nil, map[string][2]string{"file": {"me.png", apitest.PNG(t, 32)}}).OK()
	newURL := res.Str("avatar_url")
	if newURL == url || !strings.Contains(newURL, "version=1") {
		t.Errorf("avatar_url after upload %q (was %q)", newURL, url)
	}
	if got := bob.Do("GET", newURL, "", nil); got.Header.Get("Content-Type") != "image/png" {
		t.Errorf("uploaded avatar type %v", got.Header)
	}
	if evs := q.next(); len(evs) != 1 || evs[0]["person"].(map[string]any)["avatar_url"] != newURL {
		t.Errorf("avatar event %v", evs)
	}
	refusals := []struct {
		name  string
		files map[string][2]string
		msg   string
	}{
		{"not an image", map[string][2]string{"file": {"me.png", "not an image"}}, "Invalid image format"},
		{"two files", map[string][2]string{"a": {"a.png", apitest.PNG(t, 4)}, "b": {"b.png", apitest.PNG(t, 4)}}, "You must upload exactly one avatar."},
		{"over 5 MiB", map[string][2]string{"file": {"big.png", "\x89PNG\r\n\x1a\n" + strings.Repeat("x", 5<<20)}}, "Uploaded file is larger than the allowed limit of 5 MiB"},
	}
	for _, r := range refusals {
		if msg := alice.PostMultipart("/api/v1/users/me/avatar", nil, r.files).Fails(400, "BAD_REQUEST").Msg(); msg != r.msg {
			t.Errorf("%s: %q", r.name, msg)
		}
	}
	// Back to the default: a new version again, so no client keeps showing
	// the old image from its cache, and the old file is gone.
	alice.Delete("/api/v1/users/me/avatar", nil).OK()
	reset := alice.Get("/api/v1/users/me", nil).OK().Str("avatar_url")
	if !strings.Contains(reset, "version=2") {
		t.Errorf("avatar_url after reset %q", reset)
	}
	if got := bob.Do("GET", reset, "", nil); got.Header.Get("Content-Type") != "image/png" || !bytes.Equal(got.Raw, bob.Do("GET", url, "", nil).Raw) {
		t.Errorf("after reset, not the generated default: %v", got.Header)
	}
	if evs := q.next(); len(evs) != 1 || evs[0]["person"].(map[string]any)["avatar_source"] != "G" {
		t.Errorf("reset event %v", evs)
	}
	if files, _ := os.ReadDir(filepath.Join(s.DataDir, "avatars")); len(files) != 0 {
		t.Errorf("avatar files left after reset: %v", files)
	}
}

// Zulip's :zulip: emoji (reaction type zulip_extra_emoji) is an image at
// Zulip's static path, served to anyone.
func TestZulipEmojiImage(t *testing.T) {
	s := apitest.Start(t)
	got := s.Anonymous().Do("GET", "/static/generated/emoji/images/emoji/unicode/zulip.png", "", nil)
	img, err := png.Decode(bytes.NewReader(got.Raw))
	if got.Status != 200 || got.Header.Get("Content-Type") != "image/png" || err != nil || img.Bounds().Dx() != 64 {
		t.Fatalf("zulip.png: %d %v %v", got.Status, got.Header, err)
	}
}
