package api_test

import (
	"strings"
	"testing"

	"lanchat/backend/apitest"
	"lanchat/backend/server"
)

func TestUploads(t *testing.T) {
	s := apitest.StartConfig(t, server.Config{DataDir: t.TempDir(), Dev: true, MaxUploadSize: 100 << 10})
	alice, bob, guest := s.Login("alice@example.com"), s.Login("bob@example.com"), s.Login("guest@example.com")

	res := alice.PostMultipart("/api/v1/user_uploads", nil, map[string][2]string{"/home/alice/report": {"../../etc/My Report.pdf", "%PDF-1.4 fake"}}).OK()
	uri := res.Str("uri")
	if !strings.HasPrefix(uri, "/user_uploads/1/") || !strings.HasSuffix(uri, "/My_Report.pdf") || res.Str("url") != uri || res.Str("filename") != "My_Report.pdf" {
		t.Fatalf("upload answer %s", res.Raw)
	}
	got := alice.Do("GET", uri, "", nil)
	if got.Status != 200 || string(got.Raw) != "%PDF-1.4 fake" || got.Header.Get("Content-Type") != "application/octet-stream" ||
		!strings.HasPrefix(got.Header.Get("Content-Disposition"), "attachment") || got.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("owner download: %d %v", got.Status, got.Header)
	}
	// Nobody else sees it until a message they can read links it.
	if got := bob.Do("GET", uri, "", nil); got.Status != 404 {
		t.Errorf("unlinked upload for bob: %d", got.Status)
	}
	send(t, alice, streamMsg("secret", "files", "[report]("+uri+")"))
	if got := bob.Do("GET", uri, "", nil); got.Status != 404 {
		t.Errorf("upload linked only in a private stream, for bob: %d", got.Status)
	}
	send(t, alice, streamMsg("general", "files", "[report]("+uri+")"))
	if got := bob.Do("GET", uri, "", nil); got.Status != 200 {
		t.Errorf("upload linked in general, for bob: %d", got.Status)
	}
	if got := guest.Do("GET", uri, "", nil); got.Status != 200 {
		t.Errorf("for the guest in general: %d", got.Status)
	}
	if got := s.Anonymous().Do("GET", uri, "", nil); got.Status != 401 {
		t.Errorf("anonymous: %d", got.Status)
	}
	if got, _ := history(t, bob, narrowed(`[["has","attachment"]]`)); len(got) != 1 {
		t.Errorf("has:attachment %v", got)
	}

	// Images show inline with their detected type; HTML never does.
	img := alice.PostMultipart("/api/v1/user_uploads", nil, map[string][2]string{"f": {"pic.png", pngImage(t, 4)}}).OK().Str("uri")
	if got := alice.Do("GET", img, "", nil); got.Header.Get("Content-Type") != "image/png" || !strings.HasPrefix(got.Header.Get("Content-Disposition"), "inline") {
		t.Errorf("image headers %v", got.Header)
	}
	page := alice.PostMultipart("/api/v1/user_uploads", nil, map[string][2]string{"f": {"x.html", "<html><script>alert(1)</script>"}}).OK().Str("uri")
	if got := alice.Do("GET", page, "", nil); got.Header.Get("Content-Type") != "application/octet-stream" || !strings.Contains(got.Header.Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("html upload headers %v", got.Header)
	}

	alice.PostMultipart("/api/v1/user_uploads", nil, map[string][2]string{"f": {"big.bin", strings.Repeat("x", 200<<10)}}).Fails(400, "BAD_REQUEST")
	alice.PostMultipart("/api/v1/user_uploads", nil, nil).Fails(400, "BAD_REQUEST")
	if got := alice.Do("GET", "/user_uploads/1/00/nope/x.txt", "", nil); got.Status != 404 || got.Body["result"] != "error" {
		t.Errorf("missing upload: %d %s", got.Status, got.Raw)
	}
	list := alice.Get("/api/v1/attachments", nil).OK()
	if len(list.List("attachments")) != 3 || list.Int("upload_space_used") == 0 {
		t.Errorf("attachments %s", list.Raw)
	}
}
