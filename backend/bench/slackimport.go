package bench

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"lanchat/backend/domain"
	"lanchat/backend/store"
)

// ImportRun is how a `lanchatd import` went: its wall time and its
// resident memory at the peak (all of it, and the anonymous part alone,
// sampled: the rest is the store's mapped file, which the kernel drops at
// will).
type ImportRun struct {
	Took     time.Duration
	Peak     int64
	PeakAnon int64
}

// ImportSlack runs `binary import --from slack` of zipPath into a new
// dataDir.
func ImportSlack(binary, zipPath, dataDir string) (ImportRun, error) {
	os.RemoveAll(dataDir)
	cmd := exec.Command(binary, "import", "--data", dataDir, "--from", "slack", zipPath)
	out := &limitedBuffer{max: 64 << 10}
	cmd.Stdout, cmd.Stderr = out, out
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return ImportRun{}, err
	}
	var run ImportRun
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			run.Took = time.Since(start)
			if err != nil {
				return run, fmt.Errorf("%v: %s", err, out.b)
			}
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				run.Peak = ru.Maxrss * 1024
			}
			return run, nil
		case <-tick.C:
			if m, err := (&Server{cmd: cmd}).Memory(); err == nil {
				run.PeakAnon = max(run.PeakAnon, m.Anon)
			}
		}
	}
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	b   []byte
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - len(l.b); room > 0 {
		l.b = append(l.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// DirectSends writes the shape's people, channels and messages into a new
// store in dir straight through the domain (domain.ImportMessages in
// batches of 2000, as an import's transactions are), the figure an import
// is compared with.
func DirectSends(dir string, s SlackShape) (time.Duration, error) {
	os.RemoveAll(dir)
	st, err := store.Open(dir)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	svc := domain.New(st, domain.Config{DataDir: dir})
	start := time.Now()
	if err := svc.EnsureRealm("Direct"); err != nil {
		return 0, err
	}
	ids := make([]int64, s.Users)
	var admin store.User
	for i := range ids {
		role := store.RoleMember
		if i == 0 {
			role = store.RoleOwner
		}
		u, err := svc.CreateUserAsHost(domain.NewUser{Email: SlackUserEmail(i), FullName: fmt.Sprintf("User %d", i), Role: role})
		if err != nil {
			return 0, err
		}
		ids[i] = u.ID
		if i == 0 {
			admin = u
		}
	}
	for c := range s.Channels {
		var emails []string
		for _, u := range s.SlackMembers(c) {
			emails = append(emails, SlackUserEmail(u))
		}
		req := domain.SubscribeRequest{Streams: []domain.StreamSpec{{Name: SlackChannelName(c)}}, Principals: emails}
		if _, err := svc.Subscribe(admin, req); err != nil {
			return 0, err
		}
	}
	batch := make([]domain.ImportedMessage, 0, 2000)
	flush := func() error {
		_, err := svc.ImportMessages(batch)
		batch = batch[:0]
		return err
	}
	err = s.EachSlackDay(func(_ string, msgs []GeneratedMessage) error {
		for _, m := range msgs {
			var sec int64
			fmt.Sscanf(m.TS, "%d.", &sec)
			topic := "imported from Slack"
			if m.ThreadTS != "" {
				topic = "thread " + m.ThreadTS
			}
			batch = append(batch, domain.ImportedMessage{SenderID: ids[m.Sender], Timestamp: sec, OutgoingMessage: domain.OutgoingMessage{
				Type: "stream", Stream: SlackChannelName(m.Channel), Topic: topic, Content: m.Text, Client: "bench"}})
			if len(batch) == cap(batch) {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err == nil && len(batch) > 0 {
		err = flush()
	}
	return time.Since(start), err
}
