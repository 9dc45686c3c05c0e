package domain

import (
	"errors"
	"regexp"
	"slices"
	"strings"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// StreamSpec names a stream to subscribe to, created when missing.
type StreamSpec struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// SubscribeRequest is POST /users/me/subscriptions.
type SubscribeRequest struct {
	Streams    []StreamSpec
	InviteOnly bool
	// WebPublic asks for web-public streams, which this server does not
	// make (level 98's is_web_public).
	WebPublic bool
	// IsDefault makes the streams this request creates default streams
	// (administrators only; level 200).
	IsDefault  bool
	Principals []string // emails or IDs; empty means the actor
	// AuthorizationErrorsFatal makes an inaccessible private stream an error
	// instead of an entry in Unauthorized.
	AuthorizationErrorsFatal bool
	// GroupSettings are the group settings, by name, of the streams this
	// request creates; an absent one is its default.
	GroupSettings map[string]GroupSettingValue
	// Announce posts the public streams this request creates to the
	// new stream announcements stream.
	Announce bool
}

// SubscribeResult lists, by user ID (level 289; emails before), what
// changed.
type SubscribeResult struct {
	Subscribed        map[string][]string `json:"subscribed"`
	AlreadySubscribed map[string][]string `json:"already_subscribed"`
	Unauthorized      []string            `json:"unauthorized,omitempty"`
}

// Subscribe creates missing streams and subscribes the principals, in one
// transaction.
func (s *Service) Subscribe(actor store.User, req SubscribeRequest) (SubscribeResult, error) {
	res := SubscribeResult{Subscribed: map[string][]string{}, AlreadySubscribed: map[string][]string{}}
	if len(req.Streams) == 0 {
		return res, BadRequest("Nothing to do. Specify at least one of \"add\" or \"delete\".")
	}
	if req.IsDefault && !isAdmin(actor) {
		return res, ErrNotAdmin
	}
	if req.IsDefault && req.InviteOnly {
		return res, errPrivateDefault
	}
	var newStreams []store.Stream
	err := s.update(func(tx *store.Tx) (func(), error) {
		var out deliveries
		newStreams = nil
		users, err := principals(tx, actor, req.Principals)
		if err != nil {
			return nil, err
		}
		if len(req.Principals) > 0 && isGuest(actor) {
			return nil, BadRequest("Insufficient permission")
		}
		for _, spec := range req.Streams {
			st, err := tx.StreamByName(strings.TrimSpace(spec.Name))
			created := false
			switch {
			case errors.Is(err, store.ErrNotFound):
				if err := checkCanCreateStream(tx, actor, req.InviteOnly); err != nil {
					return nil, err
				}
				if req.WebPublic {
					return nil, errWebPublicDisabled
				}
				if st, err = s.createStream(tx, spec.Name, spec.Description, req.InviteOnly, actor.ID); err != nil {
					return nil, err
				}
				// Its creator administers it unless the request says otherwise.
				changes := map[string]GroupSettingChange{SettingAdministerChannel: {New: GroupSettingValue{Members: []int64{actor.ID}}}}
				for name, v := range req.GroupSettings {
					changes[name] = GroupSettingChange{New: v}
				}
				if _, err := changeStreamGroupSettings(tx, &st, changes); err != nil {
					return nil, err
				}
				if err := tx.PutStream(st); err != nil {
					return nil, err
				}
				created = true
				newStreams = append(newStreams, st)
				if req.IsDefault {
					if err := s.setDefaultStream(tx, &out, st, true); err != nil {
						return nil, err
					}
				}
			case err != nil:
				return nil, err
			case !canSeeStream(tx, actor, st) && !mayJoin(tx, actor, st, users) && !addsSubscribersTo(tx, actor, st):
				if req.AuthorizationErrorsFatal {
					return nil, BadRequest("Unable to access channel (%s).", spec.Name)
				}
				res.Unauthorized = append(res.Unauthorized, spec.Name)
				continue
			}
			if err := checkCanAddSubscribers(tx, actor, st, created, users); err != nil {
				return nil, err
			}
			var added []int64
			for _, u := range users {
				changed, err := subscribe(tx, u.ID, st)
				if err != nil {
					return nil, err
				}
				if changed {
					added = append(added, u.ID)
					res.Subscribed[itoa(u.ID)] = append(res.Subscribed[itoa(u.ID)], st.Name)
				} else {
					res.AlreadySubscribed[itoa(u.ID)] = append(res.AlreadySubscribed[itoa(u.ID)], st.Name)
				}
			}
			if err := s.subscriptionEvents(tx, &out, st, created, added); err != nil {
				return nil, err
			}
		}
		return out.publish, nil
	})
	if err == nil && req.Announce {
		s.announceNewStreams(actor, newStreams)
	}
	return res, internal("subscribe", err)
}

// mayJoin tells whether the actor may subscribe themselves alone to a
// stream they cannot see: as a member of its can_subscribe_group.
func mayJoin(tx *store.Tx, actor store.User, st store.Stream, users []store.User) bool {
	if len(users) != 1 || users[0].ID != actor.ID {
		return false
	}
	return holdsSubscribeGroup(tx, actor, st)
}

// addsSubscribersTo tells whether the stream's own
// can_add_subscribers_group holds u: it may add others to a private stream
// without being subscribed (level 349).
func addsSubscribersTo(tx *store.Tx, u store.User, st store.Stream) bool {
	allowed, err := streamAllows(tx, u, st, SettingAddSubscribers)
	return err == nil && allowed && !isGuest(u)
}

// holdsSubscribeGroup tells whether u is in a stream's
// can_subscribe_group, which never holds guests (the setting may not be
// role:everyone, as in Zulip).
func holdsSubscribeGroup(tx *store.Tx, u store.User, st store.Stream) bool {
	allowed, err := streamAllows(tx, u, st, SettingCanSubscribe)
	return err == nil && allowed && !isGuest(u)
}

// subscriptionEvents announces a (possibly new) stream and its new
// subscribers: stream create to its audience, subscription add to each new
// subscriber, peer_add to everyone else who can see the stream.
func (s *Service) subscriptionEvents(tx *store.Tx, out *deliveries, st store.Stream, created bool, added []int64) error {
	audience, err := streamAudience(tx, st)
	if err != nil {
		return err
	}
	if len(added) == 0 && !created {
		return nil
	}
	// A new stream is announced to its audience; an existing one to the
	// new subscribers who could not see it before: guests, for a public
	// stream (level 192), and those outside a private one.
	toldOfStream := audience
	if !created {
		toldOfStream = nil
		for _, uid := range added {
			if u, err := tx.User(uid); err == nil && !openTo(u, st) {
				toldOfStream = append(toldOfStream, uid)
			}
		}
	}
	if len(toldOfStream) > 0 {
		out.add(s, events.Event{"type": "stream", "op": "create", "streams": []StreamObject{s.streamObject(tx, st)}}, toldOfStream)
	}
	if len(added) == 0 {
		return nil
	}
	for _, uid := range added {
		sub, err := tx.Subscription(uid, st.ID)
		if err != nil {
			return err
		}
		obj := s.subscriptionObject(tx, st, sub, subscriberIDs)
		out.add(s, events.Event{"type": "subscription", "op": "add", "subscriptions": []SubscriptionObject{obj}}, []int64{uid})
	}
	peers := slices.DeleteFunc(slices.Clone(audience), func(id int64) bool { return slices.Contains(added, id) })
	out.add(s, events.Event{"type": "subscription", "op": "peer_add", "stream_ids": []int64{st.ID}, "user_ids": added}, peers)
	return nil
}

// principals resolves the users an action is for: the actor by default.
func principals(tx *store.Tx, actor store.User, refs []string) ([]store.User, error) {
	if len(refs) == 0 {
		return []store.User{actor}, nil
	}
	out := make([]store.User, 0, len(refs))
	for _, ref := range refs {
		u, err := userByRef(tx, strings.TrimSpace(ref))
		if err != nil || !u.IsActive {
			// Zulip answers so since feature level 208 (UNAUTHORIZED_PRINCIPAL before).
			return nil, BadRequest("No such user")
		}
		out = append(out, u)
	}
	return out, nil
}

// UnsubscribeResult lists stream names.
type UnsubscribeResult struct {
	Removed       []string `json:"removed"`
	NotSubscribed []string `json:"not_subscribed"`
}

// Unsubscribe removes principals (the actor by default; others need the
// stream's can_remove_subscribers_group) from streams. Settings are kept for a later resubscribe.
func (s *Service) Unsubscribe(actor store.User, names []string, refs []string) (UnsubscribeResult, error) {
	res := UnsubscribeResult{Removed: []string{}, NotSubscribed: []string{}}
	err := s.update(func(tx *store.Tx) (func(), error) {
		var out deliveries
		users, err := principals(tx, actor, refs)
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			st, err := lookupStream(tx, strings.TrimSpace(name))
			if err != nil || !hasMetadataAccess(tx, actor, st) {
				return nil, StreamDoesNotExist(strings.TrimSpace(name))
			}
			if err := checkCanRemoveSubscribers(tx, actor, st, users); err != nil {
				return nil, err
			}
			// Who could see the stream before: they hear of the departures.
			audience, err := streamAudience(tx, st)
			if err != nil {
				return nil, err
			}
			var removed []int64
			for _, u := range users {
				sub, err := tx.Subscription(u.ID, st.ID)
				if err != nil || !sub.Active {
					res.NotSubscribed = append(res.NotSubscribed, st.Name)
					continue
				}
				sub.Active = false
				if err := tx.PutSubscription(sub); err != nil {
					return nil, err
				}
				res.Removed = append(res.Removed, st.Name)
				removed = append(removed, u.ID)
				out.add(s, events.Event{"type": "subscription", "op": "remove",
					"subscriptions": []map[string]any{{"name": st.Name, "stream_id": st.ID}}}, []int64{u.ID})
			}
			if len(removed) > 0 {
				peers := slices.DeleteFunc(slices.Clone(audience), func(id int64) bool { return slices.Contains(removed, id) })
				out.add(s, events.Event{"type": "subscription", "op": "peer_remove", "stream_ids": []int64{st.ID}, "user_ids": removed}, peers)
			}
		}
		return out.publish, nil
	})
	return res, internal("unsubscribe", err)
}

