package bench

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"lanchat/backend/events"
)

// RestartFigures are a restart of a server that holds many event queues.
type RestartFigures struct {
	Queues, Members int
	// Stop is SIGTERM to the process's exit.
	Stop time.Duration
	// Listening is the new process's start to its "listening on" line;
	// Serving its start to the answer of a poll on a restored queue, and
	// ServingCPU the CPU time it had used by then.
	Listening, Serving, ServingCPU time.Duration
	// Restored is how many queues answered a poll after the restart (every
	// one is polled); Missing says why the first that did not failed.
	Restored int
	Missing  error
}

// restartNarrow is the narrow of half the restart figure's queues.
var restartNarrow = fmt.Sprintf(`[["stream",%q],["topic","restart"]]`, ScaleStream)

// Restart registers queues event queues on a fresh development server
// under dir, held by as many members as the default bound per user needs
// (events.DefaultSettings.MaxQueuesPerUser each): half of each member's take
// every event type without initial state, half the messages of a topic.
// It stops the server with SIGTERM, starts it again on the same data and
// times it until it answers a poll on a restored queue; then polls every
// queue and, when all answer, checks that a message sent now reaches a
// narrowed one.
func Restart(binary, dir string, queues int, extra ...string) (RestartFigures, error) {
	perUser := events.DefaultSettings.MaxQueuesPerUser
	f := RestartFigures{Queues: queues, Members: (queues + perUser - 1) / perUser}
	os.RemoveAll(dir)
	srv, err := StartServer(binary, dir, extra...)
	if err != nil {
		return f, err
	}
	rig, err := newRestartRig(srv, f.Members, queues)
	if err != nil {
		srv.Stop()
		return f, err
	}
	stopping := time.Now()
	srv.Terminate()
	f.Stop = time.Since(stopping)

	if srv, err = StartServer(binary, dir, extra...); err != nil {
		return f, err
	}
	defer srv.Stop()
	f.Listening = srv.ColdStart
	for i, c := range rig.users {
		rig.users[i] = c.at(srv.URL)
	}
	if err := rig.pollNow(0); err != nil {
		return f, fmt.Errorf("the first poll after the restart: %w", err)
	}
	f.Serving, f.ServingCPU = time.Since(srv.Started), srv.CPU()
	var mu sync.Mutex
	var missing []error
	eachInParallel(queues, 16, func(i int) error {
		if err := rig.pollNow(i); err != nil {
			mu.Lock()
			missing = append(missing, err)
			mu.Unlock()
		}
		return nil // counted, not fatal: the figure says how many are missing
	})
	f.Restored = queues - len(missing)
	if len(missing) > 0 {
		f.Missing = missing[0]
		return f, nil
	}
	return f, rig.receives(len(rig.users))
}

// newRestartRig registers the restart figure's queues, members' users
// each holding queues/members, and returns them with their queues.
func newRestartRig(srv *Server, members, queues int) (*deliveryRig, error) {
	emails, err := subscribeMembers(srv, members)
	if err != nil {
		return nil, err
	}
	users, err := loginAll(srv, emails)
	if err != nil {
		return nil, err
	}
	rig := &deliveryRig{users: users, queues: make([]string, queues), last: make([]int64, queues)}
	err = eachInParallel(queues, 16, func(i int) error {
		form := url.Values{"fetch_event_types": {"[]"}, "apply_markdown": {"true"}}
		if rig.narrowed(i) {
			form.Set("event_types", `["message"]`)
			form.Set("narrow", restartNarrow)
		}
		var reg struct {
			QueueID     string `json:"queue_id"`
			LastEventID int64  `json:"last_event_id"`
		}
		if err := rig.clientOf(i).call("POST", "/api/v1/register", form, &reg); err != nil {
			return err
		}
		rig.queues[i], rig.last[i] = reg.QueueID, reg.LastEventID
		return nil
	})
	return rig, err
}

// narrowed says whether the restart rig's queue i is narrowed to a topic:
// every other round of the users.
func (rig *deliveryRig) narrowed(i int) bool { return i/len(rig.users)%2 == 1 }

// pollNow polls queue i without waiting (dont_block).
func (rig *deliveryRig) pollNow(i int) error {
	form := url.Values{"queue_id": {rig.queues[i]}, "last_event_id": {strconv.FormatInt(rig.last[i], 10)}, "dont_block": {"true"}}
	return rig.clientOf(i).call("GET", "/api/v1/events", form, nil)
}

// receives sends a message to the restart rig's topic and long-polls queue
// i, which must be narrowed to it, for the message.
func (rig *deliveryRig) receives(i int) error {
	if !rig.narrowed(i) {
		return fmt.Errorf("queue %d is not narrowed to the topic", i)
	}
	sender := rig.clientOf(i + 1)
	form := url.Values{"type": {"stream"}, "to": {ScaleStream}, "topic": {"restart"}, "content": {"back"}}
	if err := sender.call("POST", "/api/v1/messages", form, nil); err != nil {
		return err
	}
	var body json.RawMessage
	poll := url.Values{"queue_id": {rig.queues[i]}, "last_event_id": {strconv.FormatInt(rig.last[i], 10)}}
	if err := rig.clientOf(i).call("GET", "/api/v1/events", poll, &body); err != nil {
		return err
	}
	if _, err := decodePoll(body); err != nil {
		return fmt.Errorf("a restored queue: %w", err)
	}
	return nil
}

// eachInParallel calls op for 0 to n-1 from workers goroutines; a worker
// stops at its first error.
func eachInParallel(n, workers int, op func(i int) error) error {
	var next atomic.Int64
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < n && errs[w] == nil; i = int(next.Add(1) - 1) {
				errs[w] = op(i)
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
