package server

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"lanchat/backend/discovery"
	"lanchat/backend/isolate"
)

// On a network (a stand-in LAN in a namespace of the test's own), a host
// listening on all addresses is announced at its LAN address; one bound to
// loopback is not announced at all, and its log says why: whoever heard
// it could not reach it.
func TestLoopbackHostIsNotAdvertised(t *testing.T) {
	if !isolate.LAN(t) {
		return
	}
	var log syncBuffer
	loopback := runAdvertised(t, "127.0.0.1:0", &log)
	if teams := browse(t); len(teams) != 0 {
		t.Errorf("a host on %s is announced: %+v", loopback, teams)
	}
	if !strings.Contains(log.String(), `not advertised on the network (DNS-SD)" err="it listens only on `+loopback.String()) {
		t.Errorf("the log does not say why the host is not announced:\n%s", log.String())
	}

	all := runAdvertised(t, "0.0.0.0:0", &log)
	want := []discovery.Team{{Name: "Lanchat Dev", URL: "http://" + net.JoinHostPort(isolate.LANAddr.String(), strconv.Itoa(all.Port))}}
	if teams := browse(t); !slices.Equal(teams, want) {
		t.Errorf("a host on all addresses is announced as %+v, want %+v", teams, want)
	}
}

// A host listening on all addresses of a machine with no network address
// (here only loopback) announces nothing: before, it offered 127.0.0.1,
// which sent whoever joined to their own machine.
func TestHostWithoutLANAddressIsNotAdvertised(t *testing.T) {
	if !isolate.Network(t) {
		return
	}
	runAdvertised(t, "0.0.0.0:0", &syncBuffer{})
	if teams := browse(t); len(teams) != 0 {
		t.Errorf("announced: %+v", teams)
	}
}

// runAdvertised runs a development host on addr with --advertise until the
// test ends and returns where it listens.
func runAdvertised(t *testing.T, addr string, log *syncBuffer) *net.TCPAddr {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan *net.TCPAddr, 1)
	done := make(chan error, 1)
	cfg := Config{Addr: addr, DataDir: t.TempDir(), Dev: true, Advertise: true, Log: slog.New(slog.NewTextHandler(log, nil))}
	go func() {
		done <- Run(ctx, cfg, func(a Addresses) {
			u := a.URL[strings.Index(a.URL, "//")+2:]
			tcp, _ := net.ResolveTCPAddr("tcp", u)
			ready <- tcp
		})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	})
	select {
	case a := <-ready:
		return a
	case err := <-done:
		t.Fatal(err)
	case <-time.After(30 * time.Second):
		t.Fatal("the host did not start")
	}
	return nil
}

func browse(t *testing.T) []discovery.Team {
	t.Helper()
	teams, err := discovery.Browse(t.Context(), time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return teams
}

// syncBuffer is a log written by the server's goroutines and read by the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
