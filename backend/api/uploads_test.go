package api_test

import (
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"lanchat/backend/apitest"
	"lanchat/backend/server"
)

func TestUploads(t *testing.T) {
	s := apitest.StartConfig(t, server.Config{DataDir: t.TempDir(), Dev: true, MaxUploadSize: 100 << 10})
	alice, bob, guest := s.Login("alice@example.com"), s.Login("bob@example.com"), s.Login("guest@example.com")

	res := alice.PostMultipart("/api/v1/user_uploads", nil, map[string][2]string{"/home/alice/report": {"../../etc/My Report.pdf", "%PDF-1.4 fake"}}).OK()
	uri := res.Str("uri")
	if !strings.HasPrefix(uri, "/user_uploads/1/") || !strings.HasSuffix(uri, "/My_Report.pdf") || res.Str("url") != uri || res.Str("filename") != "My Report.pdf" {
		t.Fatalf("upload answer %s", res.Raw)
	}
	got := alice.Do("GET", uri, "", nil)
	if got.Status != 200 || string(got.Raw) != "%PDF-1.4 fake" || got.Header.Get("Content-Type") != "application/pdf" ||
		got.Header.Get("Content-Disposition") != "inline; filename=My_Report.pdf" || got.Header.Get("X-Content-Type-Options") != "nosniff" {
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

	// Images, PDFs and plain text show inline with their detected type;
	// everything else downloads as opaque bytes, sandboxed. The type comes
	// from the content, never from the name.
	cases := []struct {
		name, content, ctype, disposition, policy string
	}{
		{"pic.png", apitest.PNG(t, 4), "image/png", "inline; filename=pic.png", "sandbox"},
		{"notes.txt", "plain words", "text/plain; charset=utf-8", "inline; filename=notes.txt", "sandbox"},
		{"x.html", "<html><script>alert(1)</script>", "application/octet-stream", "attachment; filename=x.html", "sandbox"},
		{"fake.png", "<svg onload=alert(1)>", "text/plain; charset=utf-8", "inline; filename=fake.png", "sandbox"}, // shown as text, never drawn
		{"Größe.bin", "\x00\x01binary", "application/octet-stream", "attachment; filename*=utf-8''Gr%C3%B6%C3%9Fe.bin", "sandbox"},
		{"doc.pdf", "%PDF-1.7 x", "application/pdf", "inline; filename=doc.pdf", "plugin-types application/pdf"},
	}
	for _, tc := range cases {
		u := alice.PostMultipart("/api/v1/user_uploads", nil, map[string][2]string{"f": {tc.name, tc.content}}).OK().Str("uri")
		got := alice.Do("GET", u, "", nil)
		if got.Header.Get("Content-Type") != tc.ctype || got.Header.Get("Content-Disposition") != tc.disposition ||
			!strings.Contains(got.Header.Get("Content-Security-Policy"), tc.policy) || got.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s served with %v", tc.name, got.Header)
		}
	}

	alice.PostMultipart("/api/v1/user_uploads", nil, map[string][2]string{"f": {"big.bin", strings.Repeat("x", 200<<10)}}).Fails(400, "BAD_REQUEST")
	alice.PostMultipart("/api/v1/user_uploads", nil, nil).Fails(400, "BAD_REQUEST")
	for _, missing := range []string{"/user_uploads/1/00/nope/x.txt", "/user_uploads/2" + strings.TrimPrefix(uri, "/user_uploads/1")} {
		if got := alice.Do("GET", missing, "", nil); got.Status != 404 || got.Body["result"] != "error" {
			t.Errorf("%s: %d %s", missing, got.Status, got.Raw)
		}
	}
	list := alice.Get("/api/v1/attachments", nil).OK()
	if len(list.List("attachments")) != 1+len(cases) || list.Int("upload_space_used") == 0 {
		t.Errorf("attachments %s", list.Raw)
	}
}

