package bench

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// ScaleStream is the stream every member is subscribed to.
const ScaleStream = "scale"

// ScaleFigures are durable sends at one subscriber count and what they cost the
// store.
type ScaleFigures struct {
	Subscribers int
	Sends       Latencies
	// BytesPerMessage is the store's growth per message (allocated pages
	// of every bucket), RecordBytes the part of it that is the message
	// records themselves (content, rendered HTML, header), KeysPerMessage
	// the growth in keys.
	BytesPerMessage, RecordBytes, KeysPerMessage float64
	// History holds GET /messages figures by narrow, when asked for.
	History map[string]Latencies
}

// SubscriberScale measures durable sends to a stream of subscribers members (the
// seeded users among them), from senders concurrent members, on a fresh
// store under dir; then reads the newest 1000 messages in each of the
// history narrows as one member. Members are made over the API, so any
// build's lanchatd can be measured.
func SubscriberScale(binary, dir string, subscribers, senders int, d time.Duration, history []string, extra ...string) (ScaleFigures, error) {
	f := ScaleFigures{Subscribers: subscribers}
	os.RemoveAll(dir)
	srv, err := StartServer(binary, dir, extra...)
	if err != nil {
		return f, err
	}
	members, err := subscribeMembers(srv, subscribers)
	srv.Stop()
	if err != nil {
		return f, err
	}
	before, err := storeFootprint(dir)
	if err != nil {
		return f, err
	}
	if srv, err = StartServer(binary, dir, extra...); err != nil {
		return f, err
	}
	defer func() { srv.Stop() }()
	clients := make([]*Client, senders)
	for i := range clients {
		if clients[i], err = Login(srv.URL, members[i%len(members)]); err != nil {
			return f, err
		}
	}
	cpu := srv.CPU()
	f.Sends, err = Run(senders, d, func(w int) error {
		return clients[w].call("POST", "/api/v1/messages", url.Values{
			"type": {"stream"}, "to": {ScaleStream}, "topic": {fmt.Sprintf("load %d", w%10)},
			"content": {"a benchmark message about kubernetes and coffee"},
		}, nil)
	})
	if err != nil {
		return f, err
	}
	// CPU per send holds steadier than sends/s on a machine shared with
	// other work.
	f.Sends.ServerCPU = (srv.CPU() - cpu) / time.Duration(max(1, f.Sends.Count))
	f.History = map[string]Latencies{}
	for _, narrow := range history {
		if f.History[narrow], err = History(srv, narrow, d); err != nil {
			return f, fmt.Errorf("history %s: %w", narrow, err)
		}
	}
	srv.Stop()
	after, err := storeFootprint(dir)
	if err != nil {
		return f, err
	}
	n := float64(after.messages - before.messages)
	f.BytesPerMessage = float64(after.bytes-before.bytes) / n
	f.KeysPerMessage = float64(after.keys-before.keys) / n
	f.RecordBytes = float64(after.recordBytes-before.recordBytes) / n
	return f, nil
}

// subscribeMembers subscribes the seeded users and new members, n in all, to the
// scale stream, and returns every member's email.
func subscribeMembers(srv *Server, n int) ([]string, error) {
	admin, err := Login(srv.URL, "admin@example.com")
	if err != nil {
		return nil, err
	}
	members := []string{"admin@example.com", "alice@example.com", "bob@example.com"}
	for i := len(members); i < n; i++ {
		email := fmt.Sprintf("member%d@example.com", i)
		form := url.Values{"email": {email}, "password": {"bench-password"}, "full_name": {fmt.Sprintf("Member %d", i)}}
		if err := admin.call("POST", "/api/v1/users", form, nil); err != nil {
			return nil, err
		}
		members = append(members, email)
	}
	members = members[:n]
	principals, _ := json.Marshal(members)
	form := url.Values{"subscriptions": {fmt.Sprintf(`[{"name":%q}]`, ScaleStream)}, "principals": {string(principals)}}
	return members, admin.call("POST", "/api/v1/users/me/subscriptions", form, nil)
}

// usage is a stopped server's store as bbolt lays it out.
type usage struct {
	bytes, keys, messages, recordBytes int64
}

// storeFootprint sums every bucket's allocated pages and keys, and the bytes
// of the message records.
func storeFootprint(dir string) (usage, error) {
	db, err := bolt.Open(filepath.Join(dir, "lanchat.db"), 0o600, &bolt.Options{ReadOnly: true, Timeout: 5 * time.Second})
	if err != nil {
		return usage{}, err
	}
	defer db.Close()
	var u usage
	err = db.View(func(tx *bolt.Tx) error {
		return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
			s := b.Stats()
			u.bytes += int64(s.BranchAlloc + s.LeafAlloc)
			u.keys += int64(s.KeyN)
			if string(name) != "messages" {
				return nil
			}
			u.messages = int64(s.KeyN)
			return b.ForEach(func(_, v []byte) error {
				u.recordBytes += int64(len(v))
				return nil
			})
		})
	})
	return u, err
}
