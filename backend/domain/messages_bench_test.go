package domain

import (
	"fmt"
	"math/rand"
	"runtime"
	"strconv"
	"strings"
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
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			benchmarkSendTo(b, n, func(*rand.Rand) string { return "a benchmark message about kubernetes and coffee" })
		})
	}
}

// BenchmarkSendVariedWords is SendToSubscribers/50 with the words of chat:
// each message twelve words drawn from a vocabulary of 5,000 by Zipf's law,
// where make bench's figure repeats one sentence. The full-text index
// costs more when fewer words recur.
func BenchmarkSendVariedWords(b *testing.B) {
	vocabulary := make([]string, 5000)
	for i := range vocabulary {
		vocabulary[i] = strconv.FormatInt(int64(i)*7919+1000, 36) // short, distinct, all letters and digits
	}
	benchmarkSendTo(b, 50, func(r *rand.Rand) string {
		zipf := rand.NewZipf(r, 1.1, 1, uint64(len(vocabulary)-1))
		words := make([]string, 12)
		for i := range words {
			words[i] = vocabulary[zipf.Uint64()]
		}
		return strings.Join(words, " ")
	})
}

// benchmarkSendTo measures 50 concurrent senders posting content to a
// stream of n subscribers, as the subscribers figure of make bench does.
func benchmarkSendTo(b *testing.B, n int, content func(*rand.Rand) string) {
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
		r := rand.New(rand.NewSource(w))
		out := OutgoingMessage{Type: "stream", Stream: "scale", Topic: fmt.Sprintf("load %d", w%10)}
		for pb.Next() {
			out.Content = content(r)
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
