package server_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"lanchat/backend/server"
)

// TestShutdownCutsOffSlowClients: a client sending its request's body
// slowly (an upload over a bad link, or one that stopped mid-body) kept a
// stopping server waiting for the route's read timeout, five minutes for
// an upload, whatever the shutdown deadline said. Past the deadline
// Shutdown cuts such connections off and returns, saying so.
func TestShutdownCutsOffSlowClients(t *testing.T) {
	s, addr, authorization := serveDev(t, t.TempDir())

	// An upload and a message whose bodies stop after their first bytes.
	heads := []string{
		"POST /api/v1/user_uploads HTTP/1.1\r\nContent-Type: multipart/form-data; boundary=B\r\nContent-Length: 100000\r\n",
		"POST /api/v1/messages HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n",
	}
	for _, head := range heads {
		conn, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		fmt.Fprintf(conn, "%sHost: lanchat\r\nAuthorization: %s\r\n\r\n--B\r\n", head, authorization)
	}
	time.Sleep(200 * time.Millisecond) // both requests are in their handlers
	shutdownCutsOff(t, s)
}

// TestShutdownCutsOffAStalledBackup: a backup over the control socket
// whose reader stopped reading (a stopped lanchatd backup, a full pipe)
// held the organization while Shutdown waited for it to close the store:
// the server never exited. Past the deadline its connection is cut.
func TestShutdownCutsOffAStalledBackup(t *testing.T) {
	dataDir := t.TempDir()
	s, addr, authorization := serveDev(t, dataDir)
	// An upload that does not compress, so that the backup outgrows the
	// socket's buffers.
	var body bytes.Buffer
	form := multipart.NewWriter(&body)
	file, _ := form.CreateFormFile("file", "noise.bin")
	io.CopyN(file, rand.Reader, 4<<20)
	form.Close()
	req, _ := http.NewRequest("POST", "http://"+addr+"/api/v1/user_uploads", &body)
	req.Header.Set("Content-Type", form.FormDataContentType())
	req.Header.Set("Authorization", authorization)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("upload: %v %v", resp, err)
	}
	resp.Body.Close()

	conn, err := net.Dial("unix", filepath.Join(dataDir, server.ControlSocket))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "GET /backup HTTP/1.1\r\nHost: lanchatd\r\n\r\n") // and never read
	time.Sleep(500 * time.Millisecond)                                     // the backup fills the socket
	shutdownCutsOff(t, s)
}

// serveDev serves a development organization over dataDir on a free
// loopback port, with alice's Authorization header.
func serveDev(t *testing.T, dataDir string) (s *server.Server, addr, authorization string) {
	t.Helper()
	s, err := server.Open(server.Config{Addr: "127.0.0.1:0", DataDir: dataDir, Dev: true, Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := s.Listen()
	if err != nil {
		t.Fatal(err)
	}
	go s.Serve(ln)
	addr = ln.Addr().String()
	resp, err := http.PostForm("http://"+addr+"/api/v1/dev_fetch_api_key", url.Values{"username": {"alice@example.com"}})
	if err != nil {
		t.Fatal(err)
	}
	var login struct {
		APIKey string `json:"api_key"`
	}
	json.NewDecoder(resp.Body).Decode(&login)
	resp.Body.Close()
	req, _ := http.NewRequest("GET", "/", nil)
	req.SetBasicAuth("alice@example.com", login.APIKey)
	return s, addr, req.Header.Get("Authorization")
}

// shutdownCutsOff shuts s down with a 1 s deadline, which must end it
// soon after with an error saying that connections were cut off.
func shutdownCutsOff(t *testing.T, s *server.Server) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	returned := make(chan error, 1)
	go func() { returned <- s.Shutdown(ctx) }()
	select {
	case err := <-returned:
		if err == nil || !strings.Contains(err.Error(), "cut off") {
			t.Errorf("shutdown past its deadline: %v, want an error saying connections were cut off", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("shutdown with a 1 s deadline still waits after 5 s")
	}
}
