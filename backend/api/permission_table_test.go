package api_test

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"lanchat/backend/api"
	"lanchat/backend/apitest"
)

// class says who may use a route, and so how the permission matrix probes
// it (permission_*_test.go).
type class string

const (
	public  class = "public"  // no credentials: sign-in, setup, server settings
	anyone  class = "anyone"  // every signed-in account, guests and generic bots too
	own     class = "own"     // the caller's own things: another's answer as missing ones do
	scoped  class = "scoped"  // a stream, its messages, uploads linked there: a private one answers outsiders as a missing one
	members class = "members" // members and administrators; guests are refused
	humans  class = "humans"  // people, guests too; bots are refused
	owner   class = "owner"   // the thing's owner (a bot's, an emoji's author, a message's sender) or an administrator
	author  class = "author"  // the thing's author only, not even an administrator
	admin   class = "admin"   // administrators only
	owners  class = "owners"  // organization owners only: the world has none, so every account is refused (an owner's turn: import_test.go)
	webhook class = "webhook" // a bot's key in the URL
)

// incomingWebhookBots are the routes an incoming-webhook bot may call, as
// in Zulip: the integration URLs and sending a message. Every other route
// that needs an account refuses its key (TestIncomingWebhookBotsOnlySend),
// whatever the route's class.
var incomingWebhookBots = map[string]bool{
	"POST /api/v1/messages":               true,
	"POST /api/v1/external/{integration}": true,
}

// probe is one request of the matrix.
type probe struct {
	name   string
	route  string // its route's "METHOD path"
	who    class  // the rule it checks; its route's class when empty
	method string // its route's when empty
	path   string // its route's when empty
	form   apitest.Form
	files  map[string][2]string // sent as multipart/form-data
	body   string               // sent as JSON (webhook payloads)
	header map[string]string    // sent with the form (the tus protocol's)
	// public and anyone probes: the status expected (200 when 0) and code.
	status int
	code   string
	// Scoped and own probes compare the answer about the real thing with
	// the answer about its missing twin, unless hides is set (listings:
	// an outsider's answer has none of these, an insider's has one) or
	// refused (an outsider gets an error that may name the thing, as
	// joining a private stream by its unique name does in Zulip).
	hides   []string
	refused bool
	insider string // who may see the thing; alice when empty
}

// rule is a route's row: its class and the requests that probe it.
type rule struct {
	class  class
	probes func(w world) []probe
}

// send makes the request: reads with the form in the query string, writes
// with it in the body.
func (p probe) send(c *apitest.Client) *apitest.Response {
	if p.header != nil {
		c.Header = http.Header{}
		for k, v := range p.header {
			c.Header.Set(k, v)
		}
		defer func() { c.Header = nil }()
		return c.Do(p.method, p.path, p.header["Content-Type"], strings.NewReader(p.form.Encode()))
	}
	switch {
	case p.files != nil:
		return c.PostMultipart(p.path, p.form, p.files)
	case p.body != "":
		return c.Do(p.method, p.path, "application/json", strings.NewReader(p.body))
	case p.method == "GET":
		return c.Get(p.path, p.form)
	}
	return c.Do(p.method, p.path, "application/x-www-form-urlencoded", strings.NewReader(p.form.Encode()))
}

// probesOf are a route's probes about w, with the route's method, path and
// class filled in where a probe leaves them out.
func probesOf(key string, r rule, w world) []probe {
	method, path, _ := strings.Cut(key, " ")
	ps := r.probes(w)
	for i := range ps {
		p := &ps[i]
		p.route = key
		p.method = cmp.Or(p.method, method)
		p.path = cmp.Or(p.path, path)
		p.who = cmp.Or(p.who, r.class)
		p.insider = cmp.Or(p.insider, "alice@example.com")
		p.name = key + " (" + cmp.Or(p.name, string(p.who)) + ")"
	}
	return ps
}

// collect is every probe of the given classes in the table, in route-table
// order, about w.
func collect(w world, classes ...class) []probe {
	var out []probe
	for _, p := range allProbes(w) {
		if slices.Contains(classes, p.who) {
			out = append(out, p)
		}
	}
	return out
}

// allProbes is every probe of the table, in route-table order, about w.
func allProbes(w world) []probe {
	table := permissions()
	var out []probe
	for _, rt := range api.Routes() {
		key := rt.Method + " " + rt.Path
		out = append(out, probesOf(key, table[key], w)...)
	}
	return out
}

// authOf is the authentication each class's routes must have.
func authOf(c class) string {
	switch c {
	case public:
		return "none"
	case webhook:
		return "webhook"
	}
	return "user"
}

// TestPermissionTableCoversEveryRoute: every route has exactly one rule,
// every rule a route, its class the route's authentication, at least one
// probe of its own class, and every probe hits its own route; the routes
// admitting incoming-webhook bots are incomingWebhookBots.
func TestPermissionTableCoversEveryRoute(t *testing.T) {
	table := permissions()
	mux := http.NewServeMux()
	seen := map[string]bool{}
	for _, rt := range api.Routes() {
		key := rt.Method + " " + rt.Path
		seen[key] = true
		mux.HandleFunc(key, func(http.ResponseWriter, *http.Request) {})
		r, ok := table[key]
		if !ok {
			t.Errorf("%s has no rule in permissions(): say who may use it and how to probe that", key)
		} else if authOf(r.class) != rt.Auth {
			t.Errorf("%s: class %s, but the route's authentication is %q", key, r.class, rt.Auth)
		}
		if rt.WebhookBots != incomingWebhookBots[key] {
			t.Errorf("%s: the route admits incoming-webhook bots: %v; incomingWebhookBots says %v", key, rt.WebhookBots, incomingWebhookBots[key])
		}
	}
	for key := range incomingWebhookBots {
		if !seen[key] {
			t.Errorf("%s is in incomingWebhookBots but not in the route table", key)
		}
	}
	classes := map[class]int{}
	for key, r := range table {
		if !seen[key] {
			t.Errorf("%s is in permissions() but not in the route table", key)
			continue
		}
		classes[r.class]++
		ps := probesOf(key, r, fakeWorld())
		ownClass := false
		for _, p := range ps {
			ownClass = ownClass || p.who == r.class
			u, err := url.Parse(p.path)
			if err != nil {
				t.Fatalf("%s: %v", p.name, err)
			}
			if _, pattern := mux.Handler(&http.Request{Method: p.method, URL: u, Host: "x"}); pattern != key {
				t.Errorf("%s: %s %s reaches %q, not its own route", p.name, p.method, p.path, pattern)
			}
		}
		if !ownClass {
			t.Errorf("%s: no probe of its class %s", key, r.class)
		}
	}
	t.Logf("%d routes in %d classes: %v", len(table), len(classes), classes)
}
