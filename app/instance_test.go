package app

import (
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"lanchat/backend/isolate"
)

// On a session bus of the test's own: the first claim on a data folder
// owns it; a later one asks the owner to come forward, passing its
// launcher's startup ID, and gets errAlreadyRunning; another folder is
// claimed alongside. A claim made while the owner quits waits for the
// owner to let go, then owns the folder.
func TestOneInstancePerDataFolder(t *testing.T) {
	if !isolate.SessionBus(t) {
		return
	}
	data := t.TempDir()
	var raised atomic.Value
	var quitting atomic.Bool
	first, err := claimInstance(data, time.Second, func(id string) error {
		if quitting.Load() {
			return errors.New("quitting")
		}
		raised.Store(id)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	never := func(string) error {
		t.Error("a copy that does not own its folder was asked to come forward")
		return nil
	}

	t.Setenv("DESKTOP_STARTUP_ID", "launcher_TIME1234")
	if _, err := claimInstance(filepath.Join(data, "."), time.Second, never); !errors.Is(err, errAlreadyRunning) {
		t.Fatalf("a second claim on the same folder: %v", err)
	}
	if got := raised.Load(); got != "launcher_TIME1234" {
		t.Errorf("the owner was asked to come forward with %v", got)
	}
	other, err := claimInstance(t.TempDir(), time.Second, never)
	if err != nil {
		t.Fatalf("another folder: %v", err)
	}
	other.release()

	quitting.Store(true)
	released := make(chan struct{})
	time.AfterFunc(500*time.Millisecond, func() { first.release(); close(released) })
	next, err := claimInstance(data, 5*time.Second, never)
	if err != nil {
		t.Fatalf("a claim while the owner quits: %v", err)
	}
	select {
	case <-released:
	default:
		t.Error("the claim did not wait for the quitting owner")
	}
	next.release()
}
