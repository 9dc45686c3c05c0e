package ntfy_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"lanchat/backend/apitest"
	"lanchat/backend/server"
)

// ntfyClient is ntfy's real command-line client, which subscribes as its
// phone app does, built from its source in shared/tools beside the
// repository (offline: its modules come from the Go module cache or proxy;
// Go's build cache makes later builds quick).
func ntfyClient(t *testing.T) string {
	t.Helper()
	src, err := filepath.Abs("../../../shared/tools/ntfy")
	if err != nil {
		t.Fatal(err)
	}
	// The overlay's paths must be those the go command sees: its working
	// directory with every symbolic link resolved (shared/ may be one).
	if src, err = filepath.EvalSymlinks(src); err != nil {
		t.Fatalf("ntfy's source is not in shared/ beside the repository: %v", err)
	}
	dir := t.TempDir()
	// Its web app and documentation are left out of the copy; its go:embed
	// lines get a placeholder each.
	placeholder := filepath.Join(dir, "placeholder.html")
	os.WriteFile(placeholder, []byte("<html></html>\n"), 0o644)
	overlay, _ := json.Marshal(map[string]map[string]string{"Replace": {
		filepath.Join(src, "server/site/app.html"): placeholder, filepath.Join(src, "server/docs/index.html"): placeholder}})
	os.WriteFile(filepath.Join(dir, "overlay.json"), overlay, 0o644)
	bin := filepath.Join(dir, "ntfy")
	build := exec.Command("go", "build", "-overlay", filepath.Join(dir, "overlay.json"), "-o", bin, ".")
	build.Dir = src
	build.Env = append(os.Environ(), "GOFLAGS=-mod=readonly") // with cgo: its server code needs SQLite
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build ntfy: %v\n%s", err, out)
	}
	return bin
}

// subscription is `ntfy subscribe` running: the messages it prints.
type subscription struct {
	cmd   *exec.Cmd
	lines chan map[string]any
}

func subscribe(t *testing.T, bin string, args ...string) *subscription {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, append([]string{"subscribe"}, args...)...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &subscription{cmd: cmd, lines: make(chan map[string]any, 10)}
	var done sync.WaitGroup
	done.Go(func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				s.lines <- m
			}
		}
		close(s.lines)
	})
	t.Cleanup(func() { cancel(); cmd.Wait(); done.Wait() })
	return s
}

// next is the next message the client printed, or nil after wait.
func (s *subscription) next(wait time.Duration) map[string]any {
	select {
	case m := <-s.lines:
		return m
	case <-time.After(wait):
		return nil
	}
}

func waitSubscribers(t *testing.T, s *apitest.Server, n int) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); s.PhoneSubscribers() != n; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d phones subscribed, want %d", s.PhoneSubscribers(), n)
		}
	}
}

