// Package isolate runs a test again inside surroundings of its own, so
// that what it sends cannot reach anything real: a network namespace for
// tests that multicast (DNS-SD), a private session bus for tests that talk
// D-Bus (notifications).
package isolate

import (
	"net"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// Network returns true inside a network namespace of the test's own (a
// new user and network namespace made by unshare) whose only interface is
// loopback, with multicast enabled and routed there: no packet of the
// test can leave the machine's own namespaces. Outside it, it runs the
// test again in one, fails with that run, and returns false; it skips,
// saying why, where namespaces cannot be made.
func Network(t *testing.T) bool { return network(t, false) }

// LANAddr is the address LAN gives this machine on its stand-in network:
// a private address (RFC 1918), as on a real LAN, which the host's
// certificate authority may vouch for (lantls); the network is the
// namespace's own, so no real one is reached.
var LANAddr = net.IPv4(10, 99, 0, 1)

// LAN is Network with a stand-in local network besides loopback: a pair
// of virtual Ethernet interfaces of the namespace's own, lan0 holding
// LANAddr/24, so that a host listening on all addresses has a LAN address
// to offer, as on a real network. Multicast still goes over loopback, and
// a packet sent on lan0 reaches only lan1, inside the namespace.
func LAN(t *testing.T) bool { return network(t, true) }

func network(t *testing.T, lan bool) bool {
	if os.Getenv("LANCHAT_TEST_NETNS") == "1" {
		ifaces, err := net.Interfaces()
		want := []string{"lo"}
		if lan {
			want = []string{"lan0", "lan1", "lo"} // sorted
		}
		var names []string
		for _, i := range ifaces {
			names = append(names, i.Name)
		}
		slices.Sort(names)
		if err != nil || !slices.Equal(names, want) || ifaces[0].Flags&net.FlagLoopback == 0 {
			t.Fatalf("not in a private network namespace: %v %v", ifaces, err)
		}
		return true
	}
	for _, tool := range []string{"unshare", "ip"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: cannot make a private network namespace, and this test runs only inside one", tool)
		}
	}
	if err := exec.Command("unshare", "--user", "--map-root-user", "--net", "true").Run(); err != nil {
		t.Skipf("cannot make a network namespace here (unshare --user --net: %v): this test runs only inside one", err)
	}
	script := `ip link set lo up multicast on; ip route add 224.0.0.0/4 dev lo; `
	if lan {
		script += `ip link add lan0 type veth peer name lan1; ip addr add ` + LANAddr.String() + `/24 dev lan0; ip link set lan0 up; ip link set lan1 up; `
	}
	rerun(t, "LANCHAT_TEST_NETNS", "unshare", "--user", "--map-root-user", "--net", "sh", "-ec", script+`exec "$0" "$@"`)
	return false
}

// SessionBus returns true on a D-Bus session bus of the test's own, never
// the desktop of whoever runs it. Outside one, it runs the test again
// under dbus-run-session, fails with that run, and returns false.
func SessionBus(t *testing.T) bool {
	if os.Getenv("LANCHAT_TEST_PRIVATE_BUS") == "1" {
		return true
	}
	if _, err := exec.LookPath("dbus-run-session"); err != nil {
		t.Skip("dbus-run-session is missing (Debian's dbus package; make deps-system installs it)")
	}
	rerun(t, "LANCHAT_TEST_PRIVATE_BUS", "dbus-run-session", "--")
	return false
}

// rerun runs this test alone under wrapper, with marker=1 in its
// environment, and reports that run.
func rerun(t *testing.T, marker string, wrapper ...string) {
	args := append(wrapper[1:], os.Args[0], "-test.run", "^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd := exec.Command(wrapper[0], args...)
	cmd.Env = append(os.Environ(), marker+"=1")
	out, err := cmd.CombinedOutput()
	// A run that ran nothing (or skipped) proves nothing.
	if err != nil || !strings.Contains(string(out), "--- PASS: "+t.Name()+" ") {
		t.Fatalf("under %s: %v\n%s", wrapper[0], err, out)
	}
	t.Logf("under %s:\n%s", wrapper[0], out)
}
