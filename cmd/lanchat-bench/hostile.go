package main

import (
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"lanchat/backend/bench"
	"lanchat/backend/events"
)

// Issue 38's goals under the hostile mix: the server's peak memory, and
// other members' sends' p99 against their quiet p99.
const (
	hostileRSSGoal   = 150e6
	hostileRatioGoal = 2.0
)

// hostile measures other members' sends while a member attacks the server
// as in issue 38 (stalled downloads, parallel uploads, heavy
// matches_narrow, idle WebSockets, all at once), the server's peak memory
// meanwhile, and the floor: bare durable sends beside the physical load
// the mix may put on the machine within the server's bounds.
func (r *run) hostile() error {
	const messages = 6000 // more than matches_narrow may name
	fixture := filepath.Join(r.workDir, fmt.Sprintf("fixture-%d", messages))
	if err := bench.Fixture(fixture, messages); err != nil {
		return fmt.Errorf("fixture: %w", err)
	}
	mix, err := hostileMix(r.attacks)
	if err != nil {
		return err
	}
	// Two people upload (alice with her bots, and the guest), each at the
	// upload pace; heavy reads take all cores but one.
	load := bench.HostileLoad{Writers: 2, WriteRate: 10 << 20, BusyCores: max(1, runtime.NumCPU()-1)}
	const senders = 4
	var b strings.Builder
	fmt.Fprintf(&b, "## Under a hostile member\n\n"+
		"Issue 38's hostile mix, by alice, two bots of hers and the guest at once, while bob and the administrator send (%d senders): "+
		"%d stalled downloads of a %.1f MB file (a 4 KB receive buffer, never read), %d parallel upload loops of such files, "+
		"%d loops of `matches_narrow` with the most IDs allowed under the largest search narrow, %d WebSockets. "+
		"Goals: the server's peak RSS ≤ %.0f MB, other members' sends' p99 ≤ %.0f× their quiet p99. "+
		"Each round measures the sends quiet and then under the mix on a fresh server, and beside it the floor: a bare durable send "+
		"(an HTTP request answered after one bbolt commit shared by concurrent senders; no parsing, rendering or fan-out), quiet, beside "+
		"the mix's file writes within the server's bounds (%d × %.0f MiB/s) and beside %d core(s) kept busy (the heavy reads' bound).\n\n",
		senders, mix.StalledDownloads, float64(bench.HostileUploadSize)/1e6, mix.Uploads, mix.Matches, mix.Sockets,
		hostileRSSGoal/1e6, hostileRatioGoal, load.Writers, load.WriteRate/(1<<20), load.BusyCores)
	if r.attacks != "" {
		fmt.Fprintf(&b, "**Only part of the mix: %s** (the rest left out, to tell what each part costs alone).\n\n", r.attacks)
	}
	b.WriteString("| round | load average | sends quiet p50 / p99 | under the mix p50 / p99 | p99 × quiet | floor quiet p50 / p99 | floor beside the writes p99 | floor beside busy cores p50 / p99 | peak RSS |\n|---|---|---|---|---|---|---|---|---|\n")
	var ratios, busyRatios []float64
	var peak bench.Memory
	var last bench.HostileFigures
	var achieved strings.Builder
	for round := range r.hostileRounds {
		floor, err := r.hostileFloor(load, senders)
		if err != nil {
			return fmt.Errorf("floor: %w", err)
		}
		// With a host's own bound on queues (and so on sockets) per person:
		// StartServer lifts it for the other figures' thousands of clients
		// from four accounts.
		srv, err := r.startCopy(fixture, "hostile", "--max-queues-per-user", strconv.Itoa(events.DefaultSettings.MaxQueuesPerUser))
		if err != nil {
			return err
		}
		f, err := bench.Hostile(srv, mix, senders, r.d)
		srv.Stop()
		if err != nil {
			return err
		}
		ratio := float64(f.Attacked.P99) / float64(f.Quiet.P99)
		writesRatio := float64(floor.Writes.P99) / float64(floor.Quiet.P99)
		busyRatio := float64(floor.Busy.P99) / float64(floor.Quiet.P99)
		ratios, busyRatios = append(ratios, ratio), append(busyRatios, busyRatio)
		if f.Peak.RSS > peak.RSS {
			peak = f.Peak
		}
		last = f
		fmt.Fprintf(&b, "| %d | %s | %s / %s | %s / %s | %.2f× | %s / %s | %s (%.2f×) | %s / %s (%.2f×) | %.0f MB |\n", round+1, loadAverage(),
			msText(f.Quiet.P50), msText(f.Quiet.P99), msText(f.Attacked.P50), msText(f.Attacked.P99), ratio,
			msText(floor.Quiet.P50), msText(floor.Quiet.P99), msText(floor.Writes.P99), writesRatio, msText(floor.Busy.P50), msText(floor.Busy.P99), busyRatio, float64(f.Peak.RSS)/1e6)
		fmt.Fprintf(&achieved, "| %d | %.0f MB/s | %.1f MB/s | %.1f/s | %d | %d | %.2f | %.0f µs / %.0f µs | %.2f | %.0f MB / %.0f MB |\n", round+1,
			f.UploadedPerSecond/1e6, f.StoredPerSecond/1e6, f.MatchesPerSecond, f.DownloadsSent, f.SocketsOpen, f.ServerCores,
			micros(f.Quiet.ServerCPU), micros(f.Attacked.ServerCPU), f.BenchCores, float64(f.DirtyPeak)/1e6, float64(f.WritebackPeak)/1e6)
		log.Printf("hostile round %d: sends p99 %v quiet, %v attacked (%.2f×); floor p99 %v quiet, %.2f× beside writes, %.2f× beside busy cores; peak %v; "+
			"uploads sent %.0f MB/s, stored %.1f MB/s, matches %.1f/s; CPU: server %.2f cores (per send %.0f µs quiet, %.0f µs attacked), bench %.2f; dirty peak %.0f MB, writeback %.0f MB",
			round+1, f.Quiet.P99, f.Attacked.P99, ratio, floor.Quiet.P99, writesRatio, busyRatio, f.Peak,
			f.UploadedPerSecond/1e6, f.StoredPerSecond/1e6, f.MatchesPerSecond, f.ServerCores, micros(f.Quiet.ServerCPU), micros(f.Attacked.ServerCPU), f.BenchCores, float64(f.DirtyPeak)/1e6, float64(f.WritebackPeak)/1e6)
	}
	b.WriteString("\nWhile the attacked sends ran: the attack's volume (upload bytes the attackers sent, refused requests' included; uploads the server stored; `matches_narrow` answered; downloads being sent; sockets held), " +
		"the CPU the server took, in cores of the machine's " + strconv.Itoa(runtime.NumCPU()) + " and per send (quiet / attacked: the attack's CPU shared among the sends), the CPU this program (the attackers' clients and the senders) took, in cores" +
		", and the machine's most dirty and writeback memory (/proc/meminfo):\n\n" +
		"| round | upload bytes sent | uploads stored | matches_narrow | downloads open | sockets | server CPU | server CPU per send | bench CPU | dirty / writeback peak |\n|---|---|---|---|---|---|---|---|---|---|\n")
	b.WriteString(achieved.String())
	ratio, busy := median(ratios), median(busyRatios)
	fmt.Fprintf(&b, "\n- Peak RSS %s: goal ≤ %.0f MB **%s**.\n", peak, hostileRSSGoal/1e6, metOrNot(float64(peak.RSS) <= hostileRSSGoal))
	fmt.Fprintf(&b, "- Other members' sends: p99 %.2f× quiet, the median of %d rounds: goal ≤ %.0f× **%s**. The floor beside busy cores: %.2f× (median): a bare send, with nothing of Lanchat's, got no nearer its quiet figure on this machine at the time.\n",
		ratio, r.hostileRounds, hostileRatioGoal, metOrNot(ratio <= hostileRatioGoal), busy)
	fmt.Fprintf(&b, "- How the server answered the attack (last round): %d downloads sent until dropped, %d refused after waiting for a slot; %d uploads done, %d refused; %d `matches_narrow` (%d IDs, a %d-byte narrow) done, %d refused; %d WebSockets open, %d refused.\n",
		last.DownloadsSent, last.DownloadsRefused, last.UploadsDone, last.UploadsRefused, last.MatchesDone, last.MatchIDs, last.NarrowSize, last.MatchesRefused, last.SocketsOpen, last.SocketsRefused)
	r.report.Section(b.String())
	return nil
}