// TestRepostingAnUploadURLGrantsNothing: as in Zulip, a message grants
// access to a file only when its sender could already access it. Someone
// who noted the URL of a file in a message since deleted, or of a file in
// a private stream, gains nothing by posting the URL again; someone who
// can see the file shares it by reposting.
func TestRepostingAnUploadURLGrantsNothing(t *testing.T) {
	s := apitest.Start(t)
	admin, alice, bob, guest := s.Login("admin@example.com"), s.Login("alice@example.com"), s.Login("bob@example.com"), s.Login("guest@example.com")
	upload := func() string {
		return alice.PostMultipart("/api/v1/user_uploads", nil, map[string][2]string{"file": {"plan.txt", "the plan"}}).OK().Str("uri")
	}
	fetch := func(c *apitest.Client, uri string) int { return c.Do("GET", uri, "", nil).Status }

	// Deleted: bob saw it in general, then it was deleted.
	deleted := upload()
	id := send(t, alice, streamMsg("general", "files", "[plan]("+deleted+")"))
	if fetch(bob, deleted) != 200 {
		t.Fatal("bob cannot see a file linked in general")
	}
	admin.Delete("/api/v1/messages/"+strconv.FormatInt(id, 10), nil).OK()
	send(t, bob, apitest.Form{"type": "private", "to": "bob@example.com", "content": "[mine now](" + deleted + ")"})
	send(t, bob, streamMsg("general", "files", "[everyone's now]("+deleted+")"))
	if st := fetch(bob, deleted); st != 404 {
		t.Errorf("bob after reposting a deleted message's file to himself: %d, want 404", st)
	}
	if st := fetch(guest, deleted); st != 404 {
		t.Errorf("the guest after bob reposted a deleted message's file in general: %d, want 404", st)
	}

	// Private: bob is not in secret, where the file is.
	private := upload()
	send(t, alice, streamMsg("secret", "files", "[plan]("+private+")"))
	send(t, bob, streamMsg("general", "files", "[guessed]("+private+")"))
	if st := fetch(bob, private); st != 404 {
		t.Errorf("bob after reposting a private stream's file: %d, want 404", st)
	}

	// Shared: bob can see it, and shares it with the guest.
	shared := upload()
	send(t, alice, apitest.Form{"type": "private", "to": "bob@example.com", "content": "[plan](" + shared + ")"})
	send(t, bob, streamMsg("general", "files", "[passing on]("+shared+")"))
	if st := fetch(guest, shared); st != 200 {
		t.Errorf("the guest, given the file by bob who could see it: %d, want 200", st)
	}
}

// TestUploadQuota: a user's files together stay within the server's
// per-user quota (--upload-quota); GET /attachments reports the space used.
func TestUploadQuota(t *testing.T) {
	s := apitest.StartConfig(t, server.Config{DataDir: t.TempDir(), Dev: true, MaxUploadSize: 100 << 10, UploadQuota: 150 << 10})
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	file := func(n int) map[string][2]string {
		return map[string][2]string{"file": {"f.bin", strings.Repeat("x", n)}}
	}
	alice.PostMultipart("/api/v1/user_uploads", nil, file(100<<10)).OK()
	res := alice.PostMultipart("/api/v1/user_uploads", nil, file(60<<10)).Fails(400, "BAD_REQUEST")
	if !strings.Contains(res.Msg(), "quota") {
		t.Errorf("message %q", res.Msg())
	}
	alice.PostMultipart("/api/v1/user_uploads", nil, file(50<<10)).OK() // exactly up to the quota
	bob.PostMultipart("/api/v1/user_uploads", nil, file(60<<10)).OK()   // each user has their own
	if used := alice.Get("/api/v1/attachments", nil).OK().Int("upload_space_used"); used != 150<<10 {
		t.Errorf("upload_space_used %d", used)
	}
}

// TestConcurrentUploadsPerUserAreBounded: of three uploads a user has in
// flight at once, one is refused with 429 (and its connection closed, so
// the client stops sending) while the other two are still arriving; other
// users upload meanwhile, and the user may upload again once theirs finish.
func TestConcurrentUploadsPerUserAreBounded(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	small := map[string][2]string{"file": {"a.txt", "small"}}
	answers := make(chan int, 3)
	var bodies []*io.PipeWriter
	for range 3 {
		pr, pw := io.Pipe()
		bodies = append(bodies, pw)
		// More than the client's write buffer, so the request reaches the
		// server at once; the rest of the body waits.
		go fmt.Fprint(pw, "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"slow.txt\"\r\n\r\n"+strings.Repeat("slow ", 4000))
		go func() { answers <- uploadStream(s.URL, alice, "multipart/form-data; boundary=b", pr) }()
	}
	select {
	case status := <-answers:
		if status != http.StatusTooManyRequests {
			t.Fatalf("the first of three concurrent uploads to finish answered %d, want 429", status)
		}
	case <-time.After(10 * time.Second): // a hang detector, not a speed limit
		t.Fatal("three concurrent uploads all kept reading")
	}
	alice.PostMultipart("/api/v1/user_uploads", nil, small).Fails(429, "RATE_LIMIT_HIT")
	bob.PostMultipart("/api/v1/user_uploads", nil, small).OK()
	for _, pw := range bodies {
		go func() {
			fmt.Fprint(pw, "\r\n--b--\r\n")
			pw.Close()
		}()
	}
	for range 2 {
		if status := <-answers; status != 200 {
			t.Errorf("an upload in flight answered %d", status)
		}
	}
	alice.PostMultipart("/api/v1/user_uploads", nil, small).OK()
}

