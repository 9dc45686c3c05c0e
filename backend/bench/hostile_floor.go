package bench

import (
	"fmt"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
)

// HostileLoad is the physical load the hostile mix may put on the machine
// within the server's bounds: files written at a pace (the upload pace of
// each person uploading) and cores kept busy (as many as heavy reads may
// take together).
type HostileLoad struct {
	Writers   int
	WriteRate float64 // bytes a second, each
	BusyCores int
}

// FloorFigures are bare durable sends, quiet and beside each half of a
// HostileLoad.
type FloorFigures struct{ Quiet, Writes, Busy Latencies }

// HostileFloor measures what no server could beat beside load, on srv
// serving FloorHandler: bare durable sends from senders at once for d each,
// quiet, beside load's file writes, and beside its busy cores.
func HostileFloor(srv *Server, load HostileLoad, senders int, d time.Duration) (FloorFigures, error) {
	var f FloorFigures
	c := &Client{base: srv.URL, http: &http.Client{Transport: transport}}
	send := func(int) error { return c.call("POST", "/send", nil, nil) }
	phases := []struct {
		out  *Latencies
		load url.Values
	}{
		{&f.Quiet, nil},
		{&f.Writes, url.Values{"writers": {strconv.Itoa(load.Writers)}, "rate": {fmt.Sprint(load.WriteRate)}}},
		{&f.Busy, url.Values{"cores": {strconv.Itoa(load.BusyCores)}}},
	}
	for _, p := range phases {
		if err := c.call("POST", "/load", p.load, nil); err != nil {
			return f, err
		}
		time.Sleep(time.Second) // the load under way
		var err error
		if *p.out, err = Run(senders, d, send); err != nil {
			return f, err
		}
	}
	return f, c.call("POST", "/load", nil, nil)
}

// FloorHandler serves a bare durable send at /send (an HTTP request
// answered after a bbolt commit in dir that concurrent sends share; no
// parsing, rendering or fan-out) and, at /load, runs a load beside it
// until the next /load: writers files written at rate bytes a second
// each, or cores kept busy, or nothing.
func FloorHandler(dir string) (http.Handler, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	db, err := bolt.Open(filepath.Join(dir, "floor.db"), 0o600, nil)
	if err != nil {
		return nil, err
	}
	db.MaxBatchDelay = 0 // commit what has queued up, never wait for more
	cores := runtime.GOMAXPROCS(0)
	var mu sync.Mutex
	var n int64
	stop := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("POST /send", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		n++
		key := fmt.Appendf(nil, "%019d", n)
		mu.Unlock()
		err := db.Batch(func(tx *bolt.Tx) error {
			b, err := tx.CreateBucketIfNotExists([]byte("messages"))
			if err != nil {
				return err
			}
			return b.Put(key, []byte("lunch at noon, as usual"))
		})
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"result":"success","msg":"","id":1}`))
	})
	mux.HandleFunc("POST /load", func(w http.ResponseWriter, r *http.Request) {
		writers, _ := strconv.Atoi(r.FormValue("writers"))
		rate, _ := strconv.ParseFloat(r.FormValue("rate"), 64)
		busy, _ := strconv.Atoi(r.FormValue("cores"))
		mu.Lock()
		close(stop)
		stop = make(chan struct{})
		// A busy thread holds one of Go's Ps, whatever its nice value: the
		// sends keep a P for each core, as lanchatd's do (api.Procs), so
		// that the floor measures the machine's cores, not Go's Ps.
		runtime.GOMAXPROCS(cores + busy)
		for w := range writers {
			go writeFiles(filepath.Join(dir, fmt.Sprintf("upload-%d", w)), rate, stop)
		}
		for range busy {
			go keepBusy(stop)
		}
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"result":"success","msg":""}`))
	})
	return mux, nil
}

// writeFiles writes upload-sized files as path at rate bytes a second,
// each synced when whole (as an upload is), until stop.
func writeFiles(path string, rate float64, stop <-chan struct{}) {
	buf := make([]byte, 64<<10)
	for {
		file, err := os.Create(path)
		if err != nil {
			return
		}
		start := time.Now()
		for written := 0; written < HostileUploadSize; written += len(buf) {
			select {
			case <-stop:
				file.Close()
				return
			case <-time.After(time.Until(start.Add(time.Duration(float64(written) / rate * float64(time.Second))))):
			}
			file.Write(buf)
		}
		file.Sync()
		file.Close()
	}
}

// keepBusy keeps a core busy allocating (as a heavy read does) until stop,
// on a thread at nice 10, as the server runs heavy reads.
func keepBusy(stop <-chan struct{}) {
	runtime.LockOSThread()                           // never unlocked: the thread ends with the goroutine
	syscall.Setpriority(syscall.PRIO_PROCESS, 0, 10) // 0: the calling thread, on Linux
	var sink []byte
	for {
		select {
		case <-stop:
			return
		default:
		}
		for range 100 {
			sink = make([]byte, 256)
		}
		runtime.KeepAlive(sink)
	}
}
