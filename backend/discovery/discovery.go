// Package discovery finds Lanchat teams on the local network by DNS-SD
// over multicast DNS: a host advertises the service _lanchat._tcp with
// its organization's name and URL while it serves, and the desktop app of
// someone joining lists what answers.
package discovery

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/mdns"
	"github.com/miekg/dns"
)

// Service is Lanchat's DNS-SD service type.
const Service = "_lanchat._tcp"

// Team is one advertised organization.
type Team struct {
	Name string `json:"name"`
	URL  string `json:"url"`
}

// quiet keeps the library's own log lines out of the host's log.
var quiet = log.New(io.Discard, "", 0)

// Advertisement answers DNS-SD queries for one team until Stop.
type Advertisement struct{ srv *mdns.Server }

// Advertise answers queries for the team named name() (read at each
// query, so a renamed organization is advertised as it is now) at url,
// served on port at ips. It only answers questions: it sends nothing
// unasked.
func Advertise(name func() string, url string, port int, ips []net.IP) (*Advertisement, error) {
	host, _ := os.Hostname()
	host = label(host)
	instance := label("lanchat-" + host + "-" + strconv.Itoa(port))
	// Checked once here, so that the zone's own calls cannot fail.
	if _, err := mdns.NewMDNSService(instance, Service, "", host+".local.", port, ips, nil); err != nil {
		return nil, err
	}
	zone := zoneFunc(func(q dns.Question) []dns.RR {
		svc, _ := mdns.NewMDNSService(instance, Service, "", host+".local.", port, ips, []string{"name=" + name(), "url=" + url})
		return svc.Records(q)
	})
	srv, err := mdns.NewServer(&mdns.Config{Zone: zone, Logger: quiet})
	if err != nil {
		return nil, fmt.Errorf("advertise on the network: %w", err)
	}
	return &Advertisement{srv}, nil
}

type zoneFunc func(q dns.Question) []dns.RR

func (z zoneFunc) Records(q dns.Question) []dns.RR { return z(q) }

// Stop ends the advertisement.
func (a *Advertisement) Stop() error { return a.srv.Shutdown() }

// LANIPs are the addresses others on the network may reach this machine
// at: no loopback, no link-local IPv6 (browsers cannot open it without a
// zone), IPv4 first.
func LANIPs(addrs []net.Addr) []net.IP {
	var ips []net.IP
	for _, a := range addrs {
		ipnet, ok := a.(*net.IPNet)
		if !ok || ipnet.IP.IsLoopback() || ipnet.IP.IsLinkLocalUnicast() || ipnet.IP.IsLinkLocalMulticast() {
			continue
		}
		ips = append(ips, ipnet.IP)
	}
	slices.SortStableFunc(ips, func(a, b net.IP) int {
		return boolInt(a.To4() == nil) - boolInt(b.To4() == nil)
	})
	return ips
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Browse asks the network for teams and lists those that answer within
// wait, each once, by name.
func Browse(ctx context.Context, wait time.Duration) ([]Team, error) {
	entries := make(chan *mdns.ServiceEntry, 32)
	var teams []Team
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range entries {
			if t, ok := teamOf(e); ok && !slices.Contains(teams, t) {
				teams = append(teams, t)
			}
		}
	}()
	err := mdns.QueryContext(ctx, &mdns.QueryParam{Service: Service, Domain: "local", Timeout: wait, Entries: entries, Logger: quiet, DisableIPv6: true})
	close(entries)
	<-done
	slices.SortFunc(teams, func(a, b Team) int { return strings.Compare(a.Name, b.Name) })
	return teams, err
}

// teamOf reads an answer: the URL the host gives, else its address and port.
func teamOf(e *mdns.ServiceEntry) (Team, bool) {
	t := Team{}
	for _, f := range e.InfoFields {
		if k, v, ok := strings.Cut(f, "="); ok {
			switch k {
			case "name":
				t.Name = v
			case "url":
				t.URL = v
			}
		}
	}
	if t.URL == "" && e.AddrV4 != nil {
		t.URL = "http://" + net.JoinHostPort(e.AddrV4.String(), strconv.Itoa(e.Port))
	}
	if t.Name == "" {
		t.Name = t.URL
	}
	return t, t.URL != ""
}

// label makes s a DNS label: letters, digits and hyphens, at most 63.
func label(s string) string {
	b := []byte(strings.ToLower(s))
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			b[i] = '-'
		}
	}
	if len(b) > 63 {
		b = b[:63]
	}
	if len(b) == 0 {
		return "lanchat"
	}
	return string(b)
}
