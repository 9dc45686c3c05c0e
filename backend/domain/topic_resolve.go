package domain

import (
	"fmt"
	"strconv"
	"strings"

	"lanchat/backend/store"
)

// resolvedTopicPrefix marks a resolved topic, as in Zulip.
const resolvedTopicPrefix = "✔ "

// resolveToggle tells whether renaming topic from to to only marks it
// resolved or unresolved (adds or removes the prefix), and which.
func resolveToggle(from, to string) (resolving, toggles bool) {
	switch {
	case strings.HasPrefix(to, resolvedTopicPrefix) && strings.TrimPrefix(to, resolvedTopicPrefix) == from:
		return true, true
	case strings.HasPrefix(from, resolvedTopicPrefix) && strings.TrimPrefix(from, resolvedTopicPrefix) == to:
		return false, true
	}
	return false, false
}

// notifyResolved posts Zulip's notice of a topic marked resolved or
// unresolved into the topic under its new name. Zulip's Notification Bot
// says it; Lanchat has no system bot, so the person who did it does.
func (s *Service) notifyResolved(actor store.User, streamID int64, topic string, resolving bool) error {
	what := "unresolved"
	if resolving {
		what = "resolved"
	}
	read := true
	_, err := s.SendMessage(actor, OutgoingMessage{Type: "stream", Stream: strconv.FormatInt(streamID, 10), Topic: topic,
		Content: fmt.Sprintf("@_**%s|%d** has marked this topic as %s.", actor.FullName, actor.ID, what), Client: "Lanchat", ReadBySender: &read, Notice: true})
	return err
}
