package api

import (
	"syscall"
	"testing"
)

// TestNicedRunsAtALowerPriority: f runs on a thread at heavyNice, and the
// caller's thread keeps its own priority.
func TestNicedRunsAtALowerPriority(t *testing.T) {
	// The raw getpriority answers 20 minus the nice value.
	before, _ := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	var inside int
	niced(func() { inside, _ = syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid()) })
	if inside != 20-heavyNice {
		t.Errorf("f ran at nice %d, want %d", 20-inside, heavyNice)
	}
	if after, _ := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid()); after != before {
		t.Errorf("the caller's priority went from %d to %d", before, after)
	}
}
