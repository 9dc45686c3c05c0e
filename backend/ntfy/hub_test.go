package ntfy

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"lanchat/backend/domain"
)

// These tests check the forms of the stream against ntfy's documented
// message format (docs.ntfy.sh/subscribe/api, its server/types.go and
// server.go): the fields and their order, the event types, the keepalive
// cadence, and since=/poll=1.

const testTopic = "Topic_of-Alice0123456789abcdefgh"

func startHub(t *testing.T, keepalive time.Duration) (*Hub, *httptest.Server) {
	t.Helper()
	h := NewHub(Options{Keepalive: keepalive, Allowed: func(topic string) bool { return topic == testTopic },
		WebURL: func(*http.Request) string { return "http://chat.lan:9991" }})
	srv := httptest.NewServer(h)
	t.Cleanup(func() { h.RevokeAll(); srv.Close() })
	return h, srv
}

var mention = domain.PhoneNotification{MessageID: 7, Time: 1700000000, Title: "Bob (#general › lunch)", Body: "@Alice lunch?",
	Personal: true, Hash: "#narrow/channel/1-general/topic/lunch/near/7"}

// fields decodes a line keeping the order of its keys.
func fields(t *testing.T, line string) ([]string, map[string]any) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(line), &m); err != nil {
		t.Fatalf("not JSON: %q", line)
	}
	dec := json.NewDecoder(strings.NewReader(line))
	dec.Token()
	var keys []string
	for dec.More() {
		k, _ := dec.Token()
		keys = append(keys, k.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	return keys, m
}

func checkControl(t *testing.T, line, event string) {
	t.Helper()
	keys, m := fields(t, line)
	if strings.Join(keys, ",") != "id,time,event,topic" || m["event"] != event || m["topic"] != testTopic {
		t.Fatalf("%s event: %s", event, line)
	}
	if id := m["id"].(string); len(id) != 12 || strings.Trim(id, idAlphabet) != "" {
		t.Errorf("id %q is not ntfy's 12 letters and digits", id)
	}
	if tm := int64(m["time"].(float64)); time.Since(time.Unix(tm, 0)).Abs() > time.Minute {
		t.Errorf("time %d is not now", tm)
	}
}

func checkMention(t *testing.T, line string) string {
	t.Helper()
	keys, m := fields(t, line)
	if got := strings.Join(keys, ","); got != "id,time,expires,event,topic,title,message,priority,tags,click" {
		t.Fatalf("message fields %s: %s", got, line)
	}
	tm, expires := int64(m["time"].(float64)), int64(m["expires"].(float64))
	if m["event"] != "message" || m["title"] != mention.Title || m["message"] != mention.Body || m["priority"] != float64(4) ||
		m["click"] != "http://chat.lan:9991/"+mention.Hash || expires-tm != int64(DefaultCacheFor/time.Second) {
		t.Fatalf("message: %s", line)
	}
	if tags := m["tags"].([]any); len(tags) != 1 || tags[0] != "bell" {
		t.Errorf("tags %v", tags)
	}
	return m["id"].(string)
}

func TestJSONStream(t *testing.T) {
	keepalive := 150 * time.Millisecond
	h, srv := startHub(t, keepalive)
	res, err := http.Get(srv.URL + "/" + testTopic + "/json")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); res.StatusCode != 200 || ct != "application/x-ndjson; charset=utf-8" {
		t.Fatalf("%d %s", res.StatusCode, ct)
	}
	lines := bufio.NewReader(res.Body)
	read := func() string {
		line, err := lines.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSuffix(line, "\n")
	}
	checkControl(t, read(), "open")
	h.Notify(testTopic, mention)
	checkMention(t, read())
	// Keepalives come every interval, however long the subscription idles.
	start := time.Now()
	for i := range 3 {
		checkControl(t, read(), "keepalive")
		if gap := time.Since(start); gap < keepalive*8/10 || gap > 20*keepalive {
			t.Errorf("keepalive %d after %v, want every %v", i, gap, keepalive)
		}
		start = time.Now()
	}
}

func TestServerSentEvents(t *testing.T) {
	h, srv := startHub(t, time.Hour)
	res, err := http.Get(srv.URL + "/" + testTopic + "/sse")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream; charset=utf-8" {
		t.Fatalf("content type %s", ct)
	}
	r := bufio.NewReader(res.Body)
	event := func() []string {
		var lines []string
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			if line == "\n" {
				return lines
			}
			lines = append(lines, strings.TrimSuffix(line, "\n"))
		}
	}
	open := event()
	if len(open) != 2 || open[0] != "event: open" || !strings.HasPrefix(open[1], "data: ") {
		t.Fatalf("open: %q", open)
	}
	checkControl(t, strings.TrimPrefix(open[1], "data: "), "open")
	h.Notify(testTopic, mention)
	msg := event()
	// A message is unnamed data, so that a browser's onmessage sees it.
	if len(msg) != 1 || !strings.HasPrefix(msg[0], "data: ") {
		t.Fatalf("message: %q", msg)
	}
	checkMention(t, strings.TrimPrefix(msg[0], "data: "))
}

