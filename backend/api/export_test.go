package api

import "time"

// Route is one row of the route table as the permission matrix in package
// api_test sees it: Auth is "none", "user" or "webhook"; WebhookBots says
// whether incoming-webhook bots may call it.
type Route struct {
	Method, Path, Auth string
	WebhookBots        bool
}

// Routes lists the route table, so the matrix can fail when a route is
// added without a permission rule.
func Routes() []Route {
	var out []Route
	for _, rt := range (&API{}).routes() {
		out = append(out, Route{rt.method, rt.path, [...]string{authNone: "none", authUser: "user", authWebhook: "webhook"}[rt.auth], rt.webhookBots})
	}
	return out
}

// SetSocketAckWait sets how long a socket's next frame waits for the
// client's acknowledgement of the last, and returns what restores it.
func SetSocketAckWait(d time.Duration) (restore func()) {
	was := socketAckWait
	socketAckWait = d
	return func() { socketAckWait = was }
}

// SocketFrameEvents is the most events a socket's frame carries.
const SocketFrameEvents = socketFrameEvents
