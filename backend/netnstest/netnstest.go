// Package netnstest runs a test inside a network namespace of its own, for
// tests that multicast (DNS-SD discovery): nothing they send can leave the
// machine's own namespaces.
package netnstest

import (
	"net"
	"os"
	"os/exec"
	"testing"
)

// Enter runs the test again inside a network namespace of its
// own (unshare: a new user and network namespace) whose only interface is
// loopback, with multicast enabled and routed there, so that no packet
// of the test can leave the machine's own namespaces. It returns true
// inside that run; outside it reports the run's result and returns false,
// or skips, saying why, where namespaces cannot be made.
func Enter(t *testing.T) bool {
	if os.Getenv("LANCHAT_TEST_NETNS") == "1" {
		ifaces, err := net.Interfaces()
		if err != nil || len(ifaces) != 1 || ifaces[0].Flags&net.FlagLoopback == 0 {
			t.Fatalf("not in a private network namespace: %v %v", ifaces, err)
		}
		return true
	}
	for _, tool := range []string{"unshare", "ip"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: cannot make a private network namespace, and discovery is tested only inside one", tool)
		}
	}
	if err := exec.Command("unshare", "--user", "--map-root-user", "--net", "true").Run(); err != nil {
		t.Skipf("cannot make a network namespace here (unshare --user --net: %v): discovery is tested only inside one", err)
	}
	cmd := exec.Command("unshare", "--user", "--map-root-user", "--net", "sh", "-ec",
		`ip link set lo up multicast on; ip route add 224.0.0.0/4 dev lo; exec "$0" "$@"`,
		os.Args[0], "-test.run", "^"+t.Name()+"$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), "LANCHAT_TEST_NETNS=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("in a private network namespace: %v\n%s", err, out)
	}
	t.Logf("in a private network namespace:\n%s", out)
	return false
}
