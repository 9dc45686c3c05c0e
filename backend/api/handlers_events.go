package api

import "lanchat/backend/domain"

// registerRequest reads the register parameters (also accepted by GET
// /events without a queue_id).
func registerRequest(c *call) (domain.RegisterRequest, error) {
	req := domain.RegisterRequest{
		AllPublicStreams:   c.p.optBool("all_public_streams", false),
		IncludeSubscribers: c.p.optBool("include_subscribers", false),
		ApplyMarkdown:      c.p.optBool("apply_markdown", false),
		ClientGravatar:     c.p.optBool("client_gravatar", false),
		SlimPresence:       c.p.optBool("slim_presence", false),
		RealmURL:           c.api.realmURL(c.r),
	}
	req.PresenceHistoryLimitDays = c.p.intGiven("presence_history_limit_days")
	c.p.optJSON("event_types", &req.EventTypes)
	c.p.optJSON("fetch_event_types", &req.FetchEventTypes)
	c.p.optJSON("client_capabilities", &req.ClientCapabilities)
	req.Narrow = c.p.optNarrow("narrow")
	return req, c.p.err()
}

func register(c *call) (J, error) {
	req, err := registerRequest(c)
	if err != nil {
		return nil, err
	}
	reg, err := c.api.svc.Register(c.user, req)
	return reg.State, err
}

func getEvents(c *call) (J, error) {
	queueID := c.p.optStr("queue_id", "")
	lastEventID := c.p.optInt("last_event_id", -1)
	dontBlock := c.p.optBool("dont_block", false)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	var answer J // nothing beside the events, but a new queue's ID
	if queueID == "" {
		// No queue: register one with the same parameters, as Zulip does.
		req, err := registerRequest(c)
		if err != nil {
			return nil, err
		}
		reg, err := c.api.svc.Register(c.user, req)
		if err != nil {
			return nil, err
		}
		queueID = reg.QueueID
		answer = J{"queue_id": queueID}
	}
	c.api.delivery.answerPoll(c, queueID, lastEventID, dontBlock, answer)
	return nil, nil
}

func deleteQueue(c *call) (J, error) {
	queueID := c.p.str("queue_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.DeleteQueue(c.user, queueID)
}

func setTyping(c *call) (J, error) {
	t := domain.Typing{
		Op:       c.p.str("op"),
		Type:     c.p.optStr("type", ""),
		StreamID: c.p.optInt("stream_id", 0),
		Topic:    c.p.optStr("topic", ""),
	}
	if t.Type != "stream" && t.Type != "channel" {
		t.To = recipientList(c.p.str("to"))
	}
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.SetTyping(c.user, t)
}

// setEditTyping answers POST /messages/{message_id}/typing (level 361).
func setEditTyping(c *call) (J, error) {
	id, op := c.p.pathInt("message_id"), c.p.str("op")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.SetEditTyping(c.user, id, op)
}

// setEditTypingByBody answers POST /message_edit_typing, the message in
// the body (level 351, before 361 moved it into the path).
func setEditTypingByBody(c *call) (J, error) {
	id, op := c.p.int("message_id"), c.p.str("op")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.SetEditTyping(c.user, id, op)
}
