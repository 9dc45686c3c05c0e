package app

import (
	"fmt"
	"html"
	"slices"
	"sync"

	"github.com/godbus/dbus/v5"
)

// The freedesktop notification service on the session bus.
const (
	notifyName  = "org.freedesktop.Notifications"
	notifyPath  = dbus.ObjectPath("/org/freedesktop/Notifications")
	notifyIface = "org.freedesktop.Notifications"
)

// notifier raises the window's notifications through the desktop's
// notification service and reports a click on one, with the conversation
// (a narrow hash of the web UI) it was about.
type notifier struct {
	conn *dbus.Conn
	// markup: the service reads the body as markup, so text is escaped.
	markup bool
	open   func(hash string)

	mu      sync.Mutex
	pending map[uint32]string // notification ID → hash to open when clicked
}

func newNotifier(conn *dbus.Conn, open func(hash string)) (*notifier, error) {
	n := &notifier{conn: conn, open: open, pending: map[uint32]string{}}
	var caps []string
	if err := conn.Object(notifyName, notifyPath).Call(notifyIface+".GetCapabilities", 0).Store(&caps); err != nil {
		return nil, fmt.Errorf("no desktop notification service: %w", err)
	}
	n.markup = slices.Contains(caps, "body-markup")
	if err := conn.AddMatchSignal(dbus.WithMatchObjectPath(notifyPath), dbus.WithMatchInterface(notifyIface)); err != nil {
		return nil, err
	}
	signals := make(chan *dbus.Signal, 16)
	conn.Signal(signals)
	go n.follow(signals)
	return n, nil
}

// notify raises one notification; a click on it (the default action)
// opens hash.
func (n *notifier) notify(title, body, hash string) error {
	if n.markup {
		body = html.EscapeString(body)
	}
	hints := map[string]dbus.Variant{"category": dbus.MakeVariant("im.received")}
	// Held across the call so that a click arriving before it returns
	// finds its hash.
	n.mu.Lock()
	defer n.mu.Unlock()
	var id uint32
	err := n.conn.Object(notifyName, notifyPath).Call(notifyIface+".Notify", 0,
		"Lanchat", uint32(0), "", title, body, []string{"default", "Open"}, hints, int32(-1)).Store(&id)
	if err != nil {
		return fmt.Errorf("desktop notification: %w", err)
	}
	n.pending[id] = hash
	return nil
}

// follow handles the service's signals until the connection closes. A
// notification is done with once clicked or closed (services may send
// others, such as ActivationToken, before the click).
func (n *notifier) follow(signals <-chan *dbus.Signal) {
	for s := range signals {
		var id uint32
		var action string
		switch s.Name {
		case notifyIface + ".ActionInvoked":
			if dbus.Store(s.Body, &id, &action) != nil {
				continue
			}
		case notifyIface + ".NotificationClosed":
			if len(s.Body) == 0 {
				continue
			}
			id, _ = s.Body[0].(uint32)
		default:
			continue
		}
		n.mu.Lock()
		hash, ok := n.pending[id]
		delete(n.pending, id)
		n.mu.Unlock()
		if ok && action == "default" {
			n.open(hash)
		}
	}
}