// slowUpload starts an upload as c whose file part arrives one byte every
// interval after a first piece larger than the client's write buffer (so
// the request reaches the server at once); it returns the answer's status
// once it comes, 0 when the request failed.
func slowUpload(s *apitest.Server, c *apitest.Client, interval time.Duration) (status <-chan int, stop func()) {
	pr, pw := io.Pipe()
	go func() {
		fmt.Fprint(pw, "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"slow.txt\"\r\n\r\n"+strings.Repeat("slow ", 4000))
		for {
			time.Sleep(interval)
			if _, err := pw.Write([]byte("s")); err != nil {
				return
			}
		}
	}()
	answer := make(chan int, 1)
	go func() { answer <- uploadStream(s.URL, c, "multipart/form-data; boundary=b", pr) }()
	return answer, func() { pw.CloseWithError(io.ErrUnexpectedEOF) }
}

// TestUploadSlotsCountBotsAsTheirOwner: a member's bots share the
// member's two upload slots. Before, alice and four bots of hers trickling
// bodies held all eight of the server's, and everyone else got 429.
func TestUploadSlotsCountBotsAsTheirOwner(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	var bots []*apitest.Client
	for i := range 4 {
		res := alice.Post("/api/v1/bots", apitest.Form{"full_name": fmt.Sprintf("Bot %d", i), "short_name": fmt.Sprintf("b%d", i)}).OK()
		bots = append(bots, s.As(res.Str("email"), res.Str("api_key")))
	}
	var answers []<-chan int
	for _, c := range []*apitest.Client{alice, bots[0]} {
		status, stop := slowUpload(s, c, time.Second)
		defer stop()
		answers = append(answers, status)
	}
	time.Sleep(300 * time.Millisecond) // both hold their slot
	small := map[string][2]string{"file": {"a.txt", "small"}}
	for _, bot := range bots {
		bot.PostMultipart("/api/v1/user_uploads", nil, small).Fails(429, "RATE_LIMIT_HIT")
	}
	bob.PostMultipart("/api/v1/user_uploads", nil, small).OK()
	for _, a := range answers {
		select {
		case status := <-a:
			t.Errorf("a slow upload answered %d while still arriving", status)
		default:
		}
	}
}

// TestSlowUploadIsCutOff: an upload's whole body must arrive within the
// upload read timeout however it is trickled; its slot is then free.
func TestSlowUploadIsCutOff(t *testing.T) {
	s := apitest.StartConfig(t, server.Config{DataDir: t.TempDir(), Dev: true, UploadReadTimeout: time.Second})
	alice := s.Login("alice@example.com")
	var answers []<-chan int
	for range 2 {
		status, stop := slowUpload(s, alice, 200*time.Millisecond)
		defer stop()
		answers = append(answers, status)
	}
	for _, a := range answers {
		select {
		case status := <-a:
			if status != http.StatusRequestTimeout && status != 0 {
				t.Errorf("a trickled upload answered %d, want 408 (or a closed connection)", status)
			}
		case <-time.After(20 * time.Second): // a hang detector, not a speed limit
			t.Fatal("a trickled upload kept its slot past the upload read timeout")
		}
	}
	alice.PostMultipart("/api/v1/user_uploads", nil, map[string][2]string{"file": {"a.txt", "after"}}).OK()
}

// TestUploadsStreamAsTheyArrive: an upload's file is written to the data
// directory while its body is still arriving. Before, the multipart form
// was read whole first, up to 8 MB of it in memory (ten parallel 26 MB
// uploads peaked at 244 MB).
func TestUploadsStreamAsTheyArrive(t *testing.T) {
	s := apitest.Start(t)
	alice := s.Login("alice@example.com")
	pr, pw := io.Pipe()
	defer pw.CloseWithError(io.ErrUnexpectedEOF) // on failure, the server stops waiting
	answer := make(chan int, 1)
	go func() { answer <- uploadStream(s.URL, alice, "multipart/form-data; boundary=b", pr) }()
	fmt.Fprint(pw, "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"big.bin\"\r\n\r\n")
	piece := strings.Repeat("x", 1<<20)
	for range 3 {
		fmt.Fprint(pw, piece)
	}
	written := func() (n int64) {
		filepath.WalkDir(filepath.Join(s.DataDir, "uploads"), func(_ string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				if info, err := d.Info(); err == nil {
					n += info.Size()
				}
			}
			return nil
		})
		return n
	}
	for start := time.Now(); written() < 1<<20; time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > 10*time.Second { // a hang detector
			t.Fatalf("3 MB of a file sent, %d bytes of it on disk", written())
		}
	}
	fmt.Fprint(pw, piece+"\r\n--b--\r\n")
	pw.Close()
	if status := <-answer; status != 200 {
		t.Fatalf("upload answered %d", status)
	}
	if n := written(); n != 4<<20 {
		t.Errorf("%d bytes stored, want %d", n, 4<<20)
	}
}

