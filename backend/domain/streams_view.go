package domain

import (
	"cmp"
	"lanchat/backend/store"
	"slices"
)

// StreamProperties are a stream's own properties, which every wire form of
// a stream carries.
type StreamProperties struct {
	StreamID                   int64  `json:"stream_id"`
	Name                       string `json:"name"`
	Description                string `json:"description"`
	RenderedDescription        string `json:"rendered_description"`
	InviteOnly                 bool   `json:"invite_only"`
	IsWebPublic                bool   `json:"is_web_public"`
	HistoryPublicToSubscribers bool   `json:"history_public_to_subscribers"`
	DateCreated                int64  `json:"date_created"`
	CreatorID                  *int64 `json:"creator_id"`
	FirstMessageID             *int64 `json:"first_message_id"`
	MessageRetentionDays       *int   `json:"message_retention_days"`
	StreamPostPolicy           int    `json:"stream_post_policy"`
	IsAnnouncementOnly         bool   `json:"is_announcement_only"`
	// IsArchived (level 315) is always false: Lanchat deletes a stream
	// rather than archiving it (a documented exception).
	IsArchived bool `json:"is_archived"`
	// CanRemoveSubscribersGroup may remove others from the stream
	// (administrators by default).
	CanRemoveSubscribersGroup GroupSettingValue `json:"can_remove_subscribers_group"`
	// CanAdministerChannelGroup may change the stream besides
	// administrators (level 325).
	CanAdministerChannelGroup GroupSettingValue `json:"can_administer_channel_group"`
	// CanSendMessageGroup may post in the stream (level 333), which
	// stream_post_policy and is_announcement_only approximate.
	CanSendMessageGroup GroupSettingValue `json:"can_send_message_group"`
	// CanAddSubscribersGroup may subscribe others besides the
	// organization's can_add_subscribers_group (level 342).
	CanAddSubscribersGroup GroupSettingValue `json:"can_add_subscribers_group"`
	// IsRecentlyActive (level 323): created or written in within
	// recentActivityDays.
	IsRecentlyActive bool `json:"is_recently_active"`
	// CanSubscribeGroup may subscribe themselves (level 357).
	CanSubscribeGroup GroupSettingValue `json:"can_subscribe_group"`
}

// recentActivityDays is how long a stream counts as recently active after
// its creation or its newest message (Zulip's demote_inactive_streams
// window).
const recentActivityDays = 180

// StreamObject is a stream as GET /streams and register show it.
type StreamObject struct {
	StreamProperties
	StreamWeeklyTraffic *int `json:"stream_weekly_traffic"`
}

// SubscriptionObject is a stream with the viewer's settings for it (spec
// 2.4 plus what Zulip clients read).
type SubscriptionObject struct {
	StreamObject
	Color                  string `json:"color"`
	IsMuted                bool   `json:"is_muted"`
	InHomeView             bool   `json:"in_home_view"`
	PinToTop               bool   `json:"pin_to_top"`
	DesktopNotifications   *bool  `json:"desktop_notifications"`
	AudibleNotifications   *bool  `json:"audible_notifications"`
	PushNotifications      *bool  `json:"push_notifications"`
	EmailNotifications     *bool  `json:"email_notifications"`
	WildcardMentionsNotify *bool  `json:"wildcard_mentions_notify"`
	EmailAddress           string `json:"email_address"`
	// Subscribers are present only when asked for: emails in GET
	// /users/me/subscriptions (spec 2.4), IDs in register and events as
	// Zulip's clients expect there.
	Subscribers any `json:"subscribers,omitempty"`
}

// subscriberForm says how a subscription lists its subscribers.
type subscriberForm int

const (
	noSubscribers subscriberForm = iota
	subscriberEmails
	subscriberIDs
)

func (s *Service) streamObject(tx *store.Tx, st store.Stream) StreamObject {
	o := StreamObject{StreamProperties: StreamProperties{
		StreamID:                   st.ID,
		Name:                       st.Name,
		Description:                st.Description,
		RenderedDescription:        s.render(tx, store.User{Role: store.RoleMember}, st.Description).HTML,
		InviteOnly:                 st.InviteOnly,
		HistoryPublicToSubscribers: true,
		DateCreated:                st.DateCreated,
	}}
	if st.CreatorID != 0 {
		creator := st.CreatorID
		o.CreatorID = &creator
	}
	// Every store has the system groups from its migrations.
	if ix, err := loadGroups(tx); err == nil {
		o.CanRemoveSubscribersGroup = settingValue(streamSetting(ix, st, SettingRemoveSubscribers))
		o.CanSubscribeGroup = settingValue(streamSetting(ix, st, SettingCanSubscribe))
		o.CanAdministerChannelGroup = settingValue(streamSetting(ix, st, SettingAdministerChannel))
		senders := streamSetting(ix, st, SettingSendMessage)
		o.CanSendMessageGroup = settingValue(senders)
		o.CanAddSubscribersGroup = settingValue(streamSetting(ix, st, SettingAddSubscribers))
		o.StreamPostPolicy = approximatePolicy(ix, senders)
		o.IsAnnouncementOnly = o.StreamPostPolicy == 2
	}
	if st.Description == "" {
		o.RenderedDescription = ""
	}
	since := s.now().Unix() - recentActivityDays*24*3600
	o.IsRecentlyActive = st.DateCreated >= since
	if rid, ok := tx.LookupRecipientID(st.ID, nil); ok {
		tx.Scan(store.RecipientRange(rid), 0, false, func(id int64) bool {
			o.FirstMessageID = &id
			return false
		})
		tx.Scan(store.RecipientRange(rid), AnchorNewest, true, func(id int64) bool {
			if m, err := tx.Message(id); err == nil && m.Timestamp >= since {
				o.IsRecentlyActive = true
			}
			return false
		})
	}
	return o
}

