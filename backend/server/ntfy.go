package server

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"

	"lanchat/backend/ntfy"
)

// NtfyAddrFlag is the --ntfy-addr flag's help, shared by lanchatd and the
// desktop app.
const NtfyAddrFlag = "where phones subscribe to their notifications with the ntfy app, HOST:PORT; auto: the --addr host, the next port; off: nowhere"

// ResolveNtfyAddr reads --ntfy-addr for a server on addr: off is none;
// auto the same host, the next port (a picked port beside a picked one).
func ResolveNtfyAddr(flag, addr string) string {
	switch flag {
	case "off":
		return ""
	case "auto":
	default:
		return flag
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return ""
	}
	p, err := strconv.Atoi(port)
	if err != nil || p == 0 {
		return net.JoinHostPort(host, "0")
	}
	return net.JoinHostPort(host, strconv.Itoa(p+1))
}

// phones is the ntfy listener: people's phones subscribe to their topics
// there (backend/ntfy), on a port of its own, plain HTTP as ntfy's app
// expects on a LAN.
type phones struct {
	hub  *ntfy.Hub
	http *http.Server
	// port is where phones subscribe, webPort the web app's (for click
	// URLs); 0 until listening.
	port, webPort atomic.Int32
}

func newPhones(s *Server) *phones {
	p := &phones{}
	p.hub = ntfy.NewHub(ntfy.Options{
		Allowed: func(topic string) bool { return s.Service().NtfyTopicActive(topic) },
		WebURL:  func(r *http.Request) string { return p.webURL(s.cfg.BaseURL, r) },
	})
	p.http = &http.Server{Handler: p.hub, ReadHeaderTimeout: 10 * time.Second, ErrorLog: s.httpErrors.logger()}
	return p
}

// webURL is the web app's address for a phone that reached the listener
// at r.Host: the configured base URL, else the same host on the web port.
func (p *phones) webURL(base string, r *http.Request) string {
	if base != "" {
		return base
	}
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = r.Host
	}
	return "http://" + net.JoinHostPort(host, strconv.Itoa(int(p.webPort.Load())))
}

// listen binds the listener and serves it until the server shuts down; a
// taken port leaves phones without notifications, not the team without
// its server.
func (s *Server) listenPhones(web net.Addr) {
	if s.cfg.NtfyAddr == "" {
		return
	}
	if a, ok := web.(*net.TCPAddr); ok {
		s.phones.webPort.Store(int32(a.Port))
	}
	ln, err := net.Listen("tcp", s.cfg.NtfyAddr)
	if err != nil {
		s.log.Warn("no phone notifications: cannot listen for ntfy subscriptions", "addr", s.cfg.NtfyAddr, "err", err)
		return
	}
	s.phones.port.Store(int32(ln.Addr().(*net.TCPAddr).Port))
	go func() {
		if err := s.phones.http.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			s.log.Warn("ntfy listener stopped", "err", err)
		}
	}()
}

// NtfyPort is where phones subscribe (0: nowhere).
func (s *Server) NtfyPort() int { return int(s.phones.port.Load()) }

// NtfyURL is the ntfy server address to give a phone that reaches this host
// at host.
func (s *Server) NtfyURL(host string) string {
	if s.NtfyPort() == 0 {
		return ""
	}
	return fmt.Sprintf("http://%s", net.JoinHostPort(host, strconv.Itoa(s.NtfyPort())))
}
