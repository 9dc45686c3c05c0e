package api_test

import (
	"fmt"
	"slices"
	"testing"

	"lanchat/backend/apitest"
)

// TestMovingATopicNeedsEveryMessage: moving a topic with change_later or
// change_all moves others' messages too, so it needs the documented rule
// (sender or administrator) for every message it moves, not only for the
// one named: one message in someone's topic does not let a guest rename
// everybody's.
func TestMovingATopicNeedsEveryMessage(t *testing.T) {
	s := apitest.Start(t)
	alice, guest, admin := s.Login("alice@example.com"), s.Login("guest@example.com"), s.Login("admin@example.com")
	first := send(t, alice, streamMsg("general", "plans", "alice's"))
	mine := send(t, guest, streamMsg("general", "plans", "the guest's"))
	later := send(t, guest, streamMsg("general", "plans", "the guest's again"))
	topic := func(name string) []int64 {
		ids, _ := history(t, admin, narrowed(fmt.Sprintf(`[["stream","general"],["topic",%q]]`, name)))
		return ids
	}
	for _, mode := range []string{"change_all", "change_later"} {
		from := mine
		if mode == "change_later" {
			from = first
		}
		if msg := guest.Patch(msgPath(from, ""), apitest.Form{"topic": "hijacked", "propagate_mode": mode}).Fails(400, "BAD_REQUEST").Msg(); msg != "You don't have permission to edit this message" {
			t.Errorf("%s over alice's message: %q", mode, msg)
		}
	}
	if got := topic("plans"); !slices.Equal(got, []int64{first, mine, later}) {
		t.Errorf("after refused moves, the topic holds %v", got)
	}
	// The guest's own later messages are theirs to move; an administrator
	// moves everyone's.
	guest.Patch(msgPath(mine, ""), apitest.Form{"topic": "the guest's plans", "propagate_mode": "change_later"}).OK()
	if got := topic("the guest's plans"); !slices.Equal(got, []int64{mine, later}) {
		t.Errorf("the guest's change_later moved %v", got)
	}
	admin.Patch(msgPath(first, ""), apitest.Form{"topic": "settled", "propagate_mode": "change_all"}).OK()
	if got := topic("settled"); !slices.Equal(got, []int64{first}) {
		t.Errorf("the administrator's change_all moved %v", got)
	}
}
