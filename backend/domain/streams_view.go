package domain

import (
	"lanchat/backend/store"
)

// StreamObject is a stream as GET /streams and register show it.
type StreamObject struct {
	StreamID                   int64  `json:"stream_id"`
	Name                       string `json:"name"`
	Description                string `json:"description"`
	RenderedDescription        string `json:"rendered_description"`
	InviteOnly                 bool   `json:"invite_only"`
	IsWebPublic                bool   `json:"is_web_public"`
	HistoryPublicToSubscribers bool   `json:"history_public_to_subscribers"`
	DateCreated                int64  `json:"date_created"`
	FirstMessageID             *int64 `json:"first_message_id"`
	MessageRetentionDays       *int   `json:"message_retention_days"`
	StreamPostPolicy           int    `json:"stream_post_policy"`
	IsAnnouncementOnly         bool   `json:"is_announcement_only"`
	IsArchived                 bool   `json:"is_archived"`
	StreamWeeklyTraffic        *int   `json:"stream_weekly_traffic"`
	SubscriberCount            int    `json:"subscriber_count"`
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
	o := StreamObject{
		StreamID:                   st.ID,
		Name:                       st.Name,
		Description:                st.Description,
		RenderedDescription:        s.render(tx, store.User{Role: store.RoleMember}, st.Description).HTML,
		InviteOnly:                 st.InviteOnly,
		HistoryPublicToSubscribers: true,
		DateCreated:                st.DateCreated,
		StreamPostPolicy:           1,
		SubscriberCount:            len(tx.StreamSubscriberIDs(st.ID)),
	}
	if st.Description == "" {
		o.RenderedDescription = ""
	}
	if rid, ok := tx.LookupRecipientID(st.ID, nil); ok {
		tx.Scan(store.RecipientRange(rid), 0, false, func(id int64) bool {
			o.FirstMessageID = &id
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
