package api_test

import (
	"fmt"
	"slices"
	"testing"

	"lanchat/backend/apitest"
)

// Read receipts answer only where the organization enables them, and list
// who has read the message: not its sender, nor anyone who chose not to
// send read receipts.
func TestReadReceiptsListReadersWhereEnabled(t *testing.T) {
	s := apitest.Start(t)
	admin := s.Login("admin@example.com")
	alice := s.Login("alice@example.com")
	bob := s.Login("bob@example.com")
	bobID := bob.Get("/api/v1/users/me", nil).OK().Int("user_id")
	id := send(t, alice, streamMsg("general", "receipts", "did you see this?"))
	path := fmt.Sprintf("/api/v1/messages/%d/read_receipts", id)
	if res := alice.Get(path, nil).Fails(400, "BAD_REQUEST"); res.Msg() != "Read receipts are disabled in this organization." {
		t.Errorf("disabled: %s", res.Msg())
	}
	admin.Patch("/api/v1/realm", apitest.Form{"enable_read_receipts": "true"}).OK()
	if got := alice.Post("/api/v1/register", nil).OK().Body["realm_enable_read_receipts"]; got != true {
		t.Errorf("register's realm_enable_read_receipts %v", got)
	}
	readers := func() []int64 {
		var out []int64
		for _, v := range alice.Get(path, nil).OK().List("user_ids") {
			out = append(out, int64(v.(float64)))
		}
		return out
	}
	if got := readers(); len(got) != 0 {
		t.Errorf("before anyone read it: %v", got)
	}
	bob.Post("/api/v1/messages/flags", apitest.Form{"messages": fmt.Sprintf("[%d]", id), "op": "add", "flag": "read"}).OK()
	if got := readers(); !slices.Equal(got, []int64{bobID}) {
		t.Errorf("after bob read it: %v, want [%d]", got, bobID)
	}
	bob.Patch("/api/v1/settings", apitest.Form{"send_read_receipts": "false"}).OK()
	if got := readers(); len(got) != 0 {
		t.Errorf("bob sends no read receipts, yet %v", got)
	}
	alice.Get("/api/v1/messages/999999/read_receipts", nil).Fails(400, "BAD_REQUEST")
}
