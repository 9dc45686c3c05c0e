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
