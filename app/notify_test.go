package app

import (
	"sync"
	"testing"

	"github.com/godbus/dbus/v5"

	"lanchat/backend/isolate"
)

// standInNotifications is a notification service for tests: it owns
// org.freedesktop.Notifications on a private session bus and records
// what it is asked to show.
type standInNotifications struct {
	conn *dbus.Conn
	mu   sync.Mutex
	got  []shown
}

type shown struct{ app, title, body string }

func (s *standInNotifications) GetCapabilities() ([]string, *dbus.Error) {
	return []string{"actions", "body", "body-markup"}, nil
}

func (s *standInNotifications) Notify(app string, replaces uint32, icon, title, body string, actions []string,
	hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.got = append(s.got, shown{app, title, body})
	return uint32(len(s.got)), nil
}

func (s *standInNotifications) shown() []shown {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]shown(nil), s.got...)
}

// click is what the service does when the person clicks notification id.
func (s *standInNotifications) click(t *testing.T, id uint32) {
	t.Helper()
	if err := s.conn.Emit(notifyPath, notifyIface+".ActivationToken", id, "token"); err != nil {
		t.Fatal(err)
	}
	if err := s.conn.Emit(notifyPath, notifyIface+".ActionInvoked", id, "default"); err != nil {
		t.Fatal(err)
	}
}

// One Notify raises exactly one notification with its title and text
// (escaped for a service that reads markup); clicking it brings the window
// forward and opens the conversation it named.
func TestNotifyRaisesOneNativeNotification(t *testing.T) {
	if !isolate.SessionBus(t) {
		return
	}
	service, err := dbus.ConnectSessionBus()
	if err != nil {
		t.Fatal(err)
	}
	defer service.Close()
	stand := &standInNotifications{conn: service}
	if err := service.Export(stand, notifyPath, notifyIface); err != nil {
		t.Fatal(err)
	}
	if reply, err := service.RequestName(notifyName, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("RequestName: %v %v", reply, err)
	}

	opened := make(chan string, 1)
	var focused int
	a := &App{
		connectBus: func() (*dbus.Conn, error) { return dbus.ConnectSessionBus() },
		focus:      func() { focused++ },
		emit: func(name string, data any) {
			if name == "notification:open" {
				opened <- data.(string)
			}
		},
	}
	defer func() { a.notifications.conn.Close() }()
	if err := a.Notify("Alice Liddell (general > lunch)", "@**Olive** <b>soup</b> at noon?", "#narrow/stream/1-general/topic/lunch"); err != nil {
		t.Fatal(err)
	}
	want := []shown{{"Lanchat", "Alice Liddell (general > lunch)", "@**Olive** &lt;b&gt;soup&lt;/b&gt; at noon?"}}
	if got := stand.shown(); len(got) != 1 || got[0] != want[0] {
		t.Fatalf("shown %+v, want %+v", got, want)
	}
	stand.click(t, 1)
	if hash := <-opened; hash != "#narrow/stream/1-general/topic/lunch" || focused != 1 {
		t.Errorf("a click opened %q, focused the window %d times", hash, focused)
	}
	if got := stand.shown(); len(got) != 1 {
		t.Errorf("%d notifications, want 1", len(got))
	}
}

// Without a notification service Notify says so, and raises nothing.
func TestNotifyWithoutAServiceSaysSo(t *testing.T) {
	if !isolate.SessionBus(t) {
		return
	}
	a := &App{connectBus: func() (*dbus.Conn, error) { return dbus.ConnectSessionBus() }}
	if err := a.Notify("t", "b", "#"); err == nil || a.notifications != nil {
		t.Errorf("Notify with no service: %v", err)
	}
}
