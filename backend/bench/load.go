package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Client talks to the server under test as one user, over keep-alive
// connections.
type Client struct {
	base, email, key string
	http             *http.Client
}

var transport = &http.Transport{MaxIdleConnsPerHost: 1024, MaxConnsPerHost: 0, IdleConnTimeout: time.Minute}

// Login fetches a development API key.
func Login(base, email string) (*Client, error) {
	c := &Client{base: base, http: &http.Client{Transport: transport, Timeout: 2 * time.Minute}}
	var res struct {
		APIKey string `json:"api_key"`
	}
	if err := c.call("POST", "/api/v1/dev_fetch_api_key", url.Values{"username": {email}}, &res); err != nil {
		return nil, err
	}
	c.email, c.key = email, res.APIKey
	return c, nil
}

// at is the same user's client of the server at base (restarted on
// another port, say).
func (c *Client) at(base string) *Client {
	moved := *c
	moved.base = base
	return &moved
}

// call sends a request and decodes a success answer into out (if non-nil).
func (c *Client) call(method, path string, form url.Values, out any) error {
	var body io.Reader
	target := c.base + path
	if method == "GET" {
		target += "?" + form.Encode()
	} else {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	return c.do(req, out)
}

// do sends a request with the client's credentials and decodes a success
// answer into out (if non-nil).
func (c *Client) do(req *http.Request, out any) error {
	if c.key != "" {
		req.SetBasicAuth(c.email, c.key)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode != 200 {
		return fmt.Errorf("%s %s: %d %s", req.Method, req.URL.Path, resp.StatusCode, data)
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

// Run calls op from workers goroutines until duration has passed and
// summarises the latencies. The first error stops the run.
func Run(workers int, duration time.Duration, op func(worker int) error) (Latencies, error) {
	var mu sync.Mutex
	var samples []time.Duration
	var firstErr error
	deadline := time.Now().Add(duration)
	start := time.Now()
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var local []time.Duration
			for time.Now().Before(deadline) {
				t0 := time.Now()
				if err := op(w); err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					break
				}
				local = append(local, time.Since(t0))
			}
			mu.Lock()
			samples = append(samples, local...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	return summarize(samples, time.Since(start)), firstErr
}

// Server is a lanchatd process under test.
type Server struct {
	URL       string
	Started   time.Time     // when the process was started
	ColdStart time.Duration // process start to its "listening on" line
	cmd       *exec.Cmd
}

var listeningLine = regexp.MustCompile(`^listening on (http://\S+)$`)

// StartServer runs `lanchatd serve` on a free loopback port, with extra
// arguments (a profiler address, say) after the usual ones. The demo's
// four accounts stand for thousands of clients, so their queues are not
// capped.
func StartServer(binary, dataDir string, extra ...string) (*Server, error) {
	return StartProcess(exec.Command(binary, append([]string{"serve", "--addr", "127.0.0.1:0", "--data", dataDir, "--dev", "--max-queues-per-user", "0"}, extra...)...))
}

// StartProcess starts a server process and waits for its "listening on
// URL" line on stderr.
func StartProcess(cmd *exec.Cmd) (*Server, error) {
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	lines := bufio.NewScanner(stderr)
	for lines.Scan() {
		if m := listeningLine.FindStringSubmatch(lines.Text()); m != nil {
			go io.Copy(io.Discard, stderr)
			return &Server{URL: m[1], Started: start, ColdStart: time.Since(start), cmd: cmd}, nil
		}
	}
	cmd.Process.Kill()
	cmd.Wait()
	return nil, fmt.Errorf("%s exited before listening", cmd.Path)
}

// CPU is the CPU time the server process has used so far, over all its
// threads (0 for a server this program did not start).
func (s *Server) CPU() time.Duration {
	if s.cmd == nil {
		return 0
	}
	tasks, _ := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", s.cmd.Process.Pid))
	var total time.Duration
	for _, task := range tasks {
		data, err := os.ReadFile(task)
		if err != nil {
			continue // the thread ended
		}
		if fields := strings.Fields(string(data)); len(fields) > 0 {
			ns, _ := strconv.ParseInt(fields[0], 10, 64) // nanoseconds on a CPU
			total += time.Duration(ns)
		}
	}
	return total
}

// ProcessCPU is the CPU time the server process has used so far, threads
// that have ended included (CPU's per-thread counters lose those: the
// server's niced threads end with their request), at the kernel's clock
// tick.
func (s *Server) ProcessCPU() time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// utime and stime are the 14th and 15th fields, counted after the
	// command's name, which may hold spaces.
	fields := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	if len(fields) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / clockTicks
}

// clockTicks is the kernel's USER_HZ, the unit of /proc's CPU times: 100
// on every Linux architecture Go supports.
const clockTicks = 100

// Stop ends the server gracefully.
func (s *Server) Stop() { s.stopWith(os.Interrupt) }

// Terminate ends the server as a service manager does, with SIGTERM.
func (s *Server) Terminate() { s.stopWith(syscall.SIGTERM) }

func (s *Server) stopWith(sig os.Signal) {
	s.cmd.Process.Signal(sig)
	s.cmd.Wait()
}
