package bench

import (
	"slices"
	"time"
)

// Latencies summarises a sample of request durations.
type Latencies struct {
	P50, P99 time.Duration
	Count    int
	// PerSecond is completed operations per second of wall time.
	PerSecond float64
	// ServerCPU is the server process's CPU time per operation, where
	// measured (0 otherwise).
	ServerCPU time.Duration
	// CycleCPU is, for the delivery figures, the server's CPU time per
	// client per whole round (arming every client, the wait, the wake-up,
	// every answer read): what one poll cycle costs in all, where ServerCPU
	// is only the wake-up's share.
	CycleCPU time.Duration
}

// summarize computes percentiles over samples taken during wall.
func summarize(samples []time.Duration, wall time.Duration) Latencies {
	if len(samples) == 0 {
		return Latencies{}
	}
	slices.Sort(samples)
	at := func(p float64) time.Duration { return samples[min(len(samples)-1, int(p*float64(len(samples))))] }
	return Latencies{P50: at(0.50), P99: at(0.99), Count: len(samples), PerSecond: float64(len(samples)) / wall.Seconds()}
}
