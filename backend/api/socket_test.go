package api_test

import (
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"lanchat/backend/api"
	"lanchat/backend/apitest"
	"lanchat/backend/events"
)

func dialEvents(t *testing.T, s *apitest.Server, c *apitest.Client, queueID string, lastEventID int64) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	url := strings.Replace(s.URL, "http://", "ws://", 1) + fmt.Sprintf("/api/v1/events/socket?queue_id=%s&last_event_id=%d", queueID, lastEventID)
	h := http.Header{"Authorization": {"Basic " + base64.StdEncoding.EncodeToString([]byte(c.Email()+":"+c.Key()))}}
	return websocket.DefaultDialer.Dial(url, h)
}

type frame struct {
	Events []map[string]any `json:"events"`
	Code   string           `json:"code"`
}

func readFrame(t *testing.T, conn *websocket.Conn) frame {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	var f frame
	if err := conn.ReadJSON(&f); err != nil {
		t.Fatalf("read frame: %v", err)
	}
	return f
}

func TestWebSocketStreamsAndResumes(t *testing.T) {
	fm := followMessages(t)
	alice, conn := fm.alice, fm.conn
	first := send(t, alice, streamMsg("general", "ws", "one"))
	f := readFrame(t, conn)
	if len(f.Events) != 1 || f.Events[0]["id"].(float64) <= float64(fm.q.lastID) {
		t.Fatalf("first frame %+v after last_event_id %d", f, fm.q.lastID)
	}
	if id := f.Events[0]["message"].(map[string]any)["id"]; id != float64(first) {
		t.Errorf("message %v, want %d", id, first)
	}
	// Bob acknowledges the first event, then loses the connection before
	// the next.
	acked := int64(f.Events[0]["id"].(float64))
	conn.WriteJSON(map[string]any{"last_event_id": acked})
	time.Sleep(50 * time.Millisecond)
	conn.Close()
	second := send(t, alice, streamMsg("general", "ws", "two"))

	// Resuming from the acknowledged event delivers what was missed, and
	// nothing twice.
	conn, _, err := dialEvents(t, fm.s, fm.q.c, fm.q.id, acked)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	f = readFrame(t, conn)
	if len(f.Events) != 1 || f.Events[0]["id"].(float64) <= float64(acked) || f.Events[0]["message"].(map[string]any)["id"] != float64(second) {
		t.Errorf("resumed frame %+v after acknowledging %d", f, acked)
	}
}

func TestWebSocketRefusesBadQueuesAndStrangers(t *testing.T) {
	s := apitest.Start(t)
	bob := s.Login("bob@example.com")
	_, resp, err := dialEvents(t, s, bob, "nonsense", -1)
	if err == nil || resp.StatusCode != 400 {
		t.Errorf("bad queue: %v %v", err, resp)
	}
	q := registerQueue(t, bob, nil)
	_, resp, err = dialEvents(t, s, s.As("bob@example.com", "wrong"), q.id, -1)
	if err == nil || resp.StatusCode != 401 {
		t.Errorf("bad key: %v %v", err, resp)
	}
	// A page from another site may not open the socket with the user's credentials.
	url := strings.Replace(s.URL, "http://", "ws://", 1) + "/api/v1/events/socket?queue_id=" + q.id
	h := http.Header{"Origin": {"http://evil.example"}, "Authorization": {"Basic " + base64.StdEncoding.EncodeToString([]byte(bob.Email()+":"+bob.Key()))}}
	if _, resp, err := websocket.DefaultDialer.Dial(url, h); err == nil || resp.StatusCode != 403 {
		t.Errorf("cross-origin: %v %v", err, resp)
	}
}

