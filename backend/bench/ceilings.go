package bench

import (
	"net"
	"net/http"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
)

// NoopCeiling measures a handler that does nothing, on the same loopback
// and client: no server can answer faster on this machine.
func NoopCeiling(workers int, d time.Duration) (Latencies, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return Latencies{}, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"result":"success","msg":""}`))
	})}
	go srv.Serve(ln)
	defer srv.Close()
	c := &Client{base: "http://" + ln.Addr().String(), http: &http.Client{Transport: transport}}
	return Run(workers, d, func(int) error { return c.call("GET", "/", nil, nil) })
}

// FsyncCeiling measures bbolt's one-writer durable commits per second in
// dir, the disk's bound on unbatched writes.
func FsyncCeiling(dir string, d time.Duration) (float64, error) {
	db, err := bolt.Open(filepath.Join(dir, "fsync-ceiling.db"), 0o600, nil)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	start := time.Now()
	n := 0
	for time.Since(start) < d {
		err := db.Update(func(tx *bolt.Tx) error {
			b, err := tx.CreateBucketIfNotExists([]byte("b"))
			if err != nil {
				return err
			}
			return b.Put([]byte{byte(n), byte(n >> 8), byte(n >> 16)}, []byte("x"))
		})
		if err != nil {
			return 0, err
		}
		n++
	}
	return float64(n) / time.Since(start).Seconds(), nil
}