// Subscriptions lists the viewer's active subscriptions as spec 2.4 has
// them: subscribers always (as emails), and every notification setting a
// boolean, an inherited one resolved from the user's defaults where Zulip
// sends null.
func (s *Service) Subscriptions(viewer store.User) ([]SubscriptionObject, error) {
	out := []SubscriptionObject{}
	err := s.store.View(func(tx *store.Tx) error {
		subs, err := tx.UserSubscriptions(viewer.ID)
		if err != nil {
			return err
		}
		u, err := tx.User(viewer.ID)
		if err != nil {
			return err
		}
		defaults := userSettings(u)
		inherit := func(setting *bool, name string) *bool {
			if setting != nil {
				return setting
			}
			b, _ := defaults[name].(bool)
			return &b
		}
		for _, sub := range subs {
			if !sub.Active {
				continue
			}
			st, err := tx.Stream(sub.StreamID)
			if err != nil {
				continue
			}
			o := s.subscriptionObject(tx, st, sub, subscriberEmails)
			o.DesktopNotifications = inherit(o.DesktopNotifications, "enable_stream_desktop_notifications")
			o.AudibleNotifications = inherit(o.AudibleNotifications, "enable_stream_audible_notifications")
			o.PushNotifications = inherit(o.PushNotifications, "enable_stream_push_notifications")
			o.EmailNotifications = inherit(o.EmailNotifications, "enable_stream_email_notifications")
			o.WildcardMentionsNotify = inherit(o.WildcardMentionsNotify, "wildcard_mentions_notify")
			out = append(out, o)
		}
		return nil
	})
	return out, internal("list subscriptions", err)
}

