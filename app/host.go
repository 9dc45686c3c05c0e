// Package app is the desktop face of Lanchat: a Wails window over the same
// server lanchatd runs, plus the host-only methods the window's page calls
// (window.go.app.App.*). Chat itself goes over HTTP, as for LAN browsers.
package app

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/godbus/dbus/v5"

	"lanchat/backend/domain"
	"lanchat/backend/logring"
	"lanchat/backend/safefile"
	"lanchat/backend/server"
	"lanchat/backend/store"
)

// App is the desktop app: what its window shows, the host it runs or the
// team it joined, and the window's bound methods.
type App struct {
	opts    Options
	dataDir string
	stderr  io.Writer
	// page is what the window shows (App.ServeHTTP).
	page atomic.Pointer[http.Handler]

	// mu guards what hosting or joining sets, once: a bound method may
	// start either while others read.
	mu     sync.Mutex
	srv    *server.Server
	served chan error   // Serve's end
	bound  *net.TCPAddr // where the server listens
	// secure: HTTPS is served beside HTTP; authority: at
	// server.AuthorityPath, the certificate to install for it.
	secure, authority bool
	joined            string // the joined team's URL
	member            *membership
	// unreadable is why the membership file could not be read, while the
	// window says so instead of showing a team.
	unreadable error
	// watchMu guards the welcome page's watch of the network (WatchTeams):
	// stopWatch ends it, seen is its last list.
	watchMu   sync.Mutex
	stopWatch context.CancelFunc
	seen      *TeamsSeen

	ctx context.Context
	// quitting ends a running import when the app quits; imports are
	// waited for, so that an interrupted one removes its scratch folders.
	quitting context.Context
	quit     context.CancelFunc
	imports  sync.WaitGroup
	// stopOnce runs shutdown's work once; stopErr is its error.
	stopOnce sync.Once
	stopErr  error
	// chosen is the export file ChooseExport kept for HostFromExport.
	chosen chosenExport
	// saveDialog, openDialog, emit and focus are Wails' runtime calls,
	// swapped in tests.
	saveDialog func(defaultName string) (string, error)
	openDialog func(title string) (string, error)
	emit       func(name string, data any)
	focus      func()
	setTitle   func(title string)
	// notifications is made on the first Notify (connectBus reaches the
	// session bus, swapped in tests).
	notifyMu      sync.Mutex
	notifications *notifier
	connectBus    func() (*dbus.Conn, error)
}

// HostInfo is what the host panel shows.
type HostInfo struct {
	Running   bool     `json:"running"`
	Addresses []string `json:"addresses"`
	// Unreachable are this machine's other addresses, which do not reach
	// the server because it listens only on Listen (e.g. 127.0.0.1:9991).
	Unreachable []string `json:"unreachable"`
	Listen      string   `json:"listen"`
	// Joined is the team this app joined instead of hosting one.
	Joined string `json:"joined"`
	// Authority is the fingerprint of the host's certificate authority
	// (lantls.Fingerprint): on a host, its own, which members compare with
	// what their app shows when they join; on a member, the one it pinned.
	// "" without one.
	Authority string `json:"authority"`
	JoinURL   string `json:"joinUrl"`
	DataDir   string `json:"dataDir"`
	Version   string `json:"version"`
	// AuthorityURL downloads the certificate people install once to trust
	// this host's HTTPS ("" without automatic TLS); plain HTTP, since
	// nothing is trusted yet.
	AuthorityURL string `json:"authorityUrl"`
}

// Account is a created account and the password to pass on.
type Account struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// errNotHosting answers host-only methods in an app that hosts nothing.
var errNotHosting = errors.New("this app hosts no team")

// hosting is the server this app runs, or nil.
func (a *App) hosting() *server.Server {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.srv
}

// SetupToken lets the window run first-run setup; "" once done, or when
// this app hosts nothing.
func (a *App) SetupToken() string {
	if srv := a.hosting(); srv != nil {
		return srv.SetupToken()
	}
	return ""
}

