package bench

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"lanchat/backend/domain"
	"lanchat/backend/store"
)

// Memory is a process's resident memory as /proc/PID/status splits it:
// anonymous pages (the heap, stacks) and file-backed ones (mostly the
// store's mapped file, which the kernel can drop and read again).
type Memory struct{ RSS, Anon, File int64 }

func (m Memory) String() string {
	return fmt.Sprintf("%.0f MB (%.0f MB anonymous, %.0f MB of files)", mb(m.RSS), mb(m.Anon), mb(m.File))
}

func mb(b int64) float64 { return float64(b) / 1e6 }

// Memory reads the server's resident memory.
func (s *Server) Memory() (Memory, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return Memory{}, err
	}
	var m Memory
	fields := map[string]*int64{"VmRSS:": &m.RSS, "RssAnon:": &m.Anon, "RssFile:": &m.File}
	for _, line := range strings.Split(string(data), "\n") {
		name, value, _ := strings.Cut(line, "\t")
		if dst := fields[name]; dst != nil {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(value), "kB")), 10, 64)
			if err != nil {
				return Memory{}, err
			}
			*dst = kb * 1024
		}
	}
	return m, nil
}

// TeamFixture makes (or reuses) a development store under dir with people
// more accounts, person0@example.com and so on, all in the general stream:
// a team of that size.
func TeamFixture(dir string, people int) error {
	return devFixture(dir, people, func(st *store.Store, svc *domain.Service) error {
		emails := teamEmails(people)
		for i, email := range emails {
			if _, err := svc.CreateUserAsHost(domain.NewUser{Email: email, FullName: fmt.Sprintf("Person %d", i), Role: store.RoleMember}); err != nil {
				return err
			}
		}
		var admin store.User
		if err := st.View(func(tx *store.Tx) (err error) { admin, err = tx.UserByEmail("admin@example.com"); return err }); err != nil {
			return err
		}
		_, err := svc.Subscribe(admin, domain.SubscribeRequest{Streams: []domain.StreamSpec{{Name: "general"}}, Principals: emails})
		return err
	})
}

// teamEmails are a TeamFixture's people.
func teamEmails(people int) []string {
	emails := make([]string, people)
	for i := range emails {
		emails[i] = fmt.Sprintf("person%d@example.com", i)
	}
	return emails
}

// webUIQueues registers as the web UI does: every event type, the whole
// initial state.
var webUIQueues = url.Values{"apply_markdown": {"true"}, "client_gravatar": {"false"}, "slim_presence": {"false"},
	"client_capabilities": {`{"notification_settings_null":true}`}}

// MemoryFigures are the server's resident memory through a team's day.
type MemoryFigures struct {
	Idle     Memory // started, nobody signed in
	SignedIn Memory // every person signed in with a queue, idle
	Peak     Memory // the most during the delivery workload (by RSS)
	After    []Memory
}

// MemoryUnderLoad signs every person of a TeamFixture store in (a queue
// each, registered as the web UI does), then delivers rounds messages to
// all of them over the WebSocket and rounds more by long-polling, sampling
// the server's memory throughout and at each of after once the workload
// ends.
func MemoryUnderLoad(srv *Server, people, rounds int, after []time.Duration) (MemoryFigures, error) {
	var f MemoryFigures
	var err error
	if f.Idle, err = srv.Memory(); err != nil {
		return f, err
	}
	users, err := loginAll(srv, teamEmails(people))
	if err != nil {
		return f, err
	}
	rig, err := newDeliveryRig(users, people, webUIQueues)
	if err != nil {
		return f, err
	}
	time.Sleep(2 * time.Second)
	if f.SignedIn, err = srv.Memory(); err != nil {
		return f, err
	}

	ctx, stop := context.WithCancel(context.Background())
	peak := sampleMemory(srv, ctx)
	_, _, err = rig.socket(srv, rounds)
	if err == nil {
		_, _, err = rig.longPoll(srv, rounds)
	}
	stop()
	f.Peak = <-peak
	if err != nil {
		return f, err
	}
	start := time.Now()
	for _, d := range after {
		time.Sleep(time.Until(start.Add(d)))
		m, err := srv.Memory()
		if err != nil {
			return f, err
		}
		f.After = append(f.After, m)
	}
	return f, nil
}
