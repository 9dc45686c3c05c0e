// Package discovery finds Lanchat teams on the local network by DNS-SD
// over multicast DNS: a host advertises the service _lanchat._tcp with
// its organization's name and URL while it serves, and the desktop app of
// someone joining lists what answers.
package discovery

import (
	"cmp"
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

// Advertise answers queries for the team that team describes at the
// moment of the query: its name, the URL to join at and the addresses it
// is served at, on port. Asked at each query, so that a renamed
// organization or a host whose address changed (DHCP) is advertised as it
// is now; while it has no address, nothing is answered. It only answers
// questions: it sends nothing unasked.
func Advertise(port int, team func() (name, url string, ips []net.IP)) (*Advertisement, error) {
	host, _ := os.Hostname()
	host = label(host)
	instance := label("lanchat-" + host + "-" + strconv.Itoa(port))
	// Checked once here, so that the zone's own calls fail only for want
	// of an address.
	if _, err := mdns.NewMDNSService(instance, Service, "", host+".local.", port, []net.IP{net.IPv4zero}, nil); err != nil {
		return nil, err
	}
	zone := zoneFunc(func(q dns.Question) []dns.RR {
		name, url, ips := team()
		if len(ips) == 0 {
			// Without addresses the library would look the host's name
			// up, which can itself go to the network.
			return nil
		}
		svc, err := mdns.NewMDNSService(instance, Service, "", host+".local.", port, ips, []string{"name=" + name, "url=" + url})
		if err != nil {
			return nil
		}
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
	var teams []Team
	err := ask(ctx, wait, func(t Team) {
		if !slices.Contains(teams, t) {
			teams = append(teams, t)
		}
	})
	sortTeams(teams)
	return teams, err
}

// ask sends one question and calls answer, from one goroutine, with each
// team that answers within wait.
func ask(ctx context.Context, wait time.Duration, answer func(Team)) error {
	entries := make(chan *mdns.ServiceEntry, 32)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for e := range entries {
			if t, ok := teamOf(e); ok {
				answer(t)
			}
		}
	}()
	err := mdns.QueryContext(ctx, &mdns.QueryParam{Service: Service, Domain: "local", Timeout: wait, Entries: entries, Logger: quiet, DisableIPv6: true})
	close(entries)
	<-done
	return err
}

func sortTeams(teams []Team) {
	slices.SortFunc(teams, func(a, b Team) int { return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.URL, b.URL)) })
}

// Watch keeps a list of the teams on the network until ctx ends. A host
// only answers questions, so Watch asks again every interval, and a team
// that starts advertising later is heard at the next question. found gets
// the whole list, by name, after the first question's wait and then
// whenever it changes: a team is added as soon as it answers, renamed when
// it answers with a new name, and dropped once two questions in a row went
// unanswered by it (on a busy network one answer may be lost). A question
// that cannot be sent (no network) gives found the error, with the list as
// it was, and Watch asks again after interval.
func Watch(ctx context.Context, interval time.Duration, found func([]Team, error)) {
	watch(ctx, interval, ask, found)
}

// watch is Watch asking through ask: the network's, or a test's.
func watch(ctx context.Context, interval time.Duration, ask func(context.Context, time.Duration, func(Team)) error, found func([]Team, error)) {
	type seen struct {
		team   Team
		missed int
	}
	teams := map[string]*seen{} // by URL: the name may change
	var last []Team
	var lastErr error
	reported := false
	report := func(err error) {
		list := make([]Team, 0, len(teams))
		for _, s := range teams {
			list = append(list, s.team)
		}
		sortTeams(list)
		// An error is reported each time, and so is its end, even with
		// the list unchanged: the page shows the error until then.
		if err != nil || lastErr != nil || !reported || !slices.Equal(list, last) {
			last, lastErr, reported = list, err, true
			found(list, err)
		}
	}
	for ctx.Err() == nil {
		answered := map[string]bool{}
		err := ask(ctx, interval, func(t Team) {
			answered[t.URL] = true
			if s := teams[t.URL]; s != nil {
				s.team, s.missed = t, 0
			} else {
				teams[t.URL] = &seen{team: t}
			}
			// Reported at once only after the first wait: a first list
			// of one team when three answer would flicker.
			if reported {
				report(nil)
			}
		})
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			report(err)
			select {
			case <-ctx.Done():
			case <-time.After(interval):
			}
			continue
		}
		for url, s := range teams {
			if !answered[url] {
				if s.missed++; s.missed >= 2 {
					delete(teams, url)
				}
			}
		}
		report(nil)
	}
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
