package domain

import (
	"errors"
	"slices"
	"strings"
	"unicode/utf8"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// StreamChange is PATCH /streams/{id}: any of a new name, description,
// privacy, whether new people join it (is_default_stream, level 200) and
// its group settings by name.
type StreamChange struct {
	NewName     *string
	Description *string
	InviteOnly  *bool
	// HistoryPublic and WebPublic are only checked: every stream's history
	// is public to its subscribers, and no stream is web-public.
	HistoryPublic *bool
	WebPublic     *bool
	IsDefault     *bool
	GroupSettings map[string]GroupSettingChange
}

// errWebPublicDisabled answers a request for a web-public stream, as a Zulip
// server without web-public streams (server_web_public_streams_enabled).
var errWebPublicDisabled = BadRequest("Web-public channels are not enabled.")

// checkStreamAccessChange applies Zulip's rules on the privacy a change
// proposes (level 136): a web-public stream is neither private nor with
// protected history, a public stream's history is public to its
// subscribers, and no stream is made web-public here.
func checkStreamAccessChange(st store.Stream, ch StreamChange) error {
	private := st.InviteOnly
	if ch.InviteOnly != nil {
		private = *ch.InviteOnly
	}
	// Unasked, a privacy change brings its usual history: protected for
	// private streams (Lanchat keeps it public; see api-coverage.md).
	historyPublic := ch.InviteOnly == nil || !*ch.InviteOnly
	if ch.HistoryPublic != nil {
		historyPublic = *ch.HistoryPublic
	}
	webPublic := ch.WebPublic != nil && *ch.WebPublic
	if webPublic && (private || !historyPublic) || !private && !historyPublic {
		return BadRequest("Invalid parameters")
	}
	if webPublic {
		return errWebPublicDisabled
	}
	return nil
}

// UpdateStream renames, redescribes or changes the privacy of a stream
// (administrators and its can_administer_channel_group; making it a default
// stream takes an administrator) and tells everyone who can see it; a privacy change
// also tells those who gain or lose sight of it that it appeared or went.
func (s *Service) UpdateStream(actor store.User, streamID int64, ch StreamChange) error {
	if ch.IsDefault != nil && !isAdmin(actor) {
		return ErrNotAdmin
	}
	if ch.NewName == nil && ch.Description == nil && ch.InviteOnly == nil && ch.HistoryPublic == nil && ch.WebPublic == nil &&
		ch.IsDefault == nil && len(ch.GroupSettings) == 0 {
		return BadRequest("No new data supplied")
	}
	err := s.update(func(tx *store.Tx) (func(), error) {
		st, err := metadataStreamByID(tx, actor, streamID)
		if err != nil {
			return nil, err
		}
		if err := checkCanAdministerStream(tx, actor, st); err != nil {
			return nil, err
		}
		if err := checkStreamAccessChange(st, ch); err != nil {
			return nil, err
		}
		// Privacy takes content access, which metadata access is not (level 349).
		if ch.InviteOnly != nil && !canReadStream(tx, actor, st) {
			return nil, BadRequest("Invalid channel ID")
		}
		before, err := streamAudience(tx, st)
		if err != nil {
			return nil, err
		}
		var out deliveries
		changes := []events.Event{}
		oldName := st.Name
		if ch.NewName != nil && strings.TrimSpace(*ch.NewName) != st.Name {
			name, err := validateStreamName(*ch.NewName)
			if err != nil {
				return nil, err
			}
			if other, err := tx.StreamByName(name); err == nil && other.ID != st.ID {
				return nil, BadRequest("Channel name '%s' is already taken.", name)
			} else if err != nil && !errors.Is(err, store.ErrNotFound) {
				return nil, err
			}
			st.Name = name
			changes = append(changes, events.Event{"property": "name", "value": name})
		}
		if ch.Description != nil && *ch.Description != st.Description {
			if utf8.RuneCountInString(*ch.Description) > MaxStreamDescriptionLength {
				return nil, BadRequest("Channel description too long (limit: %d characters).", MaxStreamDescriptionLength)
			}
			st.Description = *ch.Description
			changes = append(changes, events.Event{"property": "description", "value": st.Description,
				"rendered_description": s.render(tx, store.User{}, st.Description).HTML})
		}
		if ch.InviteOnly != nil && *ch.InviteOnly != st.InviteOnly {
			st.InviteOnly = *ch.InviteOnly
			changes = append(changes, events.Event{"property": "invite_only", "value": st.InviteOnly,
				"history_public_to_subscribers": true, "is_web_public": false})
		}
		settings, err := changeStreamGroupSettings(tx, &st, ch.GroupSettings)
		if err != nil {
			return nil, err
		}
		changes = append(changes, settings...)
		isDefault, err := isDefaultStream(tx, st)
		if err != nil {
			return nil, err
		}
		if ch.IsDefault != nil {
			isDefault = *ch.IsDefault
		}
		if isDefault && st.InviteOnly {
			return nil, BadRequest("A default channel cannot be private.")
		}
		if err := tx.PutStream(st); err != nil {
			return nil, err
		}
		if ch.IsDefault != nil {
			if err := s.setDefaultStream(tx, &out, st, *ch.IsDefault); err != nil {
				return nil, err
			}
		}
		after, err := streamAudience(tx, st)
		if err != nil {
			return nil, err
		}
		gone := slices.DeleteFunc(slices.Clone(before), func(id int64) bool { return slices.Contains(after, id) })
		arrived := slices.DeleteFunc(slices.Clone(after), func(id int64) bool { return slices.Contains(before, id) })
		if len(gone) > 0 {
			out.add(s, streamDeleteEvent(st), gone)
		}
		if len(arrived) > 0 {
			out.add(s, events.Event{"type": "stream", "op": "create", "streams": []StreamObject{s.streamObject(tx, st)}}, arrived)
		}
		// Those who just gained sight of it got the new state with create.
		stayed := slices.DeleteFunc(slices.Clone(after), func(id int64) bool { return slices.Contains(arrived, id) })
		for _, c := range changes {
			c["type"], c["op"], c["stream_id"], c["name"] = "stream", "update", st.ID, oldName
			out.add(s, c, stayed)
		}
		return out.publish, nil
	})
	return internal("update stream", err)
}

// streamDeleteEvent lists stream_ids, as Zulip's does since level 343; its
// deprecated streams keep only each stream's ID.
func streamDeleteEvent(st store.Stream) events.Event {
	return events.Event{"type": "stream", "op": "delete", "stream_ids": []int64{st.ID}, "streams": []map[string]int64{{"stream_id": st.ID}}}
}

// DeleteStream deactivates a stream (administrators only): everyone is
// unsubscribed, the name is freed, it stops being a default stream, and its
// messages leave every view.
func (s *Service) DeleteStream(actor store.User, streamID int64) error {
	if !isAdmin(actor) {
		return ErrNotAdmin
	}
	err := s.update(func(tx *store.Tx) (func(), error) {
		st, err := visibleStreamByID(tx, actor, streamID)
		if err != nil {
			return nil, err
		}
		audience, err := streamAudience(tx, st)
		if err != nil {
			return nil, err
		}
		var out deliveries
		subscribers := tx.StreamSubscriberIDs(st.ID)
		for _, uid := range subscribers {
			sub, err := tx.Subscription(uid, st.ID)
			if err != nil {
				return nil, err
			}
			sub.Active = false
			if err := tx.PutSubscription(sub); err != nil {
				return nil, err
			}
		}
		if len(subscribers) > 0 {
			out.add(s, events.Event{"type": "subscription", "op": "remove",
				"subscriptions": []map[string]any{{"name": st.Name, "stream_id": st.ID}}}, subscribers)
		}
		if err := s.setDefaultStream(tx, &out, st, false); err != nil {
			return nil, err
		}
		st.Deactivated = true
		if err := tx.PutStream(st); err != nil {
			return nil, err
		}
		out.add(s, streamDeleteEvent(st), audience)
		return out.publish, nil
	})
	return internal("delete stream", err)
}