func (s *Service) subscriptionObject(tx *store.Tx, st store.Stream, sub store.Subscription, form subscriberForm) SubscriptionObject {
	o := SubscriptionObject{
		StreamObject:           s.streamObject(tx, st),
		Color:                  sub.Color,
		IsMuted:                sub.IsMuted,
		InHomeView:             !sub.IsMuted,
		PinToTop:               sub.PinToTop,
		DesktopNotifications:   sub.DesktopNotifications,
		AudibleNotifications:   sub.AudibleNotifications,
		PushNotifications:      sub.PushNotifications,
		EmailNotifications:     sub.EmailNotifications,
		WildcardMentionsNotify: sub.WildcardMentionsNotify,
	}
	switch form {
	case subscriberIDs:
		o.Subscribers = append([]int64{}, tx.StreamSubscriberIDs(st.ID)...)
	case subscriberEmails:
		emails := []string{}
		for _, id := range tx.StreamSubscriberIDs(st.ID) {
			if u, err := tx.User(id); err == nil {
				emails = append(emails, u.Email)
			}
		}
		o.Subscribers = emails
	}
	return o
}

// StreamFilter chooses which streams GET /streams lists.
type StreamFilter struct {
	IncludePublic, IncludeSubscribed bool
	// IncludeAll adds every stream the viewer knows of: all of them for an
	// administrator (level 356: include_all, which include_all_active was,
	// for everyone).
	IncludeAll bool
	// IncludeCanAccessContent adds the streams whose messages the viewer
	// may read: public ones (not for guests), subscribed ones, and those
	// whose can_subscribe_group holds them (level 356).
	IncludeCanAccessContent bool
}

// Streams lists the streams the viewer may see that match the filter.
func (s *Service) Streams(viewer store.User, f StreamFilter) ([]StreamObject, error) {
	out := []StreamObject{}
	err := s.store.View(func(tx *store.Tx) error {
		streams, err := tx.Streams()
		if err != nil {
			return err
		}
		for _, st := range streams {
			subscribed := tx.IsSubscribed(viewer.ID, st.ID)
			public := openTo(viewer, st)
			joinable := holdsSubscribeGroup(tx, viewer, st)
			known := subscribed || public || joinable || isAdmin(viewer)
			if (f.IncludeAll && known) || (f.IncludeCanAccessContent && (subscribed || public || joinable)) ||
				(f.IncludeSubscribed && subscribed) || (f.IncludePublic && public) {
				out = append(out, s.streamObject(tx, st))
			}
		}
		return nil
	})
	return out, internal("list streams", err)
}

// Stream answers GET /streams/{id}: one stream the viewer
// may see.
func (s *Service) Stream(viewer store.User, streamID int64) (StreamObject, error) {
	var o StreamObject
	err := s.store.View(func(tx *store.Tx) error {
		st, err := metadataStreamByID(tx, viewer, streamID)
		if err != nil {
			return err
		}
		o = s.streamObject(tx, st)
		return nil
	})
	return o, internal("get stream", err)
}

// StreamID answers GET /get_stream_id.
func (s *Service) StreamID(viewer store.User, name string) (int64, error) {
	var id int64
	err := s.store.View(func(tx *store.Tx) error {
		st, err := tx.StreamByName(name)
		if err != nil || !canSeeStream(tx, viewer, st) {
			return BadRequest("Invalid channel name '%s'", name)
		}
		id = st.ID
		return nil
	})
	return id, internal("get stream id", err)
}

// StreamEmailAddress answers GET /streams/{id}/email_address. Lanchat has
// no email gateway, so a visible stream's address is empty, as the
// subscriptions' email_address is. senderID (level 335), when not 0, is the
// viewer or one of their bots (any bot for an administrator).
func (s *Service) StreamEmailAddress(viewer store.User, streamID, senderID int64) (string, error) {
	err := s.store.View(func(tx *store.Tx) error {
		if _, err := visibleStreamByID(tx, viewer, streamID); err != nil {
			return err
		}
		if senderID == 0 || senderID == viewer.ID {
			return nil
		}
		sender, err := tx.User(senderID)
		if err != nil || !sender.IsBot() || (sender.BotOwnerID != viewer.ID && !isAdmin(viewer)) {
			return BadRequest("Invalid user ID")
		}
		return nil
	})
	return "", internal("stream email address", err)
}

// TopicObject is a stream's topic as GET /users/me/{stream_id}/topics lists
// it.
type TopicObject struct {
	Name  string `json:"name"`
	MaxID int64  `json:"max_id"`
}

// StreamTopics lists a visible stream's topics, newest first.
func (s *Service) StreamTopics(viewer store.User, streamID int64) ([]TopicObject, error) {
	var topics []store.Topic
	err := s.store.View(func(tx *store.Tx) error {
		if _, err := visibleStreamByID(tx, viewer, streamID); err != nil {
			return err
		}
		var err error
		topics, err = tx.StreamTopics(streamID)
		return err
	})
	if err != nil {
		return nil, internal("list topics", err)
	}
	if topics == nil {
		return nil, nil
	}
	out := make([]TopicObject, len(topics))
	for i, t := range topics {
		out[i] = TopicObject{Name: t.Name, MaxID: t.MaxID}
	}
	slices.SortFunc(out, func(a, b TopicObject) int { return cmp.Compare(b.MaxID, a.MaxID) })
	return out, nil
}
