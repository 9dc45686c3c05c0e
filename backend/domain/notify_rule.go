package domain

import "lanchat/backend/store"

// The one rule for which new messages notify a person, as Zulip decides:
// direct messages, mentions (wildcard ones if wanted) and alert words;
// followed topics and streams set to notify; never one's own messages, a
// muted stream or topic, or the conversation the person is reading. The
// web app applies the same rule (frontend/src/state/notify.ts, kept in
// line by the same table of cases) to the browser's and the desktop
// window's notifications; the server applies it to phones (ntfy).

// NotifySettings are the user_settings the rule reads.
type NotifySettings struct {
	Desktop          bool // enable_desktop_notifications: direct messages and mentions
	Sounds           bool // enable_sounds
	StreamDesktop    bool // enable_stream_desktop_notifications
	StreamAudible    bool // enable_stream_audible_notifications
	WildcardMentions bool // wildcard_mentions_notify
	FollowedDesktop  bool // enable_followed_topic_desktop_notifications
	FollowedAudible  bool // enable_followed_topic_audible_notifications
	FollowedWildcard bool // enable_followed_topic_wildcard_mentions_notify
	// Content is pm_content_in_desktop_notifications: whether a
	// notification shows the message's text.
	Content bool
}

// notifySettingsOf reads a person's notification settings.
func notifySettingsOf(u store.User) NotifySettings {
	s := userSettings(u)
	on := func(name string) bool { b, _ := s[name].(bool); return b }
	return NotifySettings{
		Desktop: on("enable_desktop_notifications"), Sounds: on("enable_sounds"),
		StreamDesktop: on("enable_stream_desktop_notifications"), StreamAudible: on("enable_stream_audible_notifications"),
		WildcardMentions: on("wildcard_mentions_notify"),
		FollowedDesktop:  on("enable_followed_topic_desktop_notifications"), FollowedAudible: on("enable_followed_topic_audible_notifications"),
		FollowedWildcard: on("enable_followed_topic_wildcard_mentions_notify"),
		Content:          on("pm_content_in_desktop_notifications"),
	}
}

// NotifyCase is one new message as one recipient sees it.
type NotifyCase struct {
	Own     bool        // the recipient sent it
	Private bool        // a direct message
	Flags   store.Flags // the recipient's flags on it
	// Sub is the recipient's subscription to a stream message's stream;
	// nil when not subscribed.
	Sub *store.Subscription
	// Muted: the stream or topic is muted for the recipient; Followed: the
	// topic is followed.
	Muted, Followed bool
	// Reading: the conversation is on the recipient's screen, in a focused
	// window (only a client knows; phones are never reading).
	Reading bool
}

// NotifyDecision is whether to show a notification and to play a sound.
type NotifyDecision struct{ Show, Sound bool }

// Notifies applies the rule.
func Notifies(c NotifyCase, s NotifySettings) NotifyDecision {
	if c.Own || c.Reading || (!c.Private && (c.Muted || c.Sub == nil)) {
		return NotifyDecision{}
	}
	personal := c.Private || c.Flags&(store.FlagMentioned|store.FlagHasAlertWord) != 0
	wildcard := c.Flags&(store.FlagWildcardMentioned|store.FlagStreamWildcardMentioned|store.FlagTopicWildcardMentioned) != 0 &&
		(orDefault(subSetting(c.Sub, func(s *store.Subscription) *bool { return s.WildcardMentionsNotify }), s.WildcardMentions) ||
			c.Followed && s.FollowedWildcard)
	if personal || wildcard {
		return NotifyDecision{Show: s.Desktop, Sound: s.Sounds}
	}
	show := orDefault(subSetting(c.Sub, func(s *store.Subscription) *bool { return s.DesktopNotifications }), s.StreamDesktop)
	sound := orDefault(subSetting(c.Sub, func(s *store.Subscription) *bool { return s.AudibleNotifications }), s.StreamAudible)
	return NotifyDecision{Show: show || c.Followed && s.FollowedDesktop, Sound: sound || c.Followed && s.FollowedAudible}
}

// subSetting is one of a subscription's own notification settings; nil
// when it has none (it inherits the person's).
func subSetting(sub *store.Subscription, field func(*store.Subscription) *bool) *bool {
	if sub == nil {
		return nil
	}
	return field(sub)
}

func orDefault(own *bool, inherited bool) bool {
	if own == nil {
		return inherited
	}
	return *own
}
