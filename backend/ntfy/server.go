package ntfy

import (
	"errors"
	"net/http"
	"regexp"
)

// subscribePath is a topic and the form of its stream (or /auth, which
// ntfy's app asks before subscribing).
var subscribePath = regexp.MustCompile(`^/([-_A-Za-z0-9]{1,64})/(json|sse|ws|auth)$`)

// ntfy's error codes for what Lanchat refuses.
const (
	codeSinceInvalid     = 40008
	codeWebSocketMissing = 40016
	codeForbidden        = 40301
	codeNotFound         = 40401
)

// ServeHTTP answers subscriptions; anything else of ntfy's server (publishing,
// accounts, the web app) is refused.
func (h *Hub) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Access-Control-Allow-Origin", "*")
	if r.Method == http.MethodOptions {
		w.Header().Set("Access-Control-Allow-Methods", "GET")
		w.Header().Set("Access-Control-Allow-Headers", "*")
		return
	}
	if r.Method == http.MethodGet && r.URL.Path == "/v1/health" {
		writeJSON(w, http.StatusOK, []byte(`{"healthy":true}`+"\n"))
		return
	}
	parts := subscribePath.FindStringSubmatch(r.URL.Path)
	switch {
	case r.Method != http.MethodGet && r.Method != http.MethodHead:
		writeJSON(w, http.StatusForbidden, errorBody(codeForbidden, "forbidden: this server only serves subscriptions"))
		return
	case parts == nil:
		writeJSON(w, http.StatusNotFound, errorBody(codeNotFound, "page not found"))
		return
	case h.opts.Allowed == nil || !h.opts.Allowed(parts[1]):
		writeJSON(w, http.StatusForbidden, errorBody(codeForbidden, "forbidden"))
		return
	}
	topic, form := parts[1], parts[2]
	if form == "auth" {
		writeJSON(w, http.StatusOK, []byte(`{"success":true}`+"\n"))
		return
	}
	poll := boolParam(r, "x-poll", "poll", "po")
	since, err := parseSince(r, poll)
	if errors.Is(err, errSince) {
		writeJSON(w, http.StatusBadRequest, errorBody(codeSinceInvalid, "invalid since parameter"))
		return
	}
	s := &subscriber{hub: h, topic: topic, web: h.opts.WebURL(r)}
	switch form {
	case "ws":
		if !websocketRequested(r) {
			writeJSON(w, http.StatusBadRequest, errorBody(codeWebSocketMissing, "invalid request: client not using the websocket protocol"))
			return
		}
		if poll {
			h.pollSocket(w, r, s, since)
			return
		}
		h.upgrade(w, r, s, since)
	case "sse":
		h.stream(w, s, since, poll, "text/event-stream", sseEvent)
	default:
		h.stream(w, s, since, poll, "application/x-ndjson", jsonLine)
	}
}

// stream serves the JSON stream or server-sent events: with poll, what is
// kept and nothing more; else the subscription, open until either side ends it.
func (h *Hub) stream(w http.ResponseWriter, s *subscriber, since sinceMarker, poll bool, contentType string, encode func(message) []byte) {
	if poll {
		w.Header().Set("Content-Type", contentType+"; charset=utf-8")
		for _, c := range h.kept(s.topic, since) {
			w.Write(encode(c.wire(s.topic, s.web)))
		}
		return
	}
	conn, err := takeOver(w, contentType)
	if err != nil {
		return
	}
	s.sink = httpSink{conn: conn, encode: encode}
	h.start(s, since)
}

// pollSocket answers a WebSocket poll: what is kept, then a normal close.
func (h *Hub) pollSocket(w http.ResponseWriter, r *http.Request, s *subscriber, since sinceMarker) {
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer conn.Close()
	sink := wsSink{conn}
	for _, c := range h.kept(s.topic, since) {
		if sink.write(c.wire(s.topic, s.web)) != nil {
			return
		}
	}
	closeSocket(conn)
}

func writeJSON(w http.ResponseWriter, status int, body []byte) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(body)
}
