package api

import (
	"encoding/json"
	"strconv"
	"strings"

	"lanchat/backend/domain"
)

// recipientList reads `to` in every form clients send: a JSON list of emails
// or IDs, a bare ID, or comma-separated emails.
func recipientList(raw string) []string {
	raw = strings.TrimSpace(raw)
	var list []any
	if strings.HasPrefix(raw, "[") && json.Unmarshal([]byte(raw), &list) == nil {
		out := make([]string, 0, len(list))
		for _, v := range list {
			switch x := v.(type) {
			case string:
				out = append(out, x)
			case float64:
				out = append(out, strconv.FormatInt(int64(x), 10))
			}
		}
		return out
	}
	return strings.Split(raw, ",")
}

// streamIndicator reads a stream message's `to`: a name, an ID, or either
// JSON-encoded, alone or as a one-element list.
func streamIndicator(raw string) (string, error) {
	var v any
	if json.Unmarshal([]byte(raw), &v) != nil {
		return raw, nil // a bare stream name
	}
	if list, ok := v.([]any); ok {
		if len(list) != 1 {
			return "", domain.BadRequest("Expected exactly one channel")
		}
		v = list[0]
	}
	switch x := v.(type) {
	case string:
		return x, nil
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	}
	return "", domain.BadRequest("Invalid data type for channel")
}

// clientName is the sending program, from the User-Agent's first product
// token ("ZulipPython/0.9" → "ZulipPython"), as Zulip records it.
func clientName(userAgent string) string {
	name, _, _ := strings.Cut(strings.TrimSpace(userAgent), "/")
	name, _, _ = strings.Cut(name, " ")
	if name == "" {
		return "API"
	}
	return name
}

func sendMessage(c *call) (J, error) {
	out := domain.OutgoingMessage{
		Type:    c.p.str("type"),
		Content: c.p.str("content"),
		Topic:   c.p.optStr("topic", c.p.optStr("subject", "")),
		Client:  clientName(c.r.UserAgent()),
		QueueID: c.p.optStr("queue_id", ""),
		LocalID: c.p.optStr("local_id", ""),
	}
	to := c.p.str("to")
	out.ReadBySender = c.p.boolGiven("read_by_sender", true)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	if out.Type == "stream" || out.Type == "channel" {
		stream, err := streamIndicator(to)
		if err != nil {
			return nil, err
		}
		out.Stream = stream
	} else {
		out.To = recipientList(to)
	}
	sent, err := c.api.svc.Send(c.user, out)
	if err != nil {
		return nil, err
	}
	if sent.AutomaticVisibilityPolicy != 0 {
		// Only when a policy changed the topic's visibility (level 218).
		return J{"id": sent.ID, "automatic_new_visibility_policy": sent.AutomaticVisibilityPolicy}, nil
	}
	return J{"id": sent.ID}, nil
}

func getMessages(c *call) (J, error) {
	q := domain.HistoryQuery{
		Anchor:               c.p.optStr("anchor", ""),
		UseFirstUnreadAnchor: c.p.optBool("use_first_unread_anchor", false),
		IncludeAnchor:        c.p.optBool("include_anchor", true),
		ApplyMarkdown:        c.p.optBool("apply_markdown", true),
	}
	c.p.optBool("client_gravatar", false)
	if c.p.optJSON("message_ids", &q.MessageIDs) && q.MessageIDs == nil {
		q.MessageIDs = []int64{}
	}
	if q.MessageIDs == nil {
		q.NumBefore, q.NumAfter = c.p.int("num_before"), c.p.int("num_after")
	}
	q.Narrow = c.p.optNarrow("narrow")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	res, err := c.api.svc.Messages(c.user, q)
	if err != nil {
		return nil, err
	}
	writeSuccessSpliced(c, J{"anchor": res.Anchor, "found_anchor": res.FoundAnchor, "found_newest": res.FoundNewest,
		"found_oldest": res.FoundOldest, "history_limited": res.HistoryLimited}, "messages",
		func(b []byte) []byte { return domain.AppendMessageList(b, res.Messages) })
	return nil, nil
}

func matchesNarrow(c *call) (J, error) {
	var ids []int64
	c.p.json("msg_ids", &ids)
	narrow := c.p.narrow("narrow")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	matches, err := c.api.svc.MatchesNarrow(c.user, ids, narrow)
	if err != nil {
		return nil, err
	}
	return J{"messages": matches}, nil
}