// processCPU is the CPU time this process (server and test alike) has used.
func processCPU(t *testing.T) time.Duration {
	t.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// following is bob following his message events over the socket, for
// alice to send to.
type following struct {
	s     *apitest.Server
	alice *apitest.Client
	q     *queue
	conn  *websocket.Conn
}

func followMessages(t *testing.T) following {
	t.Helper()
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	q := registerQueue(t, bob, apitest.Form{"event_types": []string{"message"}})
	conn, _, err := dialEvents(t, s, bob, q.id, -1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return following{s: s, alice: alice, q: q, conn: conn}
}

// A frame the client never acknowledges must cost nothing while it waits:
// any signed-in user could otherwise keep a core busy.
func TestWebSocketUnacknowledgedFrameLeavesServerIdle(t *testing.T) {
	fm := followMessages(t)
	alice, conn := fm.alice, fm.conn
	send(t, alice, streamMsg("general", "ws", "never acknowledged"))
	if f := readFrame(t, conn); len(f.Events) != 1 {
		t.Fatalf("frame %+v", f)
	}

	const window = time.Second
	before, start := processCPU(t), time.Now()
	time.Sleep(window)
	used, wall := processCPU(t)-before, time.Since(start)
	if used > wall/5 {
		t.Errorf("the process used %v of CPU in %v while one frame waited for its acknowledgement", used, wall)
	}
}

// The web UI acknowledges each frame as soon as it arrives: it must get
// every event exactly once, in order.
func TestWebSocketAcknowledgingClientGetsEveryEventOnceInOrder(t *testing.T) {
	fm := followMessages(t)
	alice, conn := fm.alice, fm.conn

	// Messages go in bursts, so frames arrive while earlier ones are still
	// being acknowledged.
	var ids, messages, want []int64
	for burst := range 10 {
		for i := range 3 {
			want = append(want, send(t, alice, streamMsg("general", "ws", fmt.Sprintf("burst %d message %d", burst, i))))
		}
		for len(ids) < len(want) {
			f := readFrame(t, conn)
			for _, e := range f.Events {
				ids = append(ids, int64(e["id"].(float64)))
				messages = append(messages, int64(e["message"].(map[string]any)["id"].(float64)))
			}
			conn.WriteJSON(map[string]any{"last_event_id": ids[len(ids)-1]})
		}
	}
	for i := range ids {
		if (i > 0 && ids[i] <= ids[i-1]) || messages[i] != want[i] {
			t.Fatalf("events %v carrying messages %v, want increasing IDs carrying %v", ids, messages, want)
		}
	}
	// Nothing more is pending: a further frame would be a repeat.
	conn.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	var extra frame
	if err := conn.ReadJSON(&extra); err == nil {
		t.Errorf("extra frame after every event: %+v", extra)
	}
}

// A client that has not acknowledged its last frame gets no other until it
// does, then one frame with every event that came meanwhile: before, each
// message was a write to each socket, acknowledged or not, and one
// member's 100 idle sockets took half a core under lanchat-bench's hostile
// figure.
func TestWebSocketFrameWaitsForTheLastAcknowledged(t *testing.T) {
	t.Cleanup(api.SetSocketAckWait(time.Hour)) // after the server stops
	fm := followMessages(t)
	alice, conn := fm.alice, fm.conn
	send(t, alice, streamMsg("general", "ws", "first"))
	first := readFrame(t, conn)
	var want []int64
	for i := range 3 {
		want = append(want, send(t, alice, streamMsg("general", "ws", fmt.Sprintf("meanwhile %d", i))))
	}
	frames := make(chan frame)
	go func() { // a read that times out would break the connection
		for {
			var f frame
			if conn.ReadJSON(&f) != nil {
				return
			}
			frames <- f
		}
	}()
	select {
	case f := <-frames:
		t.Fatalf("frame %+v before the first was acknowledged", f)
	case <-time.After(300 * time.Millisecond):
	}
	conn.WriteJSON(map[string]any{"last_event_id": first.Events[0]["id"]})
	select {
	case f := <-frames:
		var got []int64
		for _, e := range f.Events {
			got = append(got, int64(e["message"].(map[string]any)["id"].(float64)))
		}
		if !slices.Equal(got, want) {
			t.Errorf("frame after the acknowledgement carries messages %v, want %v", got, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no frame after the acknowledgement")
	}
}

// Events that came while a frame waited for its acknowledgement go in
// frames of at most api.SocketFrameEvents: a second of a busy stream in one
// frame for each of 100 sockets never read took the server past 150 MB.
func TestWebSocketFramesAreBounded(t *testing.T) {
	t.Cleanup(api.SetSocketAckWait(time.Hour)) // after the server stops
	fm := followMessages(t)
	alice, conn := fm.alice, fm.conn
	send(t, alice, streamMsg("general", "ws", "first"))
	last := readFrame(t, conn).Events[0]["id"]
	const more = api.SocketFrameEvents + 5
	for i := range more {
		send(t, alice, streamMsg("general", "ws", fmt.Sprintf("meanwhile %d", i)))
	}
	var sizes []int
	for got := 0; got < more; {
		conn.WriteJSON(map[string]any{"last_event_id": last})
		f := readFrame(t, conn)
		sizes = append(sizes, len(f.Events))
		got += len(f.Events)
		last = f.Events[len(f.Events)-1]["id"]
	}
	if !slices.Equal(sizes, []int{api.SocketFrameEvents, 5}) {
		t.Errorf("frames of %v events, want %d then 5", sizes, api.SocketFrameEvents)
	}
}

// A socket whose queue goes (deleted by its client, dropped with a
// deactivated account or with an organization an import replaces) says so
// and ends, so the client registers again.
func TestWebSocketEndsWithItsQueue(t *testing.T) {
	fm := followMessages(t)
	fm.q.c.Delete("/api/v1/events", apitest.Form{"queue_id": fm.q.id}).OK()
	if f := readFrame(t, fm.conn); f.Code != "BAD_EVENT_QUEUE_ID" {
		t.Errorf("frame after the queue went: %+v", f)
	}
	fm.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, _, err := fm.conn.ReadMessage(); err == nil {
		t.Error("the socket stayed open after its queue went")
	}
}

// TestWebSocketsPerPersonAreBounded: one person, their bots counted as
// theirs, keeps at most as many event sockets open as the queues they may
// keep; one more is refused before the upgrade, with a clear error. Before,
// 2,000 sockets from 4 users were all accepted.
func TestWebSocketsPerPersonAreBounded(t *testing.T) {
	settings := events.DefaultSettings
	settings.MaxQueuesPerUser = 3
	s := apitest.StartEvents(t, settings)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	res := alice.Post("/api/v1/bots", apitest.Form{"full_name": "Listen Bot", "short_name": "listen"}).OK()
	bot := s.As(res.Str("email"), res.Str("api_key"))
	q := registerQueue(t, alice, nil)
	var open []*websocket.Conn
	for range 3 {
		conn, _, err := dialEvents(t, s, alice, q.id, -1)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		open = append(open, conn)
	}
	refused := func(c *apitest.Client, queueID string) {
		t.Helper()
		conn, resp, err := dialEvents(t, s, c, queueID, -1)
		if err == nil {
			conn.Close()
			t.Fatalf("%s opened a socket past the bound", c.Email())
		}
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 400 || !strings.Contains(string(body), "Too many open event sockets (at most 3)") {
			t.Errorf("%s: %d %s", c.Email(), resp.StatusCode, body)
		}
	}
	refused(alice, q.id)
	refused(bot, registerQueue(t, bot, nil).id)
	conn, _, err := dialEvents(t, s, bob, registerQueue(t, bob, nil).id, -1)
	if err != nil {
		t.Fatalf("bob's socket: %v", err)
	}
	conn.Close()

	// A socket closed gives its place back.
	open[0].Close()
	for start := time.Now(); ; time.Sleep(50 * time.Millisecond) {
		conn, _, err := dialEvents(t, s, alice, q.id, -1)
		if err == nil {
			conn.Close()
			break
		}
		if time.Since(start) > 10*time.Second { // a hang detector
			t.Fatalf("a closed socket's place never came back: %v", err)
		}
	}
}
