package domain

import (
	"fmt"
	"testing"
	"time"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// BenchmarkRestoreEventQueues is the start-up work of make bench's restart
// figure without the process: 10,000 recorded queues, 50 for each of 200
// members (the default bound per user), half of them narrowed to a topic,
// restored into an empty registry as a server opening its organization
// does. cpu-ms/op (the process's CPU time per restore) holds steadier
// than ns/op on a machine shared with other work.
func BenchmarkRestoreEventQueues(b *testing.B) {
	svc, _ := devService(b)
	const queues = 10_000
	perUser := events.DefaultSettings.MaxQueuesPerUser
	var users []store.User
	for i := range queues / perUser {
		u, err := svc.CreateUserAsHost(NewUser{Email: fmt.Sprintf("member%d@example.com", i), FullName: fmt.Sprintf("Member %d", i), Role: store.RoleMember})
		if err != nil {
			b.Fatal(err)
		}
		users = append(users, u)
	}
	err := svc.store.Update(func(tx *store.Tx) error {
		for i := range queues {
			rec := store.EventQueue{ID: fmt.Sprintf("restore-%05d", i), UserID: users[i%len(users)].ID, ApplyMarkdown: true}
			if i%2 == 1 {
				rec.EventTypes = []string{"message"}
				rec.Narrow = []store.EventQueueTerm{{Operator: "stream", Operand: "general"}, {Operator: "topic", Operand: "restart"}}
			}
			if err := tx.PutEventQueue(rec); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	var cpu time.Duration
	for b.Loop() {
		b.StopTimer()
		restarted := New(svc.store, svc.cfg) // an empty registry, as at start-up
		before := cpuTime()
		b.StartTimer()
		err := restarted.RestoreEventQueues()
		cpu += cpuTime() - before
		if err != nil {
			b.Fatal(err)
		}
		if n := restarted.events.Len(); n != queues {
			b.Fatalf("restored %d queues, want %d", n, queues)
		}
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}
