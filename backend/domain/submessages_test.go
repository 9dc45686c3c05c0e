package domain

import (
	"errors"
	"fmt"
	"testing"

	"lanchat/backend/store"
)

// TestSubmessagesPerMessageAreBounded: every submessage lives in its
// message's record, which each vote rewrites and every reader loads, so
// votes cannot grow one message without end.
func TestSubmessagesPerMessageAreBounded(t *testing.T) {
	svc, user := devService(t)
	alice, bob := user("alice@example.com"), user("bob@example.com")
	id, err := svc.SendMessage(alice, OutgoingMessage{Type: "stream", Stream: "general", Topic: "poll", Content: "/poll Tea?\nYes"})
	if err != nil {
		t.Fatal(err)
	}
	vote := Submessage{MessageID: id, MsgType: widgetMsgType, Content: `{"type":"vote","key":"canned,0","vote":1}`}
	if err := svc.AddSubmessage(bob, vote); err != nil {
		t.Fatal(err)
	}
	// Fill the message up to the bound, as many votes would.
	err = svc.store.Update(func(tx *store.Tx) error {
		m, err := tx.Message(id)
		if err != nil {
			return err
		}
		for len(m.Submessages) < MaxSubmessages {
			m.Submessages = append(m.Submessages, store.Submessage{ID: int64(len(m.Submessages) + 100), SenderID: bob.ID, MsgType: widgetMsgType, Content: vote.Content})
		}
		return tx.PutMessageBody(m)
	})
	if err != nil {
		t.Fatal(err)
	}
	var refusal *Error
	if err := svc.AddSubmessage(bob, vote); !errors.As(err, &refusal) || refusal.Code != CodeBadRequest {
		t.Fatalf("submessage %d: %v, want a refusal", MaxSubmessages+1, err)
	}
	for _, big := range []Submessage{
		{MessageID: id, MsgType: widgetMsgType, Content: fmt.Sprintf(`{"type":"new_option","idx":1,"option":"%0*d"}`, MaxSubmessageBytes, 0)},
		{MessageID: id, MsgType: fmt.Sprintf("%0*d", MaxSubmessageTypeBytes+1, 0), Content: vote.Content},
	} {
		if err := svc.AddSubmessage(bob, big); !errors.As(err, &refusal) || refusal.Code != CodeVariableInvalid {
			t.Errorf("an oversized submessage: %v", err)
		}
	}
}