// StreamSubscribers lists a visible stream's subscriber IDs.
func (s *Service) StreamSubscribers(viewer store.User, streamID int64) ([]int64, error) {
	var ids []int64
	err := s.store.View(func(tx *store.Tx) error {
		if _, err := metadataStreamByID(tx, viewer, streamID); err != nil {
			return err
		}
		ids = tx.StreamSubscriberIDs(streamID)
		return nil
	})
	if ids == nil {
		ids = []int64{}
	}
	return ids, internal("list stream members", err)
}

// SubscriptionStatus tells whether a user is subscribed to a stream (GET
// /users/{id}/subscriptions/{stream_id}), as Zulip answers it: the user must
// be an active person (a bot is "No such user"), and the stream one the
// viewer may see.
func (s *Service) SubscriptionStatus(viewer store.User, userID, streamID int64) (bool, error) {
	var subscribed bool
	err := s.store.View(func(tx *store.Tx) error {
		u, err := tx.User(userID)
		switch {
		case errors.Is(err, store.ErrNotFound) || err == nil && u.IsBot():
			return BadRequest("No such user")
		case err != nil:
			return err
		case !u.IsActive:
			return BadRequest("User is deactivated")
		}
		if _, err := metadataStreamByID(tx, viewer, streamID); err != nil {
			return err
		}
		subscribed = tx.IsSubscribed(userID, streamID)
		return nil
	})
	return subscribed, internal("subscription status", err)
}

