package app

import (
	_ "embed"
	"net/http"
)

//go:embed welcome.html
var welcomePage []byte

// welcome is the window's first launch: host a new team or join one. It
// is the app's own page (the web UI is the server's, and there is none
// yet); its buttons call the bound methods HostTeam, WatchTeams,
// CheckTeam and JoinTeam.
var welcome = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/" {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Write(welcomePage)
})