func TestNtfyClientHearsMentionsAndDirectMessages(t *testing.T) {
	bin := ntfyClient(t)
	s := apitest.StartConfig(t, server.Config{DataDir: t.TempDir(), Dev: true, NtfyAddr: "127.0.0.1:0"})
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	sub := alice.Get("/api/v1/users/me/ntfy", nil).OK()
	topic, port := sub.Str("topic"), sub.Int("port")
	if len(topic) != 32 || port == 0 || port != int64(s.NtfyPort()) {
		t.Fatalf("subscription: %s", sub)
	}
	if again := alice.Get("/api/v1/users/me/ntfy", nil).OK().Str("topic"); again != topic {
		t.Fatalf("the topic changed on its own: %s, then %s", topic, again)
	}
	topicURL := fmt.Sprintf("http://127.0.0.1:%d/%s", port, topic)
	general := bob.Get("/api/v1/get_stream_id", apitest.Form{"stream": "general"}).OK().Int("stream_id")
	alice.Post("/api/v1/user_topics", apitest.Form{"stream_id": fmt.Sprint(general), "topic": "noise", "visibility_policy": "1"}).OK()

	phone := subscribe(t, bin, topicURL)
	waitSubscribers(t, s, 1)
	send := func(form apitest.Form) (int64, time.Time) {
		return bob.Post("/api/v1/messages", form).OK().Int("id"), time.Now()
	}
	hear := func(what string) map[string]any {
		t.Helper()
		m := phone.next(10 * time.Second)
		if m == nil {
			t.Fatalf("the phone did not hear %s", what)
		}
		return m
	}

	id, _ := send(apitest.Form{"type": "stream", "to": "general", "topic": "lunch", "content": "@**Alice Anders** lunch at *noon*?"})
	m := hear("the mention")
	web := strings.TrimSuffix(s.URL, "/")
	if m["title"] != "Bob Brown (#general › lunch)" || m["message"] != "@Alice Anders lunch at noon?" || m["priority"] != float64(4) ||
		m["click"] != fmt.Sprintf("%s/#narrow/channel/%d-general/topic/lunch/near/%d", web, general, id) {
		t.Errorf("mention: %v", m)
	}
	// Alice's own messages and ordinary stream messages stay off her phone.
	alice.Post("/api/v1/messages", apitest.Form{"type": "stream", "to": "general", "topic": "lunch", "content": "@**Alice Anders** note to self"}).OK()
	// (In another topic: being mentioned in "lunch" followed it for her, as
	// Zulip's automatically_follow_topics_where_mentioned does.)
	send(apitest.Form{"type": "stream", "to": "general", "topic": "plans", "content": "anyone else?"})
	// A muted topic does not reach it, mentioned or not.
	send(apitest.Form{"type": "stream", "to": "general", "topic": "noise", "content": "@**Alice Anders** in a muted topic"})
	id, _ = send(apitest.Form{"type": "private", "to": "alice@example.com", "content": "just you and me"})
	m = hear("the direct message")
	if m["title"] != "Bob Brown" || m["message"] != "just you and me" || m["click"] != fmt.Sprintf("%s/#narrow/dm/%d/near/%d", web, bob.Get("/api/v1/users/me", nil).OK().Int("user_id"), id) {
		t.Errorf("direct message (after an own message, an ordinary one and a muted topic's): %v", m)
	}
	lastHeard := m["id"].(string)

	// Away, then back: since= catches up on what came meanwhile.
	phone.cmd.Process.Kill()
	waitSubscribers(t, s, 0)
	send(apitest.Form{"type": "private", "to": "alice@example.com", "content": "while you were away"})
	caught := subscribe(t, bin, "--poll", "--since", lastHeard, topicURL)
	if m := caught.next(10 * time.Second); m == nil || m["message"] != "while you were away" {
		t.Fatalf("caught up on %v", m)
	}
	if m := caught.next(time.Second); m != nil {
		t.Errorf("caught up on more: %v", m)
	}

	// A regenerated topic stops the old one at once; the new one hears.
	old := subscribe(t, bin, topicURL)
	waitSubscribers(t, s, 1)
	renewed := alice.Post("/api/v1/users/me/ntfy/regenerate", nil).OK().Str("topic")
	if renewed == topic || len(renewed) != 32 {
		t.Fatalf("regenerated %q from %q", renewed, topic)
	}
	waitSubscribers(t, s, 0)
	fresh := subscribe(t, bin, fmt.Sprintf("http://127.0.0.1:%d/%s", port, renewed))
	waitSubscribers(t, s, 1)
	send(apitest.Form{"type": "private", "to": "alice@example.com", "content": "after the change"})
	if m := fresh.next(10 * time.Second); m == nil || m["message"] != "after the change" {
		t.Fatalf("the new topic heard %v", m)
	}
	if m := old.next(time.Second); m != nil {
		t.Errorf("the old topic heard %v", m)
	}
	out, err := exec.Command(bin, "subscribe", "--poll", topicURL).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "forbidden") {
		t.Errorf("polling the old topic: %v %s", err, out)
	}

	// A deactivated member's topic goes silent: hung up on, and refused.
	aliceID := alice.Get("/api/v1/users/me", nil).OK().Int("user_id")
	s.Login("admin@example.com").Delete(fmt.Sprintf("/api/v1/users/%d", aliceID), nil).OK()
	waitSubscribers(t, s, 0)
	out, err = exec.Command(bin, "subscribe", "--poll", fmt.Sprintf("http://127.0.0.1:%d/%s", port, renewed)).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "forbidden") {
		t.Errorf("polling a deactivated member's topic: %v %s", err, out)
	}
}