// PropertyChange is one entry of POST /users/me/subscriptions/properties.
type PropertyChange struct {
	StreamID int64  `json:"stream_id"`
	Property string `json:"property"`
	Value    any    `json:"value"`
}

var colorPattern = regexp.MustCompile(`^#[0-9a-fA-F]{6}$`)

// UpdateSubscriptionProperties changes the actor's settings for streams they
// are subscribed to, all or nothing.
func (s *Service) UpdateSubscriptionProperties(actor store.User, changes []PropertyChange) error {
	err := s.update(func(tx *store.Tx) (func(), error) {
		var out deliveries
		for _, ch := range changes {
			sub, err := tx.Subscription(actor.ID, ch.StreamID)
			if err != nil || !sub.Active {
				return nil, BadRequest("Not subscribed to channel ID %d", ch.StreamID)
			}
			if err := applyProperty(&sub, ch); err != nil {
				return nil, err
			}
			if err := tx.PutSubscription(sub); err != nil {
				return nil, err
			}
			update := func(property string, value any) {
				out.add(s, events.Event{"type": "subscription", "op": "update", "stream_id": ch.StreamID,
					"property": property, "value": value}, []int64{actor.ID})
			}
			switch ch.Property {
			case "is_muted", "in_home_view": // Zulip announces muting both ways
				update("is_muted", sub.IsMuted)
				update("in_home_view", !sub.IsMuted)
			case "color":
				update("color", sub.Color)
			default:
				update(ch.Property, ch.Value)
			}
		}
		return out.publish, nil
	})
	return internal("update subscription properties", err)
}

func applyProperty(sub *store.Subscription, ch PropertyChange) error {
	boolValue := func() (bool, error) {
		b, ok := ch.Value.(bool)
		if !ok {
			return false, BadRequest("%s is not a boolean", ch.Property)
		}
		return b, nil
	}
	var err error
	var b bool
	switch ch.Property {
	case "color":
		c, ok := ch.Value.(string)
		if !ok || !colorPattern.MatchString(c) {
			return BadRequest("color is not a valid hex color code")
		}
		sub.Color = strings.ToLower(c)
	case "pin_to_top":
		sub.PinToTop, err = boolValue()
	case "is_muted":
		sub.IsMuted, err = boolValue()
	case "in_home_view":
		b, err = boolValue()
		sub.IsMuted = !b
	case "desktop_notifications":
		b, err = boolValue()
		sub.DesktopNotifications = &b
	case "audible_notifications":
		b, err = boolValue()
		sub.AudibleNotifications = &b
	case "push_notifications":
		b, err = boolValue()
		sub.PushNotifications = &b
	case "email_notifications":
		b, err = boolValue()
		sub.EmailNotifications = &b
	case "wildcard_mentions_notify":
		b, err = boolValue()
		sub.WildcardMentionsNotify = &b
	default:
		return BadRequest("Unknown subscription property: %s", ch.Property)
	}
	return err
}
