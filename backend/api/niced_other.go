//go:build !linux

package api

// niced runs f: lowering a thread's priority is done on Linux only.
func niced(f func()) { f() }