func getMessage(c *call) (J, error) {
	id := c.p.pathInt("message_id")
	applyMarkdown := c.p.optBool("apply_markdown", true)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	msg, raw, err := c.api.svc.Message(c.user, id, applyMarkdown)
	if err != nil {
		return nil, err
	}
	return J{"message": msg, "raw_content": raw}, nil
}

func readReceipts(c *call) (J, error) {
	id := c.p.pathInt("message_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	ids, err := c.api.svc.ReadReceipts(c.user, id)
	if err != nil {
		return nil, err
	}
	return J{"user_ids": ids}, nil
}

func updateFlags(c *call) (J, error) {
	var ids []int64
	c.p.json("messages", &ids)
	op, flag := c.p.str("op"), c.p.str("flag")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	up, err := c.api.svc.UpdateFlags(c.user, ids, op, flag)
	if err != nil {
		return nil, err
	}
	out := J{"messages": up.Changed}
	if up.IgnoredUnsubscribed != nil {
		out["ignored_because_not_subscribed_channels"] = up.IgnoredUnsubscribed
	}
	return out, nil
}

func updateFlagsForNarrow(c *call) (J, error) {
	q := domain.HistoryQuery{
		Anchor:        c.p.str("anchor"),
		IncludeAnchor: c.p.optBool("include_anchor", true),
		NumBefore:     c.p.int("num_before"),
		NumAfter:      c.p.int("num_after"),
		Narrow:        c.p.narrow("narrow"),
	}
	op, flag := c.p.str("op"), c.p.str("flag")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	res, err := c.api.svc.UpdateFlagsForNarrow(c.user, q, op, flag)
	if err != nil {
		return nil, err
	}
	return domain.ToMap(res)
}

func markAllAsRead(c *call) (J, error) {
	if _, err := c.api.svc.MarkAllAsRead(c.user); err != nil {
		return nil, err
	}
	return J{"complete": true}, nil
}

func markStreamAsRead(c *call) (J, error) {
	streamID := c.p.int("stream_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	_, err := c.api.svc.MarkStreamAsRead(c.user, streamID)
	return nil, err
}

func markTopicAsRead(c *call) (J, error) {
	streamID, topic := c.p.int("stream_id"), c.p.str("topic_name")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	_, err := c.api.svc.MarkTopicAsRead(c.user, streamID, topic)
	return nil, err
}

func editMessage(c *call) (J, error) {
	id := c.p.pathInt("message_id")
	var e domain.MessageEdit
	e.Content = c.p.strGiven("content")
	e.Topic = c.p.topicGiven()
	e.StreamID = c.p.optInt("stream_id", 0)
	e.PropagateMode = c.p.optStr("propagate_mode", "")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	detached, err := c.api.svc.EditMessage(c.user, id, e)
	if err != nil {
		return nil, err
	}
	return J{"detached_uploads": detached}, nil
}

func deleteMessage(c *call) (J, error) {
	id := c.p.pathInt("message_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.DeleteMessage(c.user, id)
}

func deleteTopic(c *call) (J, error) {
	id, topic := c.p.pathInt("stream_id"), c.p.str("topic_name")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	if err := c.api.svc.DeleteTopic(c.user, id, topic); err != nil {
		return nil, err
	}
	return J{"complete": true}, nil
}

func messageHistory(c *call) (J, error) {
	id := c.p.pathInt("message_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	entries, err := c.api.svc.MessageHistory(c.user, id)
	if err != nil {
		return nil, err
	}
	return J{"message_history": entries}, nil
}

func reactionRequest(c *call) domain.ReactionRequest {
	return domain.ReactionRequest{
		EmojiName:    c.p.optStr("emoji_name", ""),
		EmojiCode:    c.p.optStr("emoji_code", ""),
		ReactionType: c.p.optStr("reaction_type", ""),
	}
}

func addReaction(c *call) (J, error) {
	id := c.p.pathInt("message_id")
	req := reactionRequest(c)
	if req.EmojiName == "" {
		c.p.str("emoji_name")
	}
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.AddReaction(c.user, id, req)
}

func removeReaction(c *call) (J, error) {
	id := c.p.pathInt("message_id")
	req := reactionRequest(c)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.RemoveReaction(c.user, id, req)
}

func addSubmessage(c *call) (J, error) {
	sub := domain.Submessage{MessageID: c.p.int("message_id"), MsgType: c.p.str("msg_type"), Content: c.p.str("content")}
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.AddSubmessage(c.user, sub)
}