// hostileMix is issue 38's whole mix, or only the attacks named in a
// comma-separated list (downloads, uploads, matches, sockets).
func hostileMix(only string) (bench.HostileMix, error) {
	whole := bench.HostileMix{StalledDownloads: 40, Uploads: 10, Matches: 8, Sockets: 2000}
	if only == "" {
		return whole, nil
	}
	var mix bench.HostileMix
	for _, name := range strings.Split(only, ",") {
		switch name {
		case "downloads":
			mix.StalledDownloads = whole.StalledDownloads
		case "uploads":
			mix.Uploads = whole.Uploads
		case "matches":
			mix.Matches = whole.Matches
		case "sockets":
			mix.Sockets = whole.Sockets
		default:
			return mix, fmt.Errorf("no attack %q (downloads, uploads, matches, sockets)", name)
		}
	}
	return mix, nil
}

// hostileFloor runs this program as the floor's server, a process of its
// own as lanchatd is (a busy core inside the bench's own process would take
// the senders' threads too), and measures it.
func (r *run) hostileFloor(load bench.HostileLoad, senders int) (bench.FloorFigures, error) {
	self, err := os.Executable()
	if err != nil {
		return bench.FloorFigures{}, err
	}
	dir := filepath.Join(r.workDir, "hostile-floor")
	os.RemoveAll(dir)
	defer os.RemoveAll(dir)
	srv, err := bench.StartProcess(exec.Command(self, "-ceiling-server", "hostile-floor", "-work", r.workDir))
	if err != nil {
		return bench.FloorFigures{}, err
	}
	defer srv.Stop()
	return bench.HostileFloor(srv, load, senders, r.d)
}

// median is the middle of xs, or the mean of the two middle values when
// their count is even.
func median(xs []float64) float64 {
	sorted := slices.Clone(xs)
	slices.Sort(sorted)
	mid := len(sorted) / 2
	if len(sorted)%2 == 0 {
		return (sorted[mid-1] + sorted[mid]) / 2
	}
	return sorted[mid]
}

func metOrNot(met bool) string {
	if met {
		return "met"
	}
	return "not met"
}

// loadAverage is the machine's load average over the last minute: the
// other work the figures shared the cores with.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if fields := strings.Fields(string(data)); err == nil && len(fields) > 0 {
		return fields[0]
	}
	return "unknown"
}
