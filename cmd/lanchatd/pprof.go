package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/pprof"
)

// servePprof serves Go's profiler on its own listener, never on the LAN
// face: profiles reveal memory contents. Benchmarks use it to find what
// limits a figure.
func servePprof(addr string, stderr io.Writer) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("pprof listener: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	fmt.Fprintln(stderr, "pprof on http://"+ln.Addr().String()+"/debug/pprof/")
	go http.Serve(ln, mux)
	return nil
}
