// Package discovery finds Lanchat teams on the local network by DNS-SD
// over multicast DNS: a host advertises the service _lanchat._tcp with
// its organization's name and URL while it serves, and the desktop app of
// someone joining lists what answers.
package discovery

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/url"
	"os"
	"regexp"
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
	// URL is scheme://host:port as parsed from the answer: never a user
	// name (https://10.0.0.1:9991@10.0.0.66 joins 10.0.0.66), path or
	// query, so that what the list shows is what joining reaches.
	URL string `json:"url"`
	// Authority is the fingerprint of the host's certificate authority
	// that the answer gives (lantls.Fingerprint; "" for plain HTTP), for
	// people to compare with the host's screen.
	Authority string `json:"authority"`
	// Conflict: another answer gives the same name or URL with another
	// authority (or none): at most one of them is the team that has it,
	// and anyone on the network can answer.
	Conflict bool `json:"conflict"`
}

// quiet keeps the library's own log lines out of the host's log.
var quiet = log.New(io.Discard, "", 0)

// Advertisement answers DNS-SD queries for one team until Stop.
type Advertisement struct{ srv *mdns.Server }

// Advertise answers queries for the team that team describes at the
// moment of the query: its name, the URL to join at, its authority's
// fingerprint, and the addresses it is served at, on port. Asked at each
// query, so that a renamed organization or a host whose address changed
// (DHCP) is advertised as it is now; while it has no address, nothing is
// answered. It only answers questions: it sends nothing unasked.
func Advertise(port int, team func() (Team, []net.IP)) (*Advertisement, error) {
	host, _ := os.Hostname()
	host = label(host)
	instance := label("lanchat-" + host + "-" + strconv.Itoa(port))
	// Checked once here, so that the zone's own calls fail only for want
	// of an address.
	if _, err := mdns.NewMDNSService(instance, Service, "", host+".local.", port, []net.IP{net.IPv4zero}, nil); err != nil {
		return nil, err
	}
	zone := zoneFunc(func(q dns.Question) []dns.RR {
		t, ips := team()
		if len(ips) == 0 {
			// Without addresses the library would look the host's name
			// up, which can itself go to the network.
			return nil
		}
		txt := []string{"name=" + t.Name, "url=" + t.URL}
		if t.Authority != "" {
			txt = append(txt, "ca="+t.Authority)
		}
		svc, err := mdns.NewMDNSService(instance, Service, "", host+".local.", port, ips, txt)
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

// mdnsGroup is where multicast DNS questions go (RFC 6762).
var mdnsGroup = &net.UDPAddr{IP: net.IPv4(224, 0, 0, 251), Port: 5353}

// ask sends one question and calls answer with each team that answers
// within wait. Each answer (one packet) is one team, as its sender
// describes it: a second answer under the same instance name is a second
// team, not a correction of the first (a library that merged them showed
// whichever came first, or a mix). The question goes from a port other
// than mDNS's own, so responders answer to it directly (RFC 6762, 6.7).
func ask(ctx context.Context, wait time.Duration, answer func(Team)) error {
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4zero})
	if err != nil {
		return fmt.Errorf("look for teams: %w", err)
	}
	defer conn.Close()
	q := new(dns.Msg)
	q.SetQuestion(Service+".local.", dns.TypePTR)
	q.RecursionDesired = false
	question, err := q.Pack()
	if err != nil {
		return err
	}
	if _, err := conn.WriteToUDP(question, mdnsGroup); err != nil {
		return fmt.Errorf("look for teams: %w", err)
	}
	conn.SetReadDeadline(time.Now().Add(wait))
	defer context.AfterFunc(ctx, func() { conn.SetReadDeadline(time.Now()) })()
	packet := make([]byte, 65536)
	for {
		n, _, err := conn.ReadFromUDP(packet)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("look for teams: %w", err)
		}
		var m dns.Msg
		if m.Unpack(packet[:n]) != nil || !m.Response {
			continue
		}
		for _, t := range teamsIn(&m) {
			answer(t)
		}
	}
}

// sortTeams orders teams by name and URL and marks the conflicting ones.
func sortTeams(teams []Team) {
	slices.SortFunc(teams, func(a, b Team) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.URL, b.URL), strings.Compare(a.Authority, b.Authority))
	})
	markConflicts(teams)
}