// uploadStream posts an upload body as c, outside the test's goroutine,
// and returns the status (0 when the request failed).
func uploadStream(base string, c *apitest.Client, contentType string, body io.Reader) int {
	req, err := http.NewRequest("POST", base+"/api/v1/user_uploads", body)
	if err != nil {
		return 0
	}
	req.Header.Set("Content-Type", contentType)
	req.SetBasicAuth(c.Email(), c.Key())
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0
	}
	res.Body.Close()
	return res.StatusCode
}

// GET /attachments lists each upload with an integer ID and the messages
// linking it; DELETE /attachments/{id} removes one of one's own uploads.
func TestAttachments(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	uri := alice.PostMultipart("/api/v1/user_uploads", nil, map[string][2]string{"f": {"notes.txt", "some notes"}}).OK().Str("uri")
	linking := send(t, alice, streamMsg("general", "files", "[notes]("+uri+")"))
	send(t, alice, streamMsg("general", "files", "no link here"))
	list := alice.Get("/api/v1/attachments", nil).OK().List("attachments")
	if len(list) != 1 {
		t.Fatalf("attachments %v", list)
	}
	a := list[0].(map[string]any)
	id, isNum := a["id"].(float64)
	msgs, _ := a["messages"].([]any)
	if !isNum || id <= 0 || len(msgs) != 1 || msgs[0].(map[string]any)["id"] != float64(linking) || msgs[0].(map[string]any)["date_sent"] == nil {
		t.Errorf("attachment %v", a)
	}
	path := fmt.Sprintf("/api/v1/attachments/%d", int64(id))
	bob.Delete(path, nil).Fails(400, "BAD_REQUEST")
	alice.Delete(path, nil).OK()
	alice.Delete(path, nil).Fails(400, "BAD_REQUEST")
	if got := alice.Get("/api/v1/attachments", nil).OK(); len(got.List("attachments")) != 0 || got.Int("upload_space_used") != 0 {
		t.Errorf("after delete: %s", got.Raw)
	}
	if got := alice.Do("GET", uri, "", nil); got.Status != 404 {
		t.Errorf("deleted file still served: %d", got.Status)
	}
}

// GET /api/v1/user_uploads/{path} hands an API client a temporary URL that
// serves the file without credentials; only a token the server signed works.
func TestTemporaryUploadURL(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	uri := alice.PostMultipart("/api/v1/user_uploads", nil, map[string][2]string{"f": {"notes.txt", "some notes"}}).OK().Str("uri")
	url := alice.Get("/api/v1"+uri, nil).OK().Str("url")
	if !strings.HasPrefix(url, "/user_uploads/temporary/") || !strings.HasSuffix(url, "/notes.txt") {
		t.Fatalf("temporary url %q", url)
	}
	if got := s.Anonymous().Do("GET", url, "", nil); got.Status != 200 || string(got.Raw) != "some notes" {
		t.Errorf("temporary url without credentials: %d %s", got.Status, got.Raw)
	}
	token := strings.Split(strings.TrimPrefix(url, "/user_uploads/temporary/"), "/")[0]
	payload, sig, _ := strings.Cut(token, ".")
	for _, forged := range []string{payload + "." + sig[1:] + "A", payload[1:] + "." + sig, "nonsense"} {
		if got := s.Anonymous().Do("GET", "/user_uploads/temporary/"+forged+"/notes.txt", "", nil); got.Status != 404 {
			t.Errorf("forged token %q: %d", forged, got.Status)
		}
	}
	// Bob may not see the unlinked file, so he gets no URL for it.
	if got := bob.Do("GET", "/api/v1"+uri, "", nil); got.Status != 404 {
		t.Errorf("bob's temporary url: %d %s", got.Status, got.Raw)
	}
}
