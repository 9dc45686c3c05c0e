package app

import (
	_ "embed"
	"encoding/json"
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"strings"
)

//go:embed trouble.html
var troubleHTML string

var troubleTemplate = template.Must(template.New("trouble").Parse(troubleHTML))

// trouble is the window's page when the saved team cannot be shown: what
// happened, with Retry (App.Reconnect) and Choose another team
// (App.LeaveTeam). Without it a member whose host was gone got a blank
// window, and the way out (Leave) was inside the chat that did not load.
type trouble struct {
	Title   string // the heading, and the window's title after "Lanchat: "
	Message string // what happened
	Detail  string // the error, as the system gave it
	Hint    string // what to do
	// AutoRetry: the page tries again by itself every few seconds.
	AutoRetry bool
	// Code and status answer the page's API requests, which cannot be
	// served either.
	Code   string
	status int
}

// unreachable is the page while the joined team's host (at url) does not
// answer.
func unreachable(url string, err error) trouble {
	return trouble{
		Title:   "cannot reach the team",
		Message: "The team's host does not answer at " + url + ".",
		Detail:  plainNetError(err),
		Hint: "Its computer may be off, asleep or on another network, or its address may have changed. This window " +
			"goes back to the team by itself once it answers. Or choose another team: the teams on this network are " +
			"listed there, this one too if its address changed.",
		AutoRetry: true,
		Code:      "HOST_UNREACHABLE",
		status:    http.StatusBadGateway,
	}
}

// authorityChanged is the page while the joined team's host (at url)
// presents another certificate authority (presented) than the one the app
// trusted when it joined (trusted): the app does not connect.
func authorityChanged(url, trusted, presented string) trouble {
	return trouble{
		Title: "the team's host is not the one this app joined",
		Message: "The host at " + url + " presents another certificate authority than the one this app checked when it " +
			"joined, so the app does not connect to it.",
		Detail: "This app trusts " + trusted + "; the host presents " + presented + ".",
		Hint: "Someone on the network may be posing as the host, or its owner gave it a new authority (a new data folder, " +
			"or Lanchat replacing one that was valid for any site). Ask the owner which fingerprint the Host panel on the " +
			"host's computer shows. Only if it is " + presented + ", choose another team and join this one again.",
		Code:   "HOST_AUTHORITY_CHANGED",
		status: http.StatusBadGateway,
	}
}

// unreadableMembership is the page while the membership file cannot be
// read (err, from loadMembership, names the file).
func unreadableMembership(err error) trouble {
	return trouble{
		Title:   "the saved team is unreadable",
		Message: "The file that remembers which team this app joined is unreadable, so the app does not know which team to open.",
		Detail:  err.Error(),
		Hint: "Retry after repairing or removing the file, or choose another team (the file is then kept aside as " +
			MembershipFile + ".unreadable).",
		Code:   "MEMBERSHIP_UNREADABLE",
		status: http.StatusServiceUnavailable,
	}
}

// plainNetError drops the HTTP client's wording from a network error:
// "dial tcp 192.168.1.20:9991: connect: connection refused" says enough.
func plainNetError(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return err.Error()
}

// ServeHTTP answers the window's page with the explanation, with 200 OK:
// Wails injects its runtime (the bound methods) only into a page that
// answers 200 and shows any other status as a blank window. The page's
// other requests get the same explanation as an API error.
func (p trouble) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if r.Method == http.MethodGet && (strings.HasSuffix(r.URL.Path, "/") || strings.HasSuffix(r.URL.Path, "/index.html")) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		troubleTemplate.Execute(w, p)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(p.status)
	json.NewEncoder(w).Encode(map[string]string{"result": "error", "code": p.Code, "msg": p.Message})
}
