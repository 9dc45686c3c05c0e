package api_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"lanchat/backend/apitest"
	"lanchat/backend/server"
)

// stalledDownload sends a request for path as c on a raw connection with a
// 4 KB receive buffer and never reads the answer, as a hostile member did
// (issue 38: 40 of them of a 26 MB file took the server from 22 MB to
// 1 GB).
func stalledDownload(t *testing.T, s *apitest.Server, c *apitest.Client, path string) net.Conn {
	t.Helper()
	d := net.Dialer{Control: func(_, _ string, raw syscall.RawConn) error {
		var err error
		raw.Control(func(fd uintptr) { err = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096) })
		return err
	}}
	conn, err := d.Dial("tcp", strings.TrimPrefix(s.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	auth := base64.StdEncoding.EncodeToString([]byte(c.Email() + ":" + c.Key()))
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: x\r\nAuthorization: Basic %s\r\n\r\n", path, auth)
	return conn
}

// dropped reads what the server sent on a stalled download's connection
// and reports whether the server had closed it short of the whole answer
// (more than size bytes), rather than keeping it open (a keep-alive
// connection, the answer sent whole) until the read gives up.
func dropped(conn net.Conn, size int) (bool, int64) {
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	n, err := io.Copy(io.Discard, conn)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return false, n
	}
	return n < int64(size), n // the end, or a reset
}

// uploadBig uploads size bytes as c and returns the file's URL path.
func uploadBig(t *testing.T, c *apitest.Client, size int) (string, []byte) {
	t.Helper()
	content := bytes.Repeat([]byte("lanchat "), size/8)
	return c.PostMultipart("/api/v1/user_uploads", nil, map[string][2]string{"file": {"big.bin", string(content)}}).OK().Str("uri"), content
}

// TestStalledDownloadIsDropped: a member who requests a large file and
// never reads it is dropped once a write has waited the download write
// timeout, and other members are served meanwhile. Before, the server
// read the whole file into memory per request and waited on the socket
// for ever.
func TestStalledDownloadIsDropped(t *testing.T) {
	s := apitest.StartConfig(t, server.Config{DataDir: t.TempDir(), Dev: true, DownloadWriteTimeout: 500 * time.Millisecond})
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	const size = 16 << 20
	uri, content := uploadBig(t, alice, size)
	send(t, alice, streamMsg("general", "files", "[big]("+uri+")"))

	stalled := stalledDownload(t, s, alice, uri)
	// Another member is served in full meanwhile, ranges too.
	if got := bob.Do("GET", uri, "", nil); got.Status != 200 || !bytes.Equal(got.Raw, content) {
		t.Fatalf("bob's download: %d, %d bytes", got.Status, len(got.Raw))
	}
	bob.Header = http.Header{"Range": {"bytes=8-15"}}
	if got := bob.Do("GET", uri, "", nil); got.Status != http.StatusPartialContent || string(got.Raw) != "lanchat " {
		t.Errorf("a range: %d %q", got.Status, got.Raw)
	}
	bob.Header = nil
	bob.Get("/api/v1/users/me", nil).OK()

	time.Sleep(2 * time.Second) // the write timeout, four times over
	if ok, n := dropped(stalled, size); !ok {
		t.Errorf("a download nobody read was kept open (%d bytes sent once read)", n)
	}

	// A slow reader that keeps reading gets the whole file: each write has
	// the timeout, not the download.
	slow := stalledDownload(t, s, alice, uri)
	slow.SetReadDeadline(time.Now().Add(time.Minute))
	res, err := http.ReadResponse(bufio.NewReader(slow), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	for err == nil {
		var n int64
		n, err = io.CopyN(&got, res.Body, 1<<20)
		if n > 0 {
			time.Sleep(100 * time.Millisecond)
		}
	}
	if err != io.EOF || !bytes.Equal(got.Bytes(), content) {
		t.Errorf("a slow reader got %d of %d bytes: %v", got.Len(), len(content), err)
	}
}

// TestDownloadsPerPersonAreBounded: one person (with their bots) is sent
// at most eight files at once; the next waits, while others are served.
func TestDownloadsPerPersonAreBounded(t *testing.T) {
	s := apitest.StartConfig(t, server.Config{DataDir: t.TempDir(), Dev: true, DownloadWriteTimeout: 2 * time.Second})
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	res := alice.Post("/api/v1/bots", apitest.Form{"full_name": "Fetch Bot", "short_name": "fetch"}).OK()
	bot := s.As(res.Str("email"), res.Str("api_key"))
	uri, _ := uploadBig(t, alice, 8<<20)
	send(t, alice, streamMsg("general", "files", "[big]("+uri+")"))
	for i := range 8 {
		// Its first byte says it has its slot.
		conn := stalledDownload(t, s, []*apitest.Client{alice, bot}[i%2], uri)
		conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, err := conn.Read(make([]byte, 1)); err != nil {
			t.Fatal(err)
		}
	}

	ninth := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest("GET", s.URL+uri, nil)
		req.SetBasicAuth(bot.Email(), bot.Key())
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			ninth <- 0
			return
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		ninth <- res.StatusCode
	}()
	if got := bob.Do("GET", uri, "", nil); got.Status != 200 {
		t.Fatalf("bob's download: %d", got.Status)
	}
	select {
	case status := <-ninth:
		t.Fatalf("alice's bot's ninth download answered %d while eight were being sent", status)
	case <-time.After(500 * time.Millisecond):
	}
	// The stalled ones are dropped after the write timeout, and the ninth is
	// sent.
	select {
	case status := <-ninth:
		if status != 200 {
			t.Errorf("the ninth download answered %d", status)
		}
	case <-time.After(20 * time.Second): // a hang detector
		t.Fatal("the ninth download never started")
	}
}
