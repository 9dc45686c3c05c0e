package domain

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"lanchat/backend/store"
)

// BenchmarkSendToSubscribers is the durable send of make bench's
// subscribers figure without HTTP: 50 concurrent senders post to a stream
// that 5, 50 or 500 members receive. cpu-µs/op (the process's CPU time per send) holds
// steadier than ns/op on a machine shared with other work.
func BenchmarkSendToSubscribers(b *testing.B) {
	for _, n := range []int{5, 50, 500} {
		b.Run(fmt.Sprint(n), func(b *testing.B) { benchmarkSendTo(b, n) })
	}
}

// benchmarkSendTo measures 50 concurrent senders posting to a stream of n
// subscribers, as the subscribers figure of make bench does.
func benchmarkSendTo(b *testing.B, n int) {
	svc, user := devService(b)
	admin := user("admin@example.com")
	var emails []string
	for i := range n {
		email := fmt.Sprintf("member%d@example.com", i)
		if _, err := svc.CreateUserAsHost(NewUser{Email: email, FullName: fmt.Sprintf("Member %d", i), Role: store.RoleMember}); err != nil {
			b.Fatal(err)
		}
		emails = append(emails, email)
	}
	if _, err := svc.Subscribe(admin, SubscribeRequest{Streams: []StreamSpec{{Name: "scale"}}, Principals: emails}); err != nil {
		b.Fatal(err)
	}
	var next atomic.Int64
	b.SetParallelism(max(1, 50/runtime.GOMAXPROCS(0)))
	before := cpuTime()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		w := next.Add(1)
		sender := user(emails[int(w)%n])
		out := OutgoingMessage{Type: "stream", Stream: "scale", Topic: fmt.Sprintf("load %d", w%10),
			Content: "a benchmark message about kubernetes and coffee"}
		for pb.Next() {
			if _, err := svc.SendMessage(sender, out); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64((cpuTime()-before).Microseconds())/float64(b.N), "cpu-µs/op")
}

// cpuTime is the CPU time this process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