func TestWebSocket(t *testing.T) {
	keepalive := 150 * time.Millisecond
	h, srv := startHub(t, keepalive)
	conn, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(srv.URL, "http")+"/"+testTopic+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	pings := make(chan time.Time, 10)
	conn.SetPingHandler(func(string) error {
		pings <- time.Now()
		return conn.WriteControl(websocket.PongMessage, nil, time.Now().Add(time.Second))
	})
	frames := make(chan string, 10)
	go func() {
		for {
			_, b, err := conn.ReadMessage()
			if err != nil {
				close(frames)
				return
			}
			frames <- string(b)
		}
	}()
	frame := func() string {
		select {
		case f, ok := <-frames:
			if !ok {
				t.Fatal("closed")
			}
			return strings.TrimSuffix(f, "\n")
		case <-time.After(10 * time.Second):
			t.Fatal("no frame")
		}
		return ""
	}
	checkControl(t, frame(), "open")
	h.Notify(testTopic, mention)
	checkMention(t, frame())
	// On a WebSocket, keepalives are pings, as ntfy sends them; answered,
	// the subscription lasts past the pong wait.
	start := time.Now()
	for i := range 3 {
		select {
		case at := <-pings:
			if gap := at.Sub(start); gap < keepalive*8/10 || gap > 20*keepalive {
				t.Errorf("ping %d after %v, want every %v", i, gap, keepalive)
			}
			start = at
		case <-time.After(10 * time.Second):
			t.Fatal("no ping")
		}
	}
	if h.Subscribers() != 1 {
		t.Errorf("%d subscribers", h.Subscribers())
	}
	h.Revoke(testTopic)
	for range frames {
	}
}

func TestSinceAndPoll(t *testing.T) {
	h, srv := startHub(t, time.Hour)
	for i, body := range []string{"one", "two", "three"} {
		n := mention
		n.Body = body
		n.MessageID = int64(i)
		h.Notify(testTopic, n)
	}
	poll := func(query string) (int, []string) {
		res, err := http.Get(srv.URL + "/" + testTopic + "/json?poll=1" + query)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		var bodies []string
		for line := range strings.Lines(string(b)) {
			var m message
			json.Unmarshal([]byte(line), &m)
			bodies = append(bodies, m.Message+"/"+m.ID)
		}
		return res.StatusCode, bodies
	}
	_, all := poll("")
	if len(all) != 3 {
		t.Fatalf("poll: %v", all)
	}
	firstID := strings.Split(all[0], "/")[1]
	for _, tc := range []struct{ query, want string }{
		{"", "one two three"},
		{"&since=all", "one two three"},
		{"&since=latest", "three"},
		{"&since=none", ""},
		{"&since=" + firstID, "two three"},
		{"&since=AAAAAAAAAAAA", ""}, // an ID no longer kept
		{"&since=10m", "one two three"},
		{"&since=4000000000", ""},
	} {
		status, got := poll(tc.query)
		var words []string
		for _, g := range got {
			words = append(words, strings.Split(g, "/")[0])
		}
		if status != 200 || strings.Join(words, " ") != tc.want {
			t.Errorf("%s: %d %v, want %q", tc.query, status, words, tc.want)
		}
	}
	// A subscription catches up after its open event.
	res, err := http.Get(srv.URL + "/" + testTopic + "/json?since=" + firstID)
	if err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(res.Body)
	var events []string
	for range 3 {
		line, _ := r.ReadString('\n')
		var m message
		json.Unmarshal([]byte(line), &m)
		events = append(events, m.Event+":"+m.Message)
	}
	res.Body.Close()
	if strings.Join(events, " ") != "open: message:two message:three" {
		t.Errorf("subscription with since: %v", events)
	}
}

func TestRefusals(t *testing.T) {
	_, srv := startHub(t, time.Hour)
	for _, tc := range []struct {
		method, path string
		status, code int
	}{
		{"GET", "/someone-else/json", 403, 40301},
		{"GET", "/" + testTopic + "/json?since=yesterday", 400, 40008},
		{"GET", "/" + testTopic + "/ws", 400, 40016},
		{"POST", "/" + testTopic, 403, 40301},
		{"PUT", "/" + testTopic, 403, 40301},
		{"GET", "/v1/account", 404, 40401},
		{"GET", "/" + testTopic, 404, 40401},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, strings.NewReader("hello"))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body struct{ Code, HTTP int }
		json.NewDecoder(res.Body).Decode(&body)
		res.Body.Close()
		if res.StatusCode != tc.status || body.Code != tc.code || body.HTTP != tc.status {
			t.Errorf("%s %s: %d %+v, want %d %d", tc.method, tc.path, res.StatusCode, body, tc.status, tc.code)
		}
	}
}
