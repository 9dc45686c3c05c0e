package api_test

import (
	"encoding/json"
	"strings"
	"testing"

	"lanchat/backend/apitest"
	"lanchat/backend/domain"
)

// TestHeavyNarrowsAreRefused: a narrow is evaluated for every message a
// queue could receive and every message a history query walks, so its
// number of terms and each operand's length are bounded, with a BAD_NARROW
// error on both POST /register and GET /messages.
func TestHeavyNarrowsAreRefused(t *testing.T) {
	s := apitest.Start(t)
	alice := s.Login("alice@example.com")
	terms := func(n int, operand string) string {
		list := make([][2]string, n)
		for i := range list {
			list[i] = [2]string{"search", operand}
		}
		b, _ := json.Marshal(list)
		return string(b)
	}
	for _, tc := range []struct {
		name, narrow string
		ok           bool
	}{
		{"most terms", terms(domain.MaxNarrowTerms, "pizza"), true},
		{"longest operand", terms(1, strings.Repeat("é", domain.MaxNarrowOperandLength)), true},
		{"too many terms", terms(domain.MaxNarrowTerms+1, "pizza"), false},
		{"20,000 terms", terms(20000, "a"), false},
		{"too long an operand", terms(1, strings.Repeat("a", domain.MaxNarrowOperandLength+1)), false},
		{"long object operand", `[{"operator":"search","operand":"` + strings.Repeat("b ", domain.MaxNarrowOperandLength) + `"}]`, false},
	} {
		reg := alice.Post("/api/v1/register", apitest.Form{"narrow": tc.narrow, "event_types": []string{"message"}})
		hist := alice.Get("/api/v1/messages", apitest.Form{"narrow": tc.narrow, "anchor": "newest", "num_before": 10, "num_after": 0})
		for _, res := range []*apitest.Response{reg, hist} {
			if tc.ok {
				res.OK()
			} else if res.Fails(400, "BAD_NARROW"); !strings.Contains(strings.ToLower(res.Msg()), "narrow") {
				t.Errorf("%s: unclear message %q", tc.name, res.Msg())
			}
		}
	}
}

// TestMessageIDListsAreBounded: matches_narrow's msg_ids and GET
// /messages' message_ids name at most 5000 messages, Zulip's
// MAX_MESSAGES_PER_FETCH, with its error. Before, 8 parallel
// matches_narrow of 60,000 IDs under the largest search narrow took the
// server to 1.36 GB and 24 s of both cores.
func TestMessageIDListsAreBounded(t *testing.T) {
	s := apitest.Start(t)
	alice := s.Login("alice@example.com")
	id := send(t, alice, streamMsg("general", "ids", "pizza for lunch"))
	narrow := searchNarrow(domain.MaxNarrowTerms, "pizza")
	ids := func(n int) string {
		list := make([]int64, n)
		for i := range list {
			list[i] = id
		}
		b, _ := json.Marshal(list)
		return string(b)
	}
	for _, n := range []int{domain.MaxMessagesPerRequest, domain.MaxMessagesPerRequest + 1, 60000} {
		match := alice.Get("/api/v1/messages/matches_narrow", apitest.Form{"msg_ids": ids(n), "narrow": narrow})
		fetch := alice.Get("/api/v1/messages", apitest.Form{"message_ids": ids(n), "narrow": narrow})
		for _, res := range []*apitest.Response{match, fetch} {
			if n <= domain.MaxMessagesPerRequest {
				res.OK()
			} else if res.Fails(400, "BAD_REQUEST"); res.Msg() != "Too many messages requested (maximum 5000)." {
				t.Errorf("%d IDs: message %q", n, res.Msg())
			}
		}
	}
}

// TestPublicStreamsNarrowOnALiveQueue: a queue narrowed to streams:public
// is matched after its registration's transaction has ended, so its
// matcher must not read through that transaction.
func TestPublicStreamsNarrowOnALiveQueue(t *testing.T) {
	s := apitest.Start(t)
	alice, bob := s.Login("alice@example.com"), s.Login("bob@example.com")
	q := registerQueue(t, bob, apitest.Form{"narrow": `[["streams","public"]]`, "event_types": []string{"message"}})
	id := send(t, alice, streamMsg("general", "t", "public"))
	send(t, alice, apitest.Form{"type": "private", "to": `["bob@example.com"]`, "content": "private"})
	evs := q.next()
	if len(evs) != 1 || evs[0]["message"].(map[string]any)["id"] != float64(id) {
		t.Errorf("events %v", evs)
	}
}
