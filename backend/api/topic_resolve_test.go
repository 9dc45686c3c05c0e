package api_test

import (
	"fmt"
	"strings"
	"testing"

	"lanchat/backend/apitest"
)

// Resolving a topic, as Zulip's web app does it: PATCH one of its messages
// with the topic "✔ topic" and propagate_mode=change_all. Any member may do
// it, not only the senders; the whole topic moves, and a notice in it says
// who resolved it. Unresolving is the same backwards.
func TestResolvingATopicMovesItAndSaysWho(t *testing.T) {
	s := apitest.Start(t)
	alice := s.Login("alice@example.com")
	bob := s.Login("bob@example.com")
	bobID := bob.Get("/api/v1/users/me", nil).OK().Int("user_id")
	first := send(t, alice, streamMsg("general", "printer", "it jams"))
	send(t, alice, streamMsg("general", "printer", "again"))
	topic := func(name string) []string {
		f := narrowed(fmt.Sprintf(`[["stream","general"],["topic",%q]]`, name))
		f["apply_markdown"] = "false"
		_, res := history(t, alice, f)
		var out []string
		for _, m := range res.List("messages") {
			out = append(out, m.(map[string]any)["content"].(string))
		}
		return out
	}
	bob.Patch(fmt.Sprintf("/api/v1/messages/%d", first), apitest.Form{"topic": "✔ printer", "propagate_mode": "change_all"}).OK()
	if left := topic("printer"); len(left) != 0 {
		t.Errorf("the unresolved topic still holds %q", left)
	}
	got := topic("✔ printer")
	notice := fmt.Sprintf("@_**Bob Brown|%d** has marked this topic as resolved.", bobID)
	if len(got) != 3 || got[2] != notice {
		t.Fatalf("resolved topic holds %q, want the two messages and %q", got, notice)
	}
	bob.Patch(fmt.Sprintf("/api/v1/messages/%d", first), apitest.Form{"topic": "printer", "propagate_mode": "change_all"}).OK()
	got = topic("printer")
	if len(got) != 4 || got[3] != strings.Replace(notice, "resolved", "unresolved", 1) {
		t.Errorf("unresolved topic holds %q", got)
	}
	// Renaming someone else's topic otherwise stays theirs (or an administrator's) to do.
	bob.Patch(fmt.Sprintf("/api/v1/messages/%d", first), apitest.Form{"topic": "scanner", "propagate_mode": "change_all"}).Fails(400, "BAD_REQUEST")
}
