package domain

import (
	"sync"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// Phones are notified through a topic per person that an app on the phone
// subscribes to (backend/ntfy speaks ntfy's subscribe protocol). The
// topic's name is its only key: long and random, replaced on request.

// ntfyTopicLength makes a topic name as hard to guess as an API key; ntfy
// allows up to 64 characters of [-_A-Za-z0-9].
const ntfyTopicLength = 32

// PhoneNotification is what a person's phone is told of one new message.
type PhoneNotification struct {
	MessageID   int64
	Time        int64 // the message's, in Unix seconds
	Title, Body string
	// Personal: a direct message or a mention (louder than a stream's).
	Personal, Private bool
	// Hash opens the conversation at the message in the web app
	// ("#narrow/…/near/ID"); the listener puts its address before it.
	Hash string
}

// PhoneNotifier hands notifications to subscribed phones and forgets
// topics that stopped (backend/ntfy.Hub).
type PhoneNotifier interface {
	Notify(topic string, n PhoneNotification)
	Revoke(topic string)
}

// SetPhoneNotifier sets where phone notifications go; called once, before
// the service serves.
func (s *Service) SetPhoneNotifier(p PhoneNotifier) { s.phones = p }

// phoneTopics maps topic names to their owners and back, read from the
// store on first need and kept in step by the actions that change them.
type phoneTopics struct {
	mu      sync.Mutex
	loaded  bool
	byTopic map[string]int64
	byUser  map[int64]string
}

// snapshot returns the maps, loading them on first use; callers hold mu.
func (p *phoneTopics) load(st *store.Store) error {
	if p.loaded {
		return nil
	}
	p.byTopic, p.byUser = map[string]int64{}, map[int64]string{}
	err := st.View(func(tx *store.Tx) error {
		users, err := tx.Users()
		for _, u := range users {
			if u.NtfyTopic != "" {
				p.byTopic[u.NtfyTopic], p.byUser[u.ID] = u.ID, u.NtfyTopic
			}
		}
		return err
	})
	p.loaded = err == nil
	return err
}

func (p *phoneTopics) set(userID int64, topic string) {
	delete(p.byTopic, p.byUser[userID])
	p.byTopic[topic], p.byUser[userID] = userID, topic
}

// NtfyTopic is the actor's phone notification topic, made on first ask.
func (s *Service) NtfyTopic(actor store.User) (string, error) {
	if actor.IsBot() {
		return "", ErrBotRequest
	}
	s.phoneTopics.mu.Lock()
	defer s.phoneTopics.mu.Unlock()
	if err := s.phoneTopics.load(s.store); err != nil {
		return "", internal("ntfy topic", err)
	}
	if topic := s.phoneTopics.byUser[actor.ID]; topic != "" {
		return topic, nil
	}
	return s.replaceNtfyTopic(actor)
}

// RegenerateNtfyTopic gives the actor a new topic; phones subscribed to
// the old one hear nothing more.
func (s *Service) RegenerateNtfyTopic(actor store.User) (string, error) {
	if actor.IsBot() {
		return "", ErrBotRequest
	}
	s.phoneTopics.mu.Lock()
	defer s.phoneTopics.mu.Unlock()
	if err := s.phoneTopics.load(s.store); err != nil {
		return "", internal("regenerate ntfy topic", err)
	}
	return s.replaceNtfyTopic(actor)
}

// replaceNtfyTopic writes a new topic for actor; the caller holds
// phoneTopics.mu.
func (s *Service) replaceNtfyTopic(actor store.User) (string, error) {
	topic := randomString(ntfyTopicLength, apiKeyAlphabet)
	var old string
	err := s.store.Update(func(tx *store.Tx) error {
		u, err := tx.User(actor.ID)
		if err != nil {
			return err
		}
		old, u.NtfyTopic = u.NtfyTopic, topic
		return tx.PutUser(u)
	})
	if err != nil {
		return "", internal("ntfy topic", err)
	}
	s.phoneTopics.set(actor.ID, topic)
	if old != "" && s.phones != nil {
		s.phones.Revoke(old)
	}
	return topic, nil
}

// NtfyTopicActive tells whether topic is an active person's, whose phone
// may subscribe to it.
func (s *Service) NtfyTopicActive(topic string) bool {
	s.phoneTopics.mu.Lock()
	err := s.phoneTopics.load(s.store)
	owner, ok := s.phoneTopics.byTopic[topic]
	s.phoneTopics.mu.Unlock()
	if err != nil || !ok {
		return false
	}
	active := false
	s.store.View(func(tx *store.Tx) error {
		u, err := tx.User(owner)
		active = err == nil && u.IsActive
		return nil
	})
	return active
}

// silencePhones ends the subscriptions of a person deactivated.
func (s *Service) silencePhones(u store.User) {
	if s.phones != nil && u.NtfyTopic != "" {
		s.phones.Revoke(u.NtfyTopic)
	}
}

// notifyPhones tells each recipient's phone of a new message that the
// notification rule (Notifies) says they would be notified of.
func (s *Service) notifyPhones(me events.MessageEvent) {
	if s.phones == nil {
		return
	}
	s.phoneTopics.mu.Lock()
	if s.phoneTopics.load(s.store) != nil || len(s.phoneTopics.byUser) == 0 {
		s.phoneTopics.mu.Unlock()
		return
	}
	topics := map[int64]string{}
	for uid := range me.Recipients.Holders() {
		if topic := s.phoneTopics.byUser[uid]; topic != "" {
			topics[uid] = topic
		}
	}
	s.phoneTopics.mu.Unlock()
	if len(topics) == 0 {
		return
	}
	var out []func()
	s.store.View(func(tx *store.Tx) error {
		sender, err := tx.User(me.Message.SenderID)
		if err != nil {
			return nil
		}
		for uid, topic := range topics {
			if n, ok := phoneNotification(tx, uid, sender, me); ok {
				out = append(out, func() { s.phones.Notify(topic, n) })
			}
		}
		return nil
	})
	for _, f := range out {
		f()
	}
}

// phoneNotification applies the rule for one recipient and, if they are to
// be notified, says what of.
func phoneNotification(tx *store.Tx, uid int64, sender store.User, me events.MessageEvent) (PhoneNotification, bool) {
	u, err := tx.User(uid)
	if err != nil || !u.IsActive || u.IsBot() {
		return PhoneNotification{}, false
	}
	flags, _ := me.Recipients.Flags(uid)
	m := me.Message
	c := NotifyCase{Own: uid == m.SenderID, Private: m.IsPrivate(), Flags: flags}
	var streamName string
	if !m.IsPrivate() {
		if sub, err := tx.Subscription(uid, m.StreamID); err == nil && sub.Active {
			c.Sub = &sub
		}
		muted, err := loadMuted(tx, uid)
		if err != nil {
			return PhoneNotification{}, false
		}
		c.Muted, c.Followed = muted.hides(m), muted.followed(m)
		if st, err := tx.Stream(m.StreamID); err == nil {
			streamName = st.Name
		}
	}
	settings := notifySettingsOf(u)
	if !Notifies(c, settings).Show {
		return PhoneNotification{}, false
	}
	n := PhoneNotification{MessageID: m.ID, Time: m.Timestamp, Private: c.Private,
		Personal: c.Private || flags&(store.AnyMention|store.FlagHasAlertWord) != 0}
	n.Title, n.Body = notificationText(m, sender.FullName, streamName, settings.Content)
	n.Hash = conversationHash(tx, m, uid, streamName)
	return n, true
}
