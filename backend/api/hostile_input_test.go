package api_test

import (
	"strings"
	"testing"

	"lanchat/backend/apitest"
)

// TestTextLimits sends each limited text at its limit, which is stored,
// and one character over, which is refused with Zulip's message. Unlimited,
// a megabyte sent once went out again in every client's register.
func TestTextLimits(t *testing.T) {
	s := apitest.Start(t)
	admin := s.Login("admin@example.com")
	cases := []struct {
		method, path, field string
		limit               int
		msg                 string
	}{
		{"PATCH", "/api/v1/realm", "description", 1000, "description is too long (limit: 1000 characters)"},
	}
	for _, tc := range cases {
		ok := strings.Repeat("é", tc.limit)
		admin.Do(tc.method, tc.path, "application/x-www-form-urlencoded", strings.NewReader(apitest.Form{tc.field: ok}.Encode())).OK()
		over := admin.Do(tc.method, tc.path, "application/x-www-form-urlencoded", strings.NewReader(apitest.Form{tc.field: ok + "x"}.Encode()))
		if msg := over.Fails(400, "BAD_REQUEST").Msg(); msg != tc.msg {
			t.Errorf("%s %s %s over its limit: %q, want %q", tc.method, tc.path, tc.field, msg, tc.msg)
		}
	}
	if got := admin.Post("/api/v1/register", nil).OK().Str("realm_description"); got != strings.Repeat("é", 1000) {
		t.Errorf("realm_description is %d bytes, want the 1000 characters at the limit", len(got))
	}
}

// TestFarFutureTimes sends times that overflow or pass the last date a
// calendar holds (year 9999): refused, where an invitation was stored
// already expired (its expiry overflowed to the past) and a scheduled
// message for a time no client can show.
func TestFarFutureTimes(t *testing.T) {
	s := apitest.Start(t)
	admin := s.Login("admin@example.com")
	cases := []struct {
		path string
		form apitest.Form
		msg  string
	}{
		{"/api/v1/invites/multiuse", apitest.Form{"invite_expires_in_minutes": "9223372036854775807"}, "Invalid invite_expires_in_minutes: is past the year 9999"},
		{"/api/v1/invites/multiuse", apitest.Form{"invite_expires_in_minutes": "153722867280912930"}, "Invalid invite_expires_in_minutes: is past the year 9999"},
		{"/api/v1/invites/multiuse", apitest.Form{"invite_expires_in_minutes": "5000000000"}, "Invalid invite_expires_in_minutes: is past the year 9999"},
		{"/api/v1/scheduled_messages", apitest.Form{"type": "stream", "to": "general", "topic": "t", "content": "c",
			"scheduled_delivery_timestamp": "9223372036854775807"}, "Scheduled delivery time is past the year 9999."},
		{"/api/v1/scheduled_messages", apitest.Form{"type": "stream", "to": "general", "topic": "t", "content": "c",
			"scheduled_delivery_timestamp": "253402300800"}, "Scheduled delivery time is past the year 9999."},
	}
	for _, tc := range cases {
		if msg := admin.Post(tc.path, tc.form).Msg(); msg != tc.msg {
			t.Errorf("%s %v: %q, want %q", tc.path, tc.form, msg, tc.msg)
		}
	}
	// A year ahead is still fine.
	admin.Post("/api/v1/invites/multiuse", apitest.Form{"invite_expires_in_minutes": "525600"}).OK()
	if got := len(admin.Get("/api/v1/invites", nil).OK().List("invites")); got != 1 {
		t.Errorf("%d invitations listed, want the one valid", got)
	}
}
