package domain

import (
	"cmp"
	"errors"
	"maps"
	"slices"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// MessageEdit is PATCH /messages/{id}: any of content, topic and stream.
type MessageEdit struct {
	Content       *string
	Topic         *string
	StreamID      int64  // 0: stay in the stream
	PropagateMode string // change_one (default), change_later, change_all
}

// EditMessage changes a message's content (its sender only) and moves it
// or its topic (sender or administrator; other streams: administrators),
// recording each change in the message's edit history. It returns the
// uploads a content edit left linked only from edit history.
func (s *Service) EditMessage(actor store.User, id int64, e MessageEdit) ([]Attachment, error) {
	switch e.PropagateMode {
	case "":
		e.PropagateMode = "change_one"
	case "change_one", "change_later", "change_all":
	default:
		return nil, InvalidArgument("propagate_mode", "must be change_one, change_later or change_all")
	}
	var content string
	var err error
	if e.Content != nil {
		if content, err = normalizeContent(*e.Content); err != nil {
			return nil, err
		}
	}
	var topic string
	if e.Topic != nil {
		if topic, err = normalizeTopic(*e.Topic); err != nil {
			return nil, err
		}
	}
	now := s.now().Unix()
	var resolved struct {
		streamID  int64
		topic     string
		resolving bool
	}
	var detached []Attachment
	err = s.update(func(tx *store.Tx) (func(), error) {
		resolved.streamID, detached = 0, []Attachment{}
		m, _, err := accessMessage(tx, actor, id, streamCache{})
		if err != nil {
			return nil, err
		}
		e, err := withoutUnchangedTopic(e, topic, m)
		if err != nil {
			return nil, err
		}
		if e.Content != nil && len(m.Submessages) > 0 {
			return nil, BadRequest("Widgets cannot be edited.")
		}
		ev := events.Event{"type": "update_message", "user_id": actor.ID, "edit_timestamp": now,
			"message_id": id, "message_ids": []int64{id}, "rendering_only": false}
		if e.Content != nil && content != m.Content {
			if m.SenderID != actor.ID {
				return nil, BadRequest("You don't have permission to edit this message")
			}
			r := s.render(tx, actor, content)
			if err := checkGroupMentions(tx, actor, r); err != nil {
				return nil, err
			}
			if !m.IsPrivate() {
				target := messageTarget{stream: store.Stream{ID: m.StreamID}, topic: m.Topic}
				if err := checkWildcardMentions(tx, actor, target, r); err != nil {
					return nil, err
				}
			}
			edited := m
			edited.Content, edited.Rendered, edited.IsMe = content, r.HTML, r.IsMeMessage
			edited.HasLink, edited.HasImage, edited.HasAttachment = r.HasLink, r.HasImage, r.HasAttachment
			edit := store.Edit{Timestamp: now, UserID: actor.ID, PrevContent: m.Content, PrevRendered: m.Rendered}
			if err := updateMentionFlags(tx, edited, r); err != nil {
				return nil, err
			}
			if err := saveEdit(tx, m, edited, edit); err != nil {
				return nil, err
			}
			if detached, err = detachedUploads(tx, actor.ID, m.Content, content); err != nil {
				return nil, err
			}
			ev["orig_content"], ev["orig_rendered_content"] = m.Content, m.Rendered
			ev["content"], ev["rendered_content"], ev["is_me_message"] = content, r.HTML, r.IsMeMessage
		}
		if e.Topic != nil || e.StreamID != 0 {
			moved, dest, err := s.moveMessages(tx, actor, m, topic, e, now)
			if err != nil {
				return nil, err
			}
			if resolving, toggles := resolveToggle(m.Topic, topic); toggles && dest == m.StreamID {
				resolved.streamID, resolved.topic, resolved.resolving = dest, topic, resolving
			}
			orig, _ := tx.Stream(m.StreamID)
			ev["message_ids"], ev["propagate_mode"] = moved, e.PropagateMode
			ev["stream_id"], ev["stream_name"], ev["orig_subject"] = m.StreamID, orig.Name, m.Topic
			ev["subject"], ev["topic_links"] = cmp.Or(topic, m.Topic), s.topicLinks(cmp.Or(topic, m.Topic))
			if dest != m.StreamID {
				ev["new_stream_id"] = dest
			}
		}
		return s.perHolderEvent(tx, id, ev)
	})
	if err == nil && resolved.streamID != 0 {
		err = s.notifyResolved(actor, resolved.streamID, resolved.topic, resolved.resolving)
	}
	return detached, internal("edit message", err)
}

// withoutUnchangedTopic treats a topic equal to the message's own as not
// given, as Zulip does: clients such as zulip-terminal send the topic with
// every edit of a stream message, so a content edit is not a move. What is
// left must change something, and a propagate mode other than change_one
// needs a move to propagate.
func withoutUnchangedTopic(e MessageEdit, topic string, m store.Message) (MessageEdit, error) {
	if e.Topic != nil && topic == m.Topic {
		e.Topic = nil
	}
	if e.Content == nil && e.Topic == nil && e.StreamID == 0 {
		return e, BadRequest("Nothing to change")
	}
	if e.PropagateMode != "change_one" && e.Topic == nil && e.StreamID == 0 {
		return e, BadRequest("Invalid propagate_mode without topic edit")
	}
	return e, nil
}

// perHolderEvent publishes ev to every user holding the message, each with
// their own flags on it.
func (s *Service) perHolderEvent(tx *store.Tx, id int64, ev events.Event) (func(), error) {
	users, err := activeUserIDs(tx)
	if err != nil {
		return nil, err
	}
	var out deliveries
	for _, uid := range tx.MessageUserIDs(id, users) {
		f, _ := tx.Flags(uid, id)
		e := maps.Clone(ev)
		e["flags"] = f.Names()
		out.add(s, e, []int64{uid})
	}
	return out.publish, nil
}

func saveEdit(tx *store.Tx, old, m store.Message, edit store.Edit) error {
	m.Edits = append(slices.Clone(m.Edits), edit)
	m.LastEditTimestamp = edit.Timestamp
	return tx.UpdateMessage(old, m)
}

// moveMessages renames a message's topic and/or moves it to another stream,
// with the messages propagate mode selects. It returns the moved IDs and the
// destination stream.
func (s *Service) moveMessages(tx *store.Tx, actor store.User, m store.Message, topic string, e MessageEdit, now int64) ([]int64, int64, error) {
	if m.IsPrivate() {
		return nil, 0, BadRequest("Private messages cannot have topics.")
	}
	if topic == "" {
		topic = m.Topic
	}
	_, resolveOnly := resolveToggle(m.Topic, topic)
	resolveOnly = resolveOnly && (e.StreamID == 0 || e.StreamID == m.StreamID)
	ix, err := loadGroups(tx)
	if err != nil {
		return nil, 0, err
	}
	r, err := tx.Realm()
	if err != nil {
		return nil, 0, err
	}
	// Renaming a topic is for each message's sender and for
	// can_move_messages_between_topics_group, checked for every message the
	// move takes along; moving to another stream is for administrators.
	// Resolving is for can_resolve_topics_group (level 367).
	movers := realmSetting(ix, r, SettingMoveBetweenTopics)
	mayMove := func(m store.Message) bool {
		return topic == m.Topic || m.SenderID == actor.ID || ix.holds(movers, actor)
	}
	if resolveOnly {
		if !ix.holds(realmSetting(ix, r, SettingResolveTopics), actor) {
			return nil, 0, BadRequest("You don't have permission to resolve topics.")
		}
	} else if !mayMove(m) {
		return nil, 0, errMayNotMove
	}
	// A deleted stream's messages stay with those who received them, but
	// are not moved: the stream is unknown now, as to every other action.
	dest, err := streamByIDFor(tx, m.StreamID, func(store.Stream) bool { return true })
	if err != nil {
		return nil, 0, err
	}
	if e.StreamID != 0 && e.StreamID != m.StreamID {
		// Level 310: the organization's can_move_messages_between_channels_group.
		if ok, err := realmAllows(tx, actor, SettingMoveBetweenChannels); err != nil || !ok {
			return nil, 0, cmpErr(err, BadRequest("You don't have permission to move this message"))
		}
		if dest, err = visibleStreamByID(tx, actor, e.StreamID); err != nil {
			return nil, 0, err
		}
	}
	if dest.ID == m.StreamID && topic == m.Topic {
		return nil, 0, BadRequest("Nothing to change")
	}
	ids := []int64{m.ID}
	if e.PropagateMode != "change_one" {
		ids = nil
		from := int64(0)
		if e.PropagateMode == "change_later" {
			from = m.ID
		}
		tx.Scan(store.TopicRange(m.StreamID, m.Topic), from, false, func(id int64) bool {
			ids = append(ids, id)
			return true
		})
	}
	recipientID, err := tx.RecipientID(dest.ID, nil)
	if err != nil {
		return nil, 0, err
	}
	for _, id := range ids {
		old, err := tx.Message(id)
		if err != nil {
			continue
		}
		if !resolveOnly && !mayMove(old) {
			return nil, 0, errMayNotMove
		}
		moved := old
		edit := store.Edit{Timestamp: now, UserID: actor.ID}
		if topic != old.Topic {
			edit.PrevTopic, moved.Topic = old.Topic, topic
		}
		if dest.ID != old.StreamID {
			edit.PrevStreamID = old.StreamID
			moved.StreamID, moved.RecipientID = dest.ID, recipientID
		}
		// Saved first: the store carries everyone's flags to the new stream.
		if err := saveEdit(tx, old, moved, edit); err != nil {
			return nil, 0, err
		}
		if dest.ID != old.StreamID {
			if err := regrantAccess(tx, moved); err != nil {
				return nil, 0, err
			}
		}
	}
	return ids, dest.ID, nil
}

var errMayNotMove = BadRequest("You don't have permission to edit this message")

// regrantAccess gives a moved message to its new stream's subscribers (as
// already read: they were not notified of it) and takes it from users who
// can no longer see it.
func regrantAccess(tx *store.Tx, m store.Message) error {
	st, err := tx.Stream(m.StreamID)
	if err != nil {
		return err
	}
	subscribers := tx.StreamSubscriberIDs(st.ID)
	for _, uid := range subscribers {
		if _, ok := tx.Flags(uid, m.ID); !ok {
			if err := tx.SetFlags(uid, m.ID, store.FlagRead); err != nil {
				return err
			}
		}
	}
	if !st.InviteOnly {
		return nil
	}
	users, err := tx.Users()
	if err != nil {
		return err
	}
	for _, u := range users {
		if u.ID != m.SenderID && !slices.Contains(subscribers, u.ID) {
			if err := tx.DeleteFlags(u.ID, m.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// updateMentionFlags recomputes mention flags after a content edit for every
// user holding the message.
func updateMentionFlags(tx *store.Tx, m store.Message, r rendered) error {
	holders := m.PrivateUserIDs
	if !m.IsPrivate() {
		holders = tx.StreamSubscriberIDs(m.StreamID)
	}
	sender, err := tx.User(m.SenderID)
	if err != nil {
		return err
	}
	fresh := recipientFlags(tx, sender, holders, r, readBySender)
	const mentionBits = store.AnyMention
	for uid, f := range fresh.All() {
		old, ok := tx.Flags(uid, m.ID)
		if !ok || uid == m.SenderID {
			continue
		}
		next := old&^mentionBits | f&mentionBits
		if next != old {
			if err := tx.SetFlags(uid, m.ID, next); err != nil {
				return err
			}
		}
	}
	return nil
}

// DeleteMessage removes a message for good, for those the organization's
// can_delete_any_message_group lets (level 281), and for its sender when
// can_delete_own_message_group does (level 291).
// Holders get a delete_message event carrying both message_id (for clients
// without bulk_message_deletion) and message_ids.
func (s *Service) DeleteMessage(actor store.User, id int64) error {
	err := s.update(func(tx *store.Tx) (func(), error) {
		m, _, err := accessMessage(tx, actor, id, streamCache{})
		if err != nil {
			return nil, err
		}
		ok, err := realmAllows(tx, actor, SettingDeleteAnyMessage)
		if err == nil && !ok && m.SenderID == actor.ID {
			ok, err = realmAllows(tx, actor, SettingDeleteOwnMessage)
		}
		if err != nil || !ok {
			return nil, cmpErr(err, BadRequest("You don't have permission to delete this message"))
		}
		var out deliveries
		if err := s.deleteMessage(tx, &out, actor, m); err != nil {
			return nil, err
		}
		if !m.IsPrivate() {
			if err := s.firstMessageUpdate(tx, &out, m); err != nil {
				return nil, err
			}
		}
		return out.publish, nil
	})
	return internal("delete message", err)
}

// DeleteTopic is POST /streams/{id}/delete_topic: an administrator deletes
// every message of a topic of a stream they see, in one write, so the
// answer's complete is always true (level 211).
func (s *Service) DeleteTopic(actor store.User, streamID int64, topic string) error {
	if !isAdmin(actor) {
		return ErrAdminRequired
	}
	err := s.update(func(tx *store.Tx) (func(), error) {
		st, err := visibleStreamByID(tx, actor, streamID)
		if err != nil {
			return nil, err
		}
		var doomed []store.Message
		folded := store.FoldTopic(topic)
		if rid, ok := tx.LookupRecipientID(st.ID, nil); ok {
			tx.Scan(store.RecipientRange(rid), 0, false, func(id int64) bool {
				if m, err := tx.Message(id); err == nil && store.FoldTopic(m.Topic) == folded {
					doomed = append(doomed, m)
				}
				return true
			})
		}
		var out deliveries
		for _, m := range doomed {
			if err := s.deleteMessage(tx, &out, actor, m); err != nil {
				return nil, err
			}
		}
		if len(doomed) > 0 {
			if err := s.firstMessageUpdate(tx, &out, doomed[0]); err != nil {
				return nil, err
			}
		}
		return out.publish, nil
	})
	return internal("delete topic", err)
}

// deleteMessage deletes m inside tx and adds its delete_message event for
// its holders and the deleter, who is told even without holding it (level
// 274).
func (s *Service) deleteMessage(tx *store.Tx, out *deliveries, actor store.User, m store.Message) error {
	users, err := allUserIDs(tx)
	if err != nil {
		return err
	}
	holders := tx.MessageUserIDs(m.ID, users)
	if err := tx.DeleteMessage(m, holders); err != nil {
		return err
	}
	ev := events.Event{"type": "delete_message", "message_id": m.ID, "message_ids": []int64{m.ID}, "message_type": "private"}
	if !m.IsPrivate() {
		ev["message_type"], ev["stream_id"], ev["topic"] = "stream", m.StreamID, m.Topic
	}
	told := holders
	if !slices.Contains(told, actor.ID) {
		told = append(slices.Clone(holders), actor.ID)
	}
	out.add(s, ev, told)
	return nil
}

// firstMessageUpdate tells those who see a stream its new first_message_id
// when the deleted message m was its first (level 256).
func (s *Service) firstMessageUpdate(tx *store.Tx, out *deliveries, m store.Message) error {
	st, err := tx.Stream(m.StreamID)
	if errors.Is(err, store.ErrNotFound) {
		return nil // a deleted stream's message: no one sees the stream
	}
	if err != nil {
		return err
	}
	first := s.streamObject(tx, st).FirstMessageID
	if first != nil && *first < m.ID {
		return nil
	}
	audience, err := streamAudience(tx, st)
	if err != nil {
		return err
	}
	out.add(s, events.Event{"type": "stream", "op": "update", "stream_id": st.ID, "name": st.Name,
		"property": "first_message_id", "value": first}, audience)
	return nil
}
