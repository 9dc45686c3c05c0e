package api

import (
	"runtime"
	"syscall"
)

// heavyNice is the nice value heavy reads run at: the kernel then gives
// their thread only the time other work leaves over.
const heavyNice = 10

// niced runs f on a thread of its own at heavyNice. The thread is never
// unlocked, so it ends with f's goroutine and its nice value with it (a
// thread's nice value cannot be lowered back without privilege).
func niced(f func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread()
		syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), heavyNice)
		f()
	}()
	<-done
}
