package discovery

import (
	"context"
	"net"
	"slices"
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
	name := "Lanchat"
	ad, err := Advertise(func() string { return name }, "https://127.0.0.1:9991", 9991, []net.IP{net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	found, err := Browse(ctx, time.Second)
	if want := (Team{"Lanchat", "https://127.0.0.1:9991"}); err != nil || !slices.Equal(found, []Team{want}) {
		t.Fatalf("Browse: %+v %v, want %+v", found, err, want)
	}
	// Named at first-run setup, after the host started: the new name.
	name = "Olive's Bakery"
	found, err = Browse(ctx, time.Second)
	if want := (Team{"Olive's Bakery", "https://127.0.0.1:9991"}); err != nil || !slices.Equal(found, []Team{want}) {
		t.Fatalf("Browse after renaming: %+v %v, want %+v", found, err, want)
	}
	if err := ad.Stop(); err != nil {
		t.Fatal(err)
	}
	if found, err := Browse(ctx, time.Second); err != nil || len(found) != 0 {
		t.Errorf("after Stop: %+v %v", found, err)
	}
}

func TestLabel(t *testing.T) {
	for in, want := range map[string]string{"Olive's Laptop": "olive-s-laptop", "": "lanchat", "a.b": "a-b"} {
		if got := label(in); got != want {
			t.Errorf("label(%q) = %q, want %q", in, got, want)
		}
	}
}
