// Package ntfy serves people's phone notifications as an ntfy server
// serves a topic to its subscribers (https://docs.ntfy.sh/subscribe/api/),
// so that ntfy's Android app, or any UnifiedPush-speaking client, keeps a
// connection to Lanchat on the LAN and shows what arrives. Only the
// subscribing side of the protocol is here: the JSON stream, server-sent
// events and WebSocket forms, since= and poll=1, the open and keepalive
// events. Nothing is published from outside; topics are people's secret
// names (domain.Service.NtfyTopic).
package ntfy

import (
	"crypto/rand"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"lanchat/backend/domain"
)

// The events of ntfy's stream (its server/types.go).
const (
	eventOpen      = "open"
	eventKeepalive = "keepalive"
	eventMessage   = "message"
)

// ntfy's priorities: 3 is the default, 4 high.
const (
	priorityDefault = 3
	priorityHigh    = 4
)

// messageIDLength is ntfy's: since= tells an ID by its length.
const messageIDLength = 12

// message is one line of the stream, with ntfy's field names and order.
type message struct {
	ID       string   `json:"id"`
	Time     int64    `json:"time"`
	Expires  int64    `json:"expires,omitempty"`
	Event    string   `json:"event"`
	Topic    string   `json:"topic"`
	Title    string   `json:"title,omitempty"`
	Message  string   `json:"message,omitempty"`
	Priority int      `json:"priority,omitempty"`
	Tags     []string `json:"tags,omitempty"`
	Click    string   `json:"click,omitempty"`
}

// cached is a notification kept for subscribers that catch up (since=).
type cached struct {
	id            string
	time, expires int64
	n             domain.PhoneNotification
}

// wire is the notification as a subscriber reached at web gets it: the
// click URL opens the conversation in the web app there.
func (c cached) wire(topic, web string) message {
	m := message{ID: c.id, Time: c.time, Expires: c.expires, Event: eventMessage, Topic: topic,
		Title: c.n.Title, Message: c.n.Body, Priority: priorityDefault, Tags: []string{"speech_balloon"}, Click: web + "/" + c.n.Hash}
	if c.n.Personal {
		m.Priority = priorityHigh
	}
	if c.n.Private {
		m.Tags = []string{"envelope"}
	} else if c.n.Personal {
		m.Tags = []string{"bell"}
	}
	return m
}

// control is an open or keepalive event.
func control(event, topic string, now time.Time) message {
	return message{ID: newMessageID(), Time: now.Unix(), Event: event, Topic: topic}
}

const idAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// newMessageID is a random ID as ntfy makes them: 12 letters and digits.
func newMessageID() string {
	b := make([]byte, messageIDLength)
	rand.Read(b)
	for i := range b {
		b[i] = idAlphabet[int(b[i])%len(idAlphabet)]
	}
	return string(b)
}

// jsonLine is the JSON stream's form of a message: one line of JSON.
func jsonLine(m message) []byte {
	b, _ := json.Marshal(m)
	return append(b, '\n')
}

// sseEvent is the server-sent events form: a message is plain data, other
// events are named (browsers' onmessage sees only messages), as ntfy does.
func sseEvent(m message) []byte {
	var b strings.Builder
	if m.Event != eventMessage {
		b.WriteString("event: " + m.Event + "\n")
	}
	b.WriteString("data: ")
	b.Write(jsonLine(m))
	b.WriteString("\n")
	return []byte(b.String())
}

// errorBody is ntfy's error answer, {"code":40301,"http":403,"error":…}.
func errorBody(code int, text string) []byte {
	return []byte(`{"code":` + strconv.Itoa(code) + `,"http":` + strconv.Itoa(code/100) + `,"error":` + strconv.Quote(text) + "}\n")
}
