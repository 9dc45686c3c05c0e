package events

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"lanchat/backend/store"
)

// BenchmarkPublishToWaitingQueues measures a message's fan-out to queues
// whose readers are blocked in Fetch, up to the last reader having its
// event: the server's share of send → delivery, without HTTP.
func BenchmarkPublishToWaitingQueues(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			r := NewRegistry(Settings{IdleTimeout: time.Hour, Heartbeat: time.Hour, MaxEvents: 1 << 20})
			users := []int64{1, 2, 3, 4}
			flags := store.NewRecipients(users, 0)
			queues := make([]*Queue, n)
			for i := range queues {
				queues[i] = r.Register(QueueOptions{UserID: users[i%len(users)], EventTypes: []string{"message"}})
			}
			me := MessageEvent{Message: store.Message{ID: 1}, Rendered: map[string]any{"content": "<p>tick</p>"}, Raw: map[string]any{"content": "tick"}, Recipients: flags}
			last := make([]int64, n)
			for i := range last {
				last[i] = -1
			}
			for b.Loop() {
				b.StopTimer()
				var ready, done sync.WaitGroup
				for i, q := range queues {
					ready.Add(1)
					done.Add(1)
					go func() {
						defer done.Done()
						ready.Done()
						evs, err := r.Fetch(context.Background(), q, last[i], false)
						if err != nil || len(evs) == 0 {
							panic(fmt.Sprint("fetch: ", evs, err))
						}
						last[i] = evs[len(evs)-1].ID
					}()
				}
				ready.Wait()
				time.Sleep(10 * time.Millisecond) // let every reader block
				b.StartTimer()
				r.PublishMessage(r.MessageAudience(me), me)
				done.Wait()
			}
		})
	}
}