// markConflicts flags the teams whose name or URL another team gives with
// another authority, or where neither has one to tell them apart. Two
// answers with the same authority are one host (at two addresses, or
// before and after its address changed).
func markConflicts(teams []Team) {
	for i := range teams {
		teams[i].Conflict = false
	}
	for i := range teams {
		for j := range i {
			a, b := &teams[i], &teams[j]
			if (a.Name == b.Name || a.URL == b.URL) && (a.Authority != b.Authority || a.Authority == "") {
				a.Conflict, b.Conflict = true, true
			}
		}
	}
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
	teams := map[string]*seen{} // by URL and authority: the name may change
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
			key := t.URL + " " + t.Authority
			answered[key] = true
			if s := teams[key]; s != nil {
				s.team, s.missed = t, 0
			} else {
				teams[key] = &seen{team: t}
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
		for key, s := range teams {
			if !answered[key] {
				if s.missed++; s.missed >= 2 {
					delete(teams, key)
				}
			}
		}
		report(nil)
	}
}

// teamsIn reads one answer: each instance of the service it describes,
// with the URL its TXT record gives, else its address and port.
func teamsIn(m *dns.Msg) []Team {
	type instance struct {
		txt  []string
		srv  *dns.SRV
		seen bool // named by a PTR of the service
	}
	instances := map[string]*instance{}
	addrs := map[string]net.IP{}
	get := func(name string) *instance {
		if instances[name] == nil {
			instances[name] = &instance{}
		}
		return instances[name]
	}
	service := Service + ".local."
	for _, rr := range append(m.Answer, m.Extra...) {
		switch rr := rr.(type) {
		case *dns.PTR:
			if strings.EqualFold(rr.Hdr.Name, service) {
				get(rr.Ptr).seen = true
			}
		case *dns.SRV:
			get(rr.Hdr.Name).srv = rr
		case *dns.TXT:
			get(rr.Hdr.Name).txt = rr.Txt
		case *dns.A:
			addrs[rr.Hdr.Name] = rr.A
		}
	}
	var teams []Team
	for _, in := range instances {
		if !in.seen {
			continue
		}
		var a net.IP
		port := 0
		if in.srv != nil {
			a, port = addrs[in.srv.Target], int(in.srv.Port)
		}
		if t, ok := teamOf(in.txt, a, port); ok {
			teams = append(teams, t)
		}
	}
	return teams
}

// teamOf reads an instance's TXT fields, with its address and port.
func teamOf(txt []string, addr net.IP, port int) (Team, bool) {
	t := Team{}
	for _, f := range txt {
		if k, v, ok := strings.Cut(f, "="); ok {
			switch k {
			case "name":
				t.Name = v
			case "url":
				t.URL = v
			case "ca":
				if fingerprint.MatchString(v) {
					t.Authority = v
				}
			}
		}
	}
	if t.URL == "" && addr != nil {
		t.URL = "http://" + net.JoinHostPort(addr.String(), strconv.Itoa(port))
	}
	var err error
	if t.URL, err = TeamURL(t.URL); err != nil {
		return Team{}, false
	}
	if t.Name == "" {
		t.Name = t.URL
	}
	return t, true
}

// fingerprint is lantls.Fingerprint's form.
var fingerprint = regexp.MustCompile(`^[0-9A-F]{4}( [0-9A-F]{4}){3}$`)

// TeamURL is address as a team's URL, scheme://host:port as parsed: http
// or https, with a host, and without a user name, which would show one
// address and reach another (https://10.0.0.1:9991@10.0.0.66 reaches
// 10.0.0.66). A typed address without a scheme is http.
func TeamURL(address string) (string, error) {
	address = strings.TrimSpace(address)
	if !strings.Contains(address, "://") {
		address = "http://" + address
	}
	u, err := url.Parse(address)
	switch {
	case err == nil && u.User != nil:
		return "", fmt.Errorf("%q names a user before @: it reads as one address and reaches %s, so it is refused", address, u.Host)
	case err != nil || u.Hostname() == "" || (u.Scheme != "http" && u.Scheme != "https"):
		return "", fmt.Errorf("%q is not a team's address (like https://192.168.1.20:9991)", address)
	}
	return u.Scheme + "://" + u.Host, nil
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
