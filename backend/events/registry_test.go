package events

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"lanchat/backend/store"
)

func ids(evs []Delivered) []int64 {
	var out []int64
	for _, e := range evs {
		out = append(out, e.ID)
	}
	return out
}

// decoded reads delivered events back into maps, checking their ids.
func decoded(t *testing.T, evs []Delivered) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, e := range evs {
		var m map[string]any
		raw := e.AppendJSON(nil)
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("event %s: %v", raw, err)
		}
		if m["id"] != float64(e.ID) {
			t.Fatalf("event %s has id %v, want %d", raw, m["id"], e.ID)
		}
		out = append(out, m)
	}
	return out
}

func TestFetchAcknowledgesAndWakes(t *testing.T) {
	r := NewRegistry(Settings{IdleTimeout: time.Minute, Heartbeat: time.Minute, MaxEvents: 100})
	q := r.Register(QueueOptions{UserID: 1})
	r.Publish(Event{"type": "a"}, []int64{1})
	r.Publish(Event{"type": "b"}, []int64{1, 2})
	evs, err := r.Fetch(context.Background(), q, -1, true)
	if err != nil || !slices.Equal(ids(evs), []int64{0, 1}) {
		t.Fatalf("first fetch %v %v", evs, err)
	}
	evs, _ = r.Fetch(context.Background(), q, 0, true)
	if !slices.Equal(ids(evs), []int64{1}) {
		t.Errorf("after ack 0: %v", ids(evs))
	}
	got := make(chan []map[string]any)
	go func() {
		evs, _ := r.Fetch(context.Background(), q, 1, false)
		got <- decoded(t, evs)
	}()
	time.Sleep(20 * time.Millisecond)
	r.Publish(Event{"type": "c"}, []int64{1})
	select {
	case evs := <-got:
		if len(evs) != 1 || evs[0]["type"] != "c" || evs[0]["id"] != float64(2) {
			t.Errorf("woken with %v", evs)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("a blocked fetch was not woken by a new event")
	}
}

func TestCloseEndsEveryWait(t *testing.T) {
	r := NewRegistry(Settings{IdleTimeout: time.Minute, Heartbeat: time.Hour, MaxEvents: 100})
	queues := []*Queue{r.Register(QueueOptions{UserID: 1}), r.Register(QueueOptions{UserID: 2})}
	ended := make(chan error, len(queues))
	for _, q := range queues {
		go func() {
			_, err := r.Fetch(context.Background(), q, -1, false)
			ended <- err
		}()
	}
	time.Sleep(20 * time.Millisecond)
	r.Close()
	for range queues {
		select {
		case err := <-ended:
			if !errors.Is(err, ErrNoQueue) {
				t.Errorf("a wait ended by Close: %v, want ErrNoQueue", err)
			}
		case <-time.After(2 * time.Second):
			t.Fatal("Close left a fetch waiting")
		}
	}
	if _, err := r.Get(queues[0].ID, 1); !errors.Is(err, ErrNoQueue) || r.Len() != 0 {
		t.Errorf("after Close: Get %v, %d queues", err, r.Len())
	}
}

func TestHeartbeatAndTypeFilter(t *testing.T) {
	r := NewRegistry(Settings{IdleTimeout: time.Minute, Heartbeat: 30 * time.Millisecond, MaxEvents: 100})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Run(ctx)
	q := r.Register(QueueOptions{UserID: 1, EventTypes: []string{"message"}})
	r.Publish(Event{"type": "presence"}, []int64{1})
	delivered, _ := r.Fetch(context.Background(), q, -1, false)
	evs := decoded(t, delivered)
	if len(evs) != 1 || evs[0]["type"] != "heartbeat" {
		t.Errorf("want one heartbeat, got %v", evs)
	}
}

// TestHeartbeatsOnlyForWaitingReaders: a reader that went away before its
// heartbeat was due leaves none behind in the queue, and a reader woken by
// an event starts its heartbeat interval again.
func TestHeartbeatsOnlyForWaitingReaders(t *testing.T) {
	const every = 40 * time.Millisecond
	r := NewRegistry(Settings{IdleTimeout: time.Minute, Heartbeat: every, MaxEvents: 100})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Run(ctx)
	q := r.Register(QueueOptions{UserID: 1})

	gone, leave := context.WithTimeout(context.Background(), every/4)
	defer leave()
	if evs, err := r.Fetch(gone, q, -1, false); err != nil || len(evs) != 0 {
		t.Fatalf("reader that left: %v, %v", evs, err)
	}
	time.Sleep(3 * every)
	if evs, _ := r.Fetch(context.Background(), q, -1, true); len(evs) != 0 {
		t.Errorf("a heartbeat was queued for a reader that had left: %v", decoded(t, evs))
	}

	go func() {
		time.Sleep(every / 2)
		r.Publish(Event{"type": "x"}, []int64{1})
	}()
	start := time.Now()
	first, _ := r.Fetch(context.Background(), q, -1, false)
	second, _ := r.Fetch(context.Background(), q, first[len(first)-1].ID, false)
	waited := time.Since(start)
	if got := decoded(t, append(first, second...)); len(got) != 2 || got[0]["type"] != "x" || got[1]["type"] != "heartbeat" {
		t.Fatalf("want the event then a heartbeat, got %v", got)
	}
	if waited < every/2+every {
		t.Errorf("heartbeat %v after the start: the event did not restart the interval", waited)
	}
}

// TestAcknowledgedEventsLeaveTheArray: events are dropped in place as
// they are acknowledged (pushes then append without allocating), and the
// array a burst grew is let go once the reader has caught up.
func TestAcknowledgedEventsLeaveTheArray(t *testing.T) {
	r := NewRegistry(Settings{IdleTimeout: time.Minute, Heartbeat: time.Minute, MaxEvents: 10000})
	q := r.Register(QueueOptions{UserID: 1})
	for range 1000 {
		r.Publish(Event{"type": "x"}, []int64{1})
	}
	evs, _ := r.Fetch(context.Background(), q, 989, true)
	if len(evs) != 10 || evs[0].ID != 990 {
		t.Fatalf("after acknowledging 989: %d events from %v", len(evs), evs[0].ID)
	}
	if q.mu.Lock(); cap(q.events) > 64 {
		t.Errorf("the burst's array is kept: cap %d for %d events", cap(q.events), len(q.events))
	}
	q.mu.Unlock()
	// An event pushed and acknowledged costs the push its new wake
	// channel and nothing else.
	allocs := testing.AllocsPerRun(100, func() {
		q.push(heartbeat, 0, 10000)
		last := q.LastEventID()
		if evs, _, _ := q.take(last, last, time.Now(), false); len(evs) != 0 {
			t.Fatalf("acknowledged events returned: %v", evs)
		}
	})
	if allocs > 1 {
		t.Errorf("a push and its acknowledgement allocated %v times", allocs)
	}
}

func TestIdleQueuesAreCollectedAndOverflowDrops(t *testing.T) {
	r := NewRegistry(Settings{IdleTimeout: 50 * time.Millisecond, Heartbeat: time.Minute, MaxEvents: 3})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go r.Run(ctx)
	idle := r.Register(QueueOptions{UserID: 1})
	time.Sleep(200 * time.Millisecond)
	if _, err := r.Get(idle.ID, 1); err != ErrNoQueue {
		t.Errorf("idle queue still there: %v", err)
	}
	full := r.Register(QueueOptions{UserID: 2})
	for range 4 {
		r.Publish(Event{"type": "x"}, []int64{2})
	}
	if _, err := r.Get(full.ID, 2); err != ErrNoQueue {
		t.Errorf("overflowed queue still there: %v", err)
	}
	if _, err := r.Fetch(context.Background(), full, -1, true); err != ErrNoQueue {
		t.Errorf("fetch from a dropped queue: %v", err)
	}
}

type topicFilter string

func (f topicFilter) Match(c *Candidate, _ store.Flags) bool { return c.Message.Topic == string(f) }

func TestMessageEventsFollowNarrowAndForm(t *testing.T) {
	r := NewRegistry(DefaultSettings)
	narrowed := r.Register(QueueOptions{UserID: 1, Narrow: topicFilter("yes"), ApplyMarkdown: true})
	raw := r.Register(QueueOptions{UserID: 1})
	public := r.Register(QueueOptions{UserID: 3, AllPublicStreams: true})
	other := r.Register(QueueOptions{UserID: 2})
	for _, topic := range []string{"no", "yes"} {
		me := MessageEvent{
			Message: store.Message{Topic: topic, StreamID: 1}, Rendered: "<p>x</p>", Raw: "x",
			Recipients: store.NewRecipients([]int64{1}, store.FlagMentioned), Public: true,
		}
		r.PublishMessage(r.MessageAudience(me), me)
	}
	for _, tc := range []struct {
		q    *Queue
		want []any
	}{
		{narrowed, []any{"<p>x</p>"}},
		{raw, []any{"x", "x"}},
		{public, []any{"x", "x"}},
		{other, nil},
	} {
		delivered, _ := r.Fetch(context.Background(), tc.q, -1, true)
		var got []any
		for _, e := range decoded(t, delivered) {
			got = append(got, e["message"])
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("queue of user %d got %v, want %v", tc.q.opts.UserID, got, tc.want)
		}
	}
	delivered, _ := r.Fetch(context.Background(), raw, -1, true)
	if flags := decoded(t, delivered)[0]["flags"].([]any); !slices.Equal(flags, []any{"mentioned"}) {
		t.Errorf("recipient flags %v", flags)
	}
}

// Queues share encoded events by form and flags; each must still see its
// own user's flags, and only the sender's queue its local id.
func TestSharedMessageEventsKeepEachQueuesFlagsAndLocalID(t *testing.T) {
	r := NewRegistry(DefaultSettings)
	sender := r.Register(QueueOptions{UserID: 1})
	senderOther := r.Register(QueueOptions{UserID: 1})
	mentioned := r.Register(QueueOptions{UserID: 2})
	mentionedRendered := r.Register(QueueOptions{UserID: 2, ApplyMarkdown: true})
	plain := r.Register(QueueOptions{UserID: 3})
	outsider := r.Register(QueueOptions{UserID: 4, AllPublicStreams: true})
	recipients := store.NewRecipients([]int64{1, 2, 3}, 0)
	recipients.Set(1, store.FlagRead)
	recipients.Set(2, store.FlagMentioned)
	me := MessageEvent{
		Message: store.Message{StreamID: 1}, Rendered: "<p>x</p>", Raw: "x", Public: true,
		Recipients:    recipients,
		SenderQueueID: sender.ID, LocalID: "7.01",
	}
	r.PublishMessage(r.MessageAudience(me), me)
	for _, tc := range []struct {
		q       *Queue
		flags   []any
		message any
		localID any
	}{
		{sender, []any{"read"}, "x", "7.01"},
		{senderOther, []any{"read"}, "x", nil},
		{mentioned, []any{"mentioned"}, "x", nil},
		{mentionedRendered, []any{"mentioned"}, "<p>x</p>", nil},
		{plain, []any{}, "x", nil},
		{outsider, []any{}, "x", nil},
	} {
		delivered, _ := r.Fetch(context.Background(), tc.q, -1, true)
		evs := decoded(t, delivered)
		if len(evs) != 1 {
			t.Fatalf("queue of user %d got %d events", tc.q.opts.UserID, len(evs))
		}
		e := evs[0]
		if !slices.Equal(e["flags"].([]any), tc.flags) || e["message"] != tc.message || e["local_message_id"] != tc.localID {
			t.Errorf("queue of user %d got flags %v message %v local id %v; want %v %v %v",
				tc.q.opts.UserID, e["flags"], e["message"], e["local_message_id"], tc.flags, tc.message, tc.localID)
		}
	}
}

// TestQueuesPerUserAreCapped: registering past the cap drops the user's
// least recently read queue (its client re-registers on BAD_EVENT_QUEUE_ID,
// as after garbage collection); other users' queues are untouched.
func TestQueuesPerUserAreCapped(t *testing.T) {
	r := NewRegistry(Settings{IdleTimeout: time.Hour, Heartbeat: time.Hour, MaxEvents: 100, MaxQueuesPerUser: 3})
	clock := time.Unix(1000, 0)
	r.now = func() time.Time { clock = clock.Add(time.Second); return clock }
	other := r.Register(QueueOptions{UserID: 2})
	var qs []*Queue
	for range 3 {
		qs = append(qs, r.Register(QueueOptions{UserID: 1}))
	}
	if _, err := r.Fetch(context.Background(), qs[0], -1, true); err != nil { // the oldest is read again
		t.Fatal(err)
	}
	newest := r.Register(QueueOptions{UserID: 1})
	for _, tc := range []struct {
		q    *Queue
		live bool
	}{{qs[0], true}, {qs[1], false}, {qs[2], true}, {newest, true}, {other, true}} {
		_, err := r.Get(tc.q.ID, tc.q.opts.UserID)
		if live := err == nil; live != tc.live {
			t.Errorf("queue %d of user %d: live %v, want %v", slices.Index(qs, tc.q), tc.q.opts.UserID, live, tc.live)
		}
	}
	if r.Len() != 4 {
		t.Errorf("%d queues", r.Len())
	}
	for range 10 {
		r.Register(QueueOptions{UserID: 1})
	}
	if r.Len() != 4 {
		t.Errorf("%d queues after ten more", r.Len())
	}
}

// TestClosedRegistryTakesNoQueue: once the organization is going away, a
// client registering again (as the desktop window does at once) must not
// start a wait that nothing would end.
func TestClosedRegistryTakesNoQueue(t *testing.T) {
	r := NewRegistry(Settings{IdleTimeout: time.Minute, Heartbeat: time.Minute, MaxEvents: 100})
	r.Close()
	q := r.Register(QueueOptions{UserID: 1})
	done := make(chan error, 1)
	go func() {
		_, err := r.Fetch(context.Background(), q, -1, false)
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNoQueue) {
			t.Errorf("fetch on a queue registered after Close: %v, want ErrNoQueue", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a queue registered after Close waits")
	}
	if r.Len() != 0 {
		t.Errorf("%d queues after Close", r.Len())
	}
}
