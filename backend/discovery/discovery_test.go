package discovery

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"lanchat/backend/isolate"
)

// A browser finds an advertised team with its name and URL, once; after
// the advertisement stops, nothing.
func TestBrowseFindsAnAdvertisedTeam(t *testing.T) {
	if !isolate.Network(t) {
		return
	}
	var name atomic.Value // read by the advertisement's goroutine
	name.Store("Lanchat")
	ad, err := Advertise(9991, func() (Team, []net.IP) {
		return Team{Name: name.Load().(string), URL: "https://127.0.0.1:9991", Authority: "3F2A 9C01 77B4 E0D5"}, []net.IP{net.IPv4(127, 0, 0, 1)}
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	found, err := Browse(ctx, time.Second)
	if want := (Team{Name: "Lanchat", URL: "https://127.0.0.1:9991", Authority: "3F2A 9C01 77B4 E0D5"}); err != nil || !slices.Equal(found, []Team{want}) {
		t.Fatalf("Browse: %+v %v, want %+v", found, err, want)
	}
	// Named at first-run setup, after the host started: the new name.
	name.Store("Olive's Bakery")
	found, err = Browse(ctx, time.Second)
	if want := (Team{Name: "Olive's Bakery", URL: "https://127.0.0.1:9991", Authority: "3F2A 9C01 77B4 E0D5"}); err != nil || !slices.Equal(found, []Team{want}) {
		t.Fatalf("Browse after renaming: %+v %v, want %+v", found, err, want)
	}
	if err := ad.Stop(); err != nil {
		t.Fatal(err)
	}
	if found, err := Browse(ctx, time.Second); err != nil || len(found) != 0 {
		t.Errorf("after Stop: %+v %v", found, err)
	}
}

// A host with no address (its network not up yet) answers nothing, and
// answers once it has one.
func TestAdvertiseAnswersOnlyWithAnAddress(t *testing.T) {
	if !isolate.Network(t) {
		return
	}
	var ips atomic.Value // read by the advertisement's goroutine
	ips.Store([]net.IP(nil))
	ad, err := Advertise(9991, func() (Team, []net.IP) {
		return Team{Name: "Lanchat", URL: "http://127.0.0.1:9991"}, ips.Load().([]net.IP)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer ad.Stop()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if found, err := Browse(ctx, time.Second); err != nil || len(found) != 0 {
		t.Errorf("with no address: %+v %v", found, err)
	}
	ips.Store([]net.IP{net.IPv4(127, 0, 0, 1)})
	if found, err := Browse(ctx, time.Second); err != nil || len(found) != 1 {
		t.Errorf("with an address: %+v %v", found, err)
	}
}

// While Watch runs, a team that starts advertising after it began is
// listed without anyone asking again, a rename shows, and a team that
// stops is dropped.
func TestWatchFollowsTeamsThatComeAndGo(t *testing.T) {
	if !isolate.Network(t) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	lists := make(chan []Team, 100)
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		Watch(ctx, 300*time.Millisecond, func(teams []Team, err error) {
			if err != nil {
				t.Errorf("Watch: %v", err)
			}
			lists <- teams
		})
	}()
	defer func() { cancel(); <-stopped }()
	next := func(what string) []Team {
		t.Helper()
		select {
		case l := <-lists:
			return l
		case <-time.After(10 * time.Second):
			t.Fatalf("no list %s", what)
			return nil
		}
	}
	// The first question's wait ends with nobody on the network.
	if l := next("after the first wait"); len(l) != 0 {
		t.Fatalf("first list %+v", l)
	}

	var name atomic.Value // read by the advertisement's goroutine
	name.Store("Lanchat")
	ad, err := Advertise(9991, func() (Team, []net.IP) {
		return Team{Name: name.Load().(string), URL: "http://127.0.0.1:9991"}, []net.IP{net.IPv4(127, 0, 0, 1)}
	})
	if err != nil {
		t.Fatal(err)
	}
	stop := func() {
		if ad != nil {
			ad.Stop()
			ad = nil
		}
	}
	defer stop()
	if l := next("once a team advertises"); !slices.Equal(l, []Team{{Name: "Lanchat", URL: "http://127.0.0.1:9991"}}) {
		t.Fatalf("after the team started: %+v", l)
	}
	name.Store("Olive's Bakery")
	if l := next("after a rename"); !slices.Equal(l, []Team{{Name: "Olive's Bakery", URL: "http://127.0.0.1:9991"}}) {
		t.Fatalf("after the rename: %+v", l)
	}
	stop()
	if l := next("once the team stops"); len(l) != 0 {
		t.Fatalf("after the team stopped: %+v", l)
	}
}

// Watch's bookkeeping, question by question: an error is reported and so
// is its end; a team is listed when it answers and dropped only after two
// questions in a row go unanswered by it.
func TestWatchRounds(t *testing.T) {
	a := Team{Name: "Olive's Bakery", URL: "http://192.0.2.1:9991"}
	rounds := []struct {
		answers []Team
		err     error
		want    []Team // reported after the round; nil: nothing reported
		wantErr bool
	}{
		{err: errors.New("no network"), want: []Team{}, wantErr: true},
		{want: []Team{}}, // the error ended
		{answers: []Team{a}, want: []Team{a}},
		{},               // one question missed: still listed
		{want: []Team{}}, // two: dropped
		{answers: []Team{a}, want: []Team{a}},
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var got [][]Team
	var errs []bool
	round := 0
	watch(ctx, time.Millisecond, func(_ context.Context, _ time.Duration, answer func(Team)) error {
		if round == len(rounds) {
			cancel()
			return nil
		}
		r := rounds[round]
		round++
		for _, t := range r.answers {
			answer(t)
		}
		return r.err
	}, func(teams []Team, err error) {
		for len(got) < round-1 {
			got, errs = append(got, nil), append(errs, false)
		}
		got, errs = append(got, teams), append(errs, err != nil)
	})
	for len(got) < len(rounds) {
		got, errs = append(got, nil), append(errs, false)
	}
	for i, r := range rounds {
		if (r.want == nil) != (got[i] == nil) || !slices.Equal(r.want, got[i]) || r.wantErr != errs[i] {
			t.Errorf("round %d: reported %s (error %v), want %s (error %v)", i+1, describe(got[i]), errs[i], describe(r.want), r.wantErr)
		}
	}
}

func describe(teams []Team) string {
	if teams == nil {
		return "nothing"
	}
	return fmt.Sprintf("%+v", teams)
}

// Anyone on the network can answer for a team. A spoofer reusing the real
// host's instance name is listed beside it rather than in its place (the
// library merged the two answers: one browse in four showed only the
// spoofer); every team announced under the name with another authority,
// or none, is flagged as conflicting; an answer whose URL carries a user
// name (https://10.99.0.1:9991@127.0.0.66, which reads as one host and
// joins the other) is not listed; a URL is listed as scheme://host:port.
func TestSpoofedAnswersAreListedAsConflicting(t *testing.T) {
	if !isolate.Network(t) {
		return
	}
	const real = "3F2A 9C01 77B4 E0D5"
	advertise := func(port int, team Team) {
		t.Helper()
		ad, err := Advertise(port, func() (Team, []net.IP) { return team, []net.IP{net.IPv4(127, 0, 0, 1)} })
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ad.Stop() })
	}
	advertise(9991, Team{Name: "Olive's Bakery", URL: "https://127.0.0.1:9991", Authority: real})
	// Same port, same machine: the same instance name.
	advertise(9991, Team{Name: "Olive's Bakery", URL: "https://127.0.0.2:9991", Authority: "0000 1111 2222 3333"})
	advertise(9992, Team{Name: "Olive's Bakery", URL: "https://127.0.0.1:9991@127.0.0.66:9991", Authority: real})
	advertise(9993, Team{Name: "Olive's Bakery", URL: "http://127.0.0.3:9991/#x?y"})
	advertise(9994, Team{Name: "Pinewood", URL: "https://127.0.0.4:9991", Authority: "4444 5555 6666 7777"})
	want := []Team{
		{Name: "Olive's Bakery", URL: "http://127.0.0.3:9991", Conflict: true},
		{Name: "Olive's Bakery", URL: "https://127.0.0.1:9991", Authority: real, Conflict: true},
		{Name: "Olive's Bakery", URL: "https://127.0.0.2:9991", Authority: "0000 1111 2222 3333", Conflict: true},
		{Name: "Pinewood", URL: "https://127.0.0.4:9991", Authority: "4444 5555 6666 7777"},
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for i := range 4 {
		if found, err := Browse(ctx, 500*time.Millisecond); err != nil || !slices.Equal(found, want) {
			t.Errorf("browse %d: %+v %v,\nwant %+v", i+1, found, err, want)
		}
	}
}

// The answer's fields as listed: the URL as parsed, a user name refused,
// a fingerprint only in its form.
func TestTeamOf(t *testing.T) {
	a := net.IPv4(192, 0, 2, 1)
	for _, c := range []struct {
		txt  []string
		want Team
		ok   bool
	}{
		{[]string{"name=Olive", "url=https://192.0.2.1:9991", "ca=3F2A 9C01 77B4 E0D5"}, Team{Name: "Olive", URL: "https://192.0.2.1:9991", Authority: "3F2A 9C01 77B4 E0D5"}, true},
		{[]string{"name=Olive", "url=https://10.99.0.1:9991@10.99.0.66"}, Team{}, false},
		{[]string{"name=Olive", "url=https://user@192.0.2.9:9991"}, Team{}, false},
		{[]string{"name=Olive", "url=ftp://192.0.2.1"}, Team{}, false},
		{[]string{"name=Olive", "url=https://192.0.2.1:9991/path?q#f", "ca=<b>1234</b>"}, Team{Name: "Olive", URL: "https://192.0.2.1:9991"}, true},
		{[]string{"name=Olive"}, Team{Name: "Olive", URL: "http://192.0.2.1:9991"}, true},
		{nil, Team{Name: "http://192.0.2.1:9991", URL: "http://192.0.2.1:9991"}, true},
	} {
		if got, ok := teamOf(c.txt, a, 9991); got != c.want || ok != c.ok {
			t.Errorf("teamOf(%q) = %+v %v, want %+v %v", c.txt, got, ok, c.want, c.ok)
		}
	}
}

func TestMarkConflicts(t *testing.T) {
	for _, c := range []struct {
		teams []Team
		want  []bool
	}{
		// One host at two addresses (its address changed): one authority.
		{[]Team{{Name: "A", URL: "https://h1", Authority: "F1"}, {Name: "A", URL: "https://h2", Authority: "F1"}}, []bool{false, false}},
		{[]Team{{Name: "A", URL: "https://h1", Authority: "F1"}, {Name: "A", URL: "https://h2", Authority: "F2"}}, []bool{true, true}},
		{[]Team{{Name: "A", URL: "http://h1"}, {Name: "A", URL: "http://h2"}}, []bool{true, true}},
		{[]Team{{Name: "A", URL: "https://h1", Authority: "F1"}, {Name: "B", URL: "https://h1", Authority: "F2"}}, []bool{true, true}},
		{[]Team{{Name: "A", URL: "https://h1", Authority: "F1"}, {Name: "B", URL: "https://h2", Authority: "F2"}, {Name: "B", URL: "http://h3"}},
			[]bool{false, true, true}},
	} {
		markConflicts(c.teams)
		for i, team := range c.teams {
			if team.Conflict != c.want[i] {
				t.Errorf("%+v: team %d conflict %v, want %v", c.teams, i, team.Conflict, c.want[i])
			}
		}
	}
}

func TestLabel(t *testing.T) {
	for in, want := range map[string]string{"Olive's Laptop": "olive-s-laptop", "": "lanchat", "a.b": "a-b"} {
		if got := label(in); got != want {
			t.Errorf("label(%q) = %q, want %q", in, got, want)
		}
	}
}
