package app

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/godbus/dbus/v5"
)

// One copy of the app per data folder. The first launch on a folder owns a
// name on the user's session bus made from the folder's absolute path; a
// later launch on the same folder asks the owner to bring its window
// forward and leaves. Apps on different folders have different names and
// run side by side.
//
// Not Wails' options.SingleInstanceLock: Wails takes its name inside
// wails.Run, after a host has opened its store (so a second host copy
// stops on the store's lock before it could ask), and its second copy
// leaves through os.Exit(1), skipping the caller's shutdown.
const (
	instanceIface = "org.lanchat.Instance"
	instancePath  = dbus.ObjectPath("/org/lanchat/Instance")
)

// errAlreadyRunning: another copy runs on this data folder and was asked
// to bring its window forward.
var errAlreadyRunning = errors.New("another copy runs on this data folder")

// instanceBusName is the session bus name of the copy running on the data
// folder id (a bus name's elements may not start with a digit).
func instanceBusName(id string) string { return instanceIface + ".d" + id }

// instance is this copy's claim on its data folder.
type instance struct {
	conn *dbus.Conn
	// raise brings the window forward, or fails once this copy is
	// quitting.
	raise func(startupID string) error
}

// Raise is what a later launch on the same folder calls: it brings the
// window forward. startupID is that launch's DESKTOP_STARTUP_ID or
// XDG_ACTIVATION_TOKEN, which lets the window take the focus from the
// launcher under focus-stealing prevention.
func (i *instance) Raise(startupID string) *dbus.Error {
	if err := i.raise(startupID); err != nil {
		return dbus.MakeFailedError(err)
	}
	return nil
}

// claimInstance makes this copy the one running on dataDir, or asks the
// copy that is to come forward and returns errAlreadyRunning. A copy that
// is quitting cannot: this one waits, up to wait, for it to end and takes
// its place. Any other error means there is no session bus to ask: the
// caller goes on alone.
func claimInstance(dataDir string, wait time.Duration, raise func(startupID string) error) (*instance, error) {
	conn, err := dbus.SessionBusPrivateNoAutoStartup()
	if err != nil {
		return nil, err
	}
	if err = conn.Auth(nil); err == nil {
		err = conn.Hello()
	}
	if err != nil {
		conn.Close()
		return nil, err
	}
	name := instanceBusName(instanceID(dataDir))
	inst := &instance{conn: conn, raise: raise}
	// Exported before the name is taken, so that whoever finds the name
	// finds Raise too.
	if err := conn.Export(inst, instancePath, instanceIface); err != nil {
		conn.Close()
		return nil, err
	}
	startupID := os.Getenv("DESKTOP_STARTUP_ID")
	if startupID == "" {
		startupID = os.Getenv("XDG_ACTIVATION_TOKEN")
	}
	for deadline := time.Now().Add(wait); ; time.Sleep(100 * time.Millisecond) {
		reply, err := conn.RequestName(name, dbus.NameFlagDoNotQueue)
		if err != nil {
			conn.Close()
			return nil, err
		}
		if reply == dbus.RequestNameReplyPrimaryOwner {
			return inst, nil
		}
		err = conn.Object(name, instancePath).Call(instanceIface+".Raise", 0, startupID).Err
		if err == nil {
			conn.Close()
			return nil, errAlreadyRunning
		}
		if time.Now().After(deadline) {
			conn.Close()
			return nil, fmt.Errorf("the copy running on this data folder does not come forward: %w", err)
		}
	}
}

// release gives the data folder up (the bus also does when the process
// ends).
func (i *instance) release() { i.conn.Close() }