// HostInfo lists where others can join.
func (a *App) HostInfo() HostInfo {
	srv := a.hosting()
	if srv == nil {
		a.mu.Lock()
		defer a.mu.Unlock()
		// A member's app shows the team's address, to pass on, and
		// nothing of a host's: no data folder, no accounts, no backup.
		info := HostInfo{Joined: a.joined, JoinURL: a.joined, Version: domain.Version}
		if a.member != nil {
			info.Authority = a.member.fingerprint()
		}
		return info
	}
	scheme := "http://"
	if a.secure {
		scheme = "https://"
	}
	info := HostInfo{Running: true, Listen: a.bound.String(), DataDir: a.dataDir, Version: domain.Version, Authority: srv.AuthorityFingerprint()}
	info.Addresses, info.Unreachable = joinAddresses(interfaceAddrs(), a.bound, scheme)
	local := a.bound.IP.String()
	if a.bound.IP.IsUnspecified() {
		local = "127.0.0.1"
	}
	// Without a LAN address the QR code and the authority's link name
	// what reaches the server: this machine.
	first := net.JoinHostPort(local, strconv.Itoa(a.bound.Port))
	if len(info.Addresses) > 0 {
		info.JoinURL = info.Addresses[0]
		first = info.JoinURL[len(scheme):]
	} else {
		info.JoinURL = scheme + first
	}
	if a.authority {
		info.AuthorityURL = "http://" + first + server.AuthorityPath
	}
	return info
}

var roles = map[string]int{"member": store.RoleMember, "admin": store.RoleAdmin, "guest": store.RoleGuest}

// CreateAccount adds an account with a generated password: the host has
// the organization's authority, so no administrator signs in for it.
func (a *App) CreateAccount(fullName, email, role string) (Account, error) {
	r, ok := roles[role]
	if !ok {
		return Account{}, fmt.Errorf("unknown role %q", role)
	}
	srv := a.hosting()
	if srv == nil {
		return Account{}, errNotHosting
	}
	password := newPassword()
	u, err := srv.Service().CreateUserAsHost(domain.NewUser{Email: email, FullName: fullName, Role: r, Password: password})
	if err != nil {
		return Account{}, plainError(err)
	}
	return Account{Email: u.Email, Password: password}, nil
}

// IssuePassword gives an existing account a new generated password, to
// pass on: imported people have none. Their browser sessions end.
func (a *App) IssuePassword(email string) (Account, error) {
	srv := a.hosting()
	if srv == nil {
		return Account{}, errNotHosting
	}
	password := newPassword()
	u, err := srv.Service().SetPasswordAsHost(strings.TrimSpace(email), password)
	if err != nil {
		return Account{}, plainError(err)
	}
	return Account{Email: u.Email, Password: password}, nil
}

func newPassword() string { return rand.Text()[:16] }

// plainError is a refusal in the domain's words, for the window to show.
func plainError(err error) error {
	var de *domain.Error
	if errors.As(err, &de) {
		return errors.New(de.Msg)
	}
	return err
}

// Backup asks where to save and writes the same archive as `lanchatd
// backup`, reporting backup:progress events. It writes a temporary file
// and renames it (safefile), so a failed backup leaves nothing half-written.
func (a *App) Backup() (string, error) {
	srv := a.hosting()
	if srv == nil {
		return "", errNotHosting
	}
	path, err := a.saveDialog("lanchat-backup-" + time.Now().Format("20060102-150405") + ".tar.gz")
	if err != nil || path == "" {
		return "", err
	}
	var last time.Time
	err = safefile.Write(path, func(w io.Writer) error {
		return srv.Backup(w, func(done, total int64) {
			if time.Since(last) > 100*time.Millisecond || done == total {
				last = time.Now()
				a.emit("backup:progress", map[string]int64{"done": done, "total": total})
			}
		})
	})
	if err != nil {
		return "", fmt.Errorf("backup: %w", err)
	}
	return path, nil
}

// RecentErrors are the host's last warnings and errors, newest first: a
// webhook refused and why, a request that failed, trouble with the disk.
func (a *App) RecentErrors() []logring.Entry {
	if srv := a.hosting(); srv != nil {
		return srv.RecentErrors()
	}
	return nil
}

// Notify raises a desktop notification through the operating system's
// notification service; a click on it brings the window forward and opens
// hash (a conversation of the web UI), through the notification:open event.
func (a *App) Notify(title, body, hash string) error {
	a.notifyMu.Lock()
	if a.notifications == nil {
		conn, err := a.connectBus()
		if err == nil {
			a.notifications, err = newNotifier(conn, func(hash string) {
				a.focus()
				a.emit("notification:open", hash)
			})
			if err != nil {
				conn.Close()
			}
		}
		if err != nil {
			a.notifyMu.Unlock()
			return err
		}
	}
	n := a.notifications
	a.notifyMu.Unlock()
	return n.notify(title, body, hash)
}

// SetTitle names the window (its taskbar entry) as the page names itself,
// with the unread count: WebKitGTK does not pass document.title on.
func (a *App) SetTitle(title string) { a.setTitle(title) }

// OpenDataFolder shows the data folder in the file manager.
func (a *App) OpenDataFolder() error {
	if a.hosting() == nil {
		return errNotHosting
	}
	return exec.Command("xdg-open", a.dataDir).Start()
}
