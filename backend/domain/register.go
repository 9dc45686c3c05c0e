package domain

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// RegisterRequest is POST /register (and GET /events without a queue).
type RegisterRequest struct {
	EventTypes         []string // nil: every type
	FetchEventTypes    []string // nil: the same as EventTypes
	Narrow             []NarrowTerm
	AllPublicStreams   bool
	IncludeSubscribers bool
	ApplyMarkdown      bool
	ClientGravatar     bool
	ClientCapabilities map[string]any
	SlimPresence       bool
	// PresenceHistoryLimitDays is presence_history_limit_days (level 288).
	PresenceHistoryLimitDays *int64
	// RealmURL is the organization's address as the client reached it,
	// for the absolute URLs of the initial state.
	RealmURL string
}

// Registration is a new event queue and the initial state that goes with it.
type Registration struct {
	QueueID     string
	LastEventID int64
	// State is the answer to POST /register: the initial state of each
	// requested type, the queue's queue_id and last_event_id, and the
	// server's versions.
	State map[string]any
}

// Bounds on register's event_types and fetch_event_types. Zulip has about
// seventy types and sets no bound; a queue keeps its list in memory and in
// its stored record, and a person may hold 50 queues (and as many for each
// of their bots), so a megabyte of names was kept 50 times over.
const (
	MaxEventTypes          = 200
	MaxEventTypeNameLength = 100
)

// checkEventTypes refuses a list of event types past those bounds.
func checkEventTypes(param string, types []string) error {
	if len(types) > MaxEventTypes || slices.ContainsFunc(types, func(t string) bool { return utf8.RuneCountInString(t) > MaxEventTypeNameLength }) {
		return InvalidArgument(param, fmt.Sprintf("at most %d types of at most %d characters", MaxEventTypes, MaxEventTypeNameLength))
	}
	return nil
}

// Register creates an event queue and returns it with the initial state of
// each requested type, consistently: every change is either in the state
// or among the queue's events, never both and never neither.
func (s *Service) Register(actor store.User, req RegisterRequest) (Registration, error) {
	if err := checkEventTypes("event_types", req.EventTypes); err != nil {
		return Registration{}, err
	}
	if err := checkEventTypes("fetch_event_types", req.FetchEventTypes); err != nil {
		return Registration{}, err
	}
	fetch := req.FetchEventTypes
	if fetch == nil {
		fetch = req.EventTypes
	}
	want := func(t string) bool { return fetch == nil || slices.Contains(fetch, t) }

	// The narrow is resolved (names looked up, search hits found) before
	// the exclusive lock, so nobody's sends wait for it; again under the
	// lock only if the account's role has changed meanwhile.
	resolve := func(tx *store.Tx, viewer store.User) (events.Filter, error) {
		if len(req.Narrow) == 0 {
			return nil, nil
		}
		return resolveQueueNarrow(tx, viewer, req.Narrow)
	}
	var filter events.Filter
	err := s.store.View(func(tx *store.Tx) (err error) {
		filter, err = resolve(tx, actor)
		return err
	})
	if err != nil {
		return Registration{}, internal("register", err)
	}
	resolvedAs := actor.Role
	s.published.Lock()
	defer s.published.Unlock()
	state := map[string]any{}
	var q *events.Queue
	err = s.store.View(func(tx *store.Tx) error {
		// The account as of now, under the publish lock: a role change or
		// deactivation since the request was authenticated has ended the
		// account's queues and must not be undone by a new one.
		var err error
		if actor, err = tx.User(actor.ID); err != nil || !actor.IsActive {
			return ErrInactive
		}
		if req.AllPublicStreams && isGuest(actor) {
			return BadRequest("User not authorized for this query")
		}
		if actor.Role != resolvedAs {
			if filter, err = resolve(tx, actor); err != nil {
				return err
			}
		}
		if err := s.initialState(tx, actor, req, want, state); err != nil {
			return err
		}
		bulk, _ := req.ClientCapabilities["bulk_message_deletion"].(bool)
		q = s.events.Register(events.QueueOptions{
			UserID: actor.ID, EventTypes: req.EventTypes, Narrow: filter,
			AllPublicStreams: req.AllPublicStreams, ApplyMarkdown: req.ApplyMarkdown, BulkMessageDeletion: bulk,
			IncludeDeactivatedGroups: req.includeDeactivatedGroups(),
			Through:                  tx.LastMessageID(),
		})
		return nil
	})
	if err != nil {
		return Registration{}, internal("register", err)
	}
	if err := s.recordQueue(queueRecord(q, req)); err != nil {
		s.events.Delete(q)
		return Registration{}, internal("register", err)
	}
	reg := Registration{QueueID: q.ID, LastEventID: q.LastEventID(), State: state}
	state["queue_id"] = reg.QueueID
	state["last_event_id"] = reg.LastEventID
	state["zulip_version"] = ZulipVersion
	state["zulip_feature_level"] = ZulipFeatureLevel
	state["zulip_merge_base"] = ZulipVersion
	state["chat_version"] = Version
	return reg, nil
}

// badQueue is the error for unknown, expired and dropped queues.
func badQueue(id string) *Error {
	return errorf(CodeBadEventQueueID, "Bad event queue id: %s", id).With("queue_id", id)
}

// Events reads a queue: see events.Registry.Fetch.
func (s *Service) Events(ctx context.Context, actor store.User, queueID string, lastEventID int64, dontBlock bool) ([]events.Delivered, error) {
	return s.readQueue(actor, queueID, lastEventID, func(q *events.Queue) ([]events.Delivered, error) {
		return s.events.Fetch(ctx, q, lastEventID, dontBlock)
	})
}

// FollowEvents reads a queue for a stream of frames: see
// events.Registry.Follow.
func (s *Service) FollowEvents(ctx context.Context, actor store.User, queueID string, acked, sent int64) ([]events.Delivered, error) {
	return s.readQueue(actor, queueID, acked, func(q *events.Queue) ([]events.Delivered, error) {
		return s.events.Follow(ctx, q, acked, sent)
	})
}

// readQueue runs read on the actor's queue, whose client has acknowledged
// events up to acked, answering for a missing one.
func (s *Service) readQueue(actor store.User, queueID string, acked int64, read func(*events.Queue) ([]events.Delivered, error)) ([]events.Delivered, error) {
	q, err := s.events.Get(queueID, actor.ID)
	if err != nil {
		return nil, badQueue(queueID)
	}
	s.replayMissed(q, acked)
	evs, err := read(q)
	return evs, QueueReadError(queueID, err)
}

// EventSocketsPerPerson bounds the event sockets (GET
// /api/v1/events/socket) one person, their bots counted as theirs
// (PersonOf), keeps open at once: one for each queue they may keep. 0 is
// no bound.
func (s *Service) EventSocketsPerPerson() int { return s.cfg.Events.MaxQueuesPerUser }

// TooManyEventSockets refuses one more event socket than
// EventSocketsPerPerson.
func (s *Service) TooManyEventSockets() error {
	return BadRequest("Too many open event sockets (at most %d): close one, or long-poll GET /api/v1/events instead.", s.EventSocketsPerPerson())
}

// QueueReadError is what a read of the queue answers for err: a queue that
// has ended is a bad queue ID, as in Zulip.
func QueueReadError(queueID string, err error) error {
	if errors.Is(err, events.ErrNoQueue) {
		return badQueue(queueID)
	}
	return err
}

// DeleteQueue removes one of the actor's queues.
func (s *Service) DeleteQueue(actor store.User, queueID string) error {
	q, err := s.events.Get(queueID, actor.ID)
	if err != nil {
		return badQueue(queueID)
	}
	s.events.Delete(q)
	return nil
}

// initialState fills state with each wanted type's data.
func (s *Service) initialState(tx *store.Tx, actor store.User, req RegisterRequest, want func(string) bool, state map[string]any) error {
	state["max_message_id"] = maxMessageID(tx, actor.ID)
	if want("realm_user") {
		if err := realmUsersState(tx, actor, state); err != nil {
			return err
		}
	}
	if want("realm_user_groups") {
		list, err := userGroupObjects(tx, req.includeDeactivatedGroups())
		if err != nil {
			return err
		}
		state["realm_user_groups"] = list
	}
	if want("subscription") {
		if err := s.subscriptionState(tx, actor, req.IncludeSubscribers, state); err != nil {
			return err
		}
	}
	if want("stream") {
		streams, err := tx.Streams()
		if err != nil {
			return err
		}
		list := []StreamObject{}
		for _, st := range streams {
			if canSeeStream(tx, actor, st) {
				list = append(list, s.streamObject(tx, st))
			}
		}
		state["streams"] = list
	}
	if want("default_streams") {
		list, err := defaultStreamsState(tx, actor)
		if err != nil {
			return err
		}
		state["realm_default_streams"] = list
	}
	if want("default_stream_groups") {
		// Lanchat has no default channel groups.
		state["realm_default_stream_groups"] = []any{}
	}
	if want("muted_topics") {
		list, err := mutedTopicsList(tx, actor.ID)
		if err != nil {
			return err
		}
		state["muted_topics"] = list
	}
	if want("user_topic") {
		topics, err := tx.UserTopics(actor.ID)
		if err != nil {
			return err
		}
		state["user_topics"] = userTopicObjects(topics)
	}
	if want("message") || want("update_message_flags") {
		unread, err := unreadState(tx, actor)
		if err != nil {
			return err
		}
		state["unread_msgs"] = unread
	}
	if want("starred_messages") {
		state["starred_messages"] = nonNil(tx.FlaggedIDs(actor.ID, store.IndexStarred))
	}
	if want("recent_private_conversations") {
		state["recent_private_conversations"] = recentPrivateConversations(tx, actor.ID)
	}
	if want("realm") {
		if err := s.realmState(tx, state); err != nil {
			return err
		}
		state["realm_url"], state["realm_uri"] = req.RealmURL, req.RealmURL
		state["server_emoji_data_url"] = req.RealmURL + EmojiDataPath
	}
	if want("muted_users") {
		state["muted_users"] = mutedUsersList(actor)
	}
	if want("saved_snippets") {
		u, err := tx.User(actor.ID)
		if err != nil {
			return err
		}
		state["saved_snippets"] = savedSnippetList(u)
	}
	if want("scheduled_messages") {
		scheduled, err := s.scheduledState(tx, actor)
		if err != nil {
			return err
		}
		state["scheduled_messages"] = scheduled
	}
	if want("user_status") {
		statuses, err := userStatusState(tx)
		if err != nil {
			return err
		}
		state["user_status"] = statuses
	}
	if want("presence") {
		since, err := presenceSince(s.now(), req.PresenceHistoryLimitDays)
		if err != nil {
			return err
		}
		p, err := s.realmPresence(tx, req.SlimPresence, nil, since)
		if err != nil {
			return err
		}
		for k, v := range p {
			state[k] = v
		}
	}
	if want("realm_emoji") {
		all, err := realmEmojiMap(tx)
		if err != nil {
			return err
		}
		state["realm_emoji"] = all
	}
	if want("realm_linkifiers") || want("realm_filters") {
		if err := linkifierState(tx, state); err != nil {
			return err
		}
	}
	if want("realm_playgrounds") {
		list, err := playgroundObjects(tx)
		if err != nil {
			return err
		}
		state["realm_playgrounds"] = list
	}
	if want("alert_words") {
		state["alert_words"] = s.AlertWords(actor)
	}
	if want("custom_profile_fields") {
		if err := profileFieldState(tx, state); err != nil {
			return err
		}
	}
	if want("user_settings") {
		state["user_settings"] = userSettings(actor)
	}
	if want("realm_incoming_webhook_bots") {
		state["realm_incoming_webhook_bots"] = incomingWebhookBots()
	}
	if want("onboarding_steps") {
		state["onboarding_steps"] = onboardingSteps(actor)
		state["navigation_tour_video_url"] = nil // level 369: no video is served
	}
	if want("realm_billing") {
		// Level 363: nobody pays for a Lanchat server, so nothing is pending.
		state["realm_billing"] = map[string]any{"has_pending_sponsorship_request": false}
	}
	return nil
}

func nonNil(ids []int64) []int64 {
	if ids == nil {
		return []int64{}
	}
	return ids
}

// maxMessageID is the newest message the user received, or -1.
func maxMessageID(tx *store.Tx, userID int64) int64 {
	maxID := int64(-1)
	tx.Scan(store.UserRange(userID), AnchorNewest, true, func(id int64) bool {
		maxID = id
		return false
	})
	return maxID
}

func realmUsersState(tx *store.Tx, actor store.User, state map[string]any) error {
	users, err := tx.Users()
	if err != nil {
		return err
	}
	emails := make(map[int64]string, len(users))
	for _, u := range users {
		emails[u.ID] = u.Email
	}
	active, inactive := []UserObject{}, []UserObject{}
	for _, u := range users {
		o := userObject(u, actor, emails)
		if u.IsActive {
			active = append(active, o)
		} else {
			inactive = append(inactive, o)
		}
	}
	values, err := tx.ProfileValues()
	if err != nil {
		return err
	}
	addProfileData(values, active)
	addProfileData(values, inactive)
	me := userObject(actor, actor, emails)
	state["realm_users"], state["realm_non_active_users"], state["cross_realm_bots"] = active, inactive, []any{}
	state["user_id"], state["email"], state["delivery_email"], state["full_name"] = actor.ID, actor.Email, actor.Email, actor.FullName
	state["is_admin"], state["is_owner"], state["is_guest"], state["is_moderator"] = me.IsAdmin, me.IsOwner, me.IsGuest, isModerator(actor)
	state["avatar_url"], state["avatar_source"] = me.AvatarURL, "U"
	state["can_create_streams"] = !isGuest(actor)
	return nil
}

func (s *Service) subscriptionState(tx *store.Tx, actor store.User, includeSubscribers bool, state map[string]any) error {
	form := noSubscribers
	if includeSubscribers {
		form = subscriberIDs
	}
	subs, err := tx.UserSubscriptions(actor.ID)
	if err != nil {
		return err
	}
	subscribed, unsubscribed := []SubscriptionObject{}, []SubscriptionObject{}
	seen := map[int64]bool{}
	for _, sub := range subs {
		st, err := tx.Stream(sub.StreamID)
		if err != nil {
			continue
		}
		seen[st.ID] = true
		if sub.Active {
			subscribed = append(subscribed, s.subscriptionObject(tx, st, sub, form))
		} else if hasMetadataAccess(tx, actor, st) {
			unsubscribed = append(unsubscribed, s.subscriptionObject(tx, st, sub, form))
		}
	}
	streams, err := tx.Streams()
	if err != nil {
		return err
	}
	never := []neverSubscribed{}
	for _, st := range streams {
		if seen[st.ID] || !hasMetadataAccess(tx, actor, st) {
			continue
		}
		obj := SubscriptionObject{StreamObject: s.streamObject(tx, st)}
		if includeSubscribers {
			obj.Subscribers = nonNil(tx.StreamSubscriberIDs(st.ID))
		}
		never = append(never, neverSubscribed{obj.StreamObject, obj.Subscribers})
	}
	state["subscriptions"], state["unsubscribed"], state["never_subscribed"] = subscribed, unsubscribed, never
	return nil
}

// unreadState is Zulip's unread_msgs: the user's unread messages grouped by
// conversation, with mentions, and a count that leaves out muted streams
// and topics.
func unreadState(tx *store.Tx, actor store.User) (map[string]any, error) {
	muted, err := loadMuted(tx, actor.ID)
	if err != nil {
		return nil, err
	}
	type streamKey struct {
		streamID int64
		topic    string
	}
	pms, huddles := map[int64][]int64{}, map[string][]int64{}
	streams := map[streamKey][]int64{}
	var streamOrder []streamKey
	var pmOrder []int64
	var huddleOrder []string
	mentions := []int64{}
	count := 0
	for _, id := range tx.FlaggedIDs(actor.ID, store.IndexUnread) {
		m, err := tx.Message(id)
		if err != nil {
			continue
		}
		// A personal mention always counts; a wildcard one only outside
		// what the user muted, where an unmuted or followed topic of a
		// muted stream is not muted (as Zulip since level 213).
		f, _ := tx.Flags(actor.ID, id)
		if f&store.FlagMentioned != 0 || f&store.AnyMention != 0 && !muted.hides(m) {
			mentions = append(mentions, id)
		}
		switch {
		case !m.IsPrivate():
			k := streamKey{m.StreamID, m.Topic}
			if _, ok := streams[k]; !ok {
				streamOrder = append(streamOrder, k)
			}
			streams[k] = append(streams[k], id)
			if !muted.hides(m) {
				count++
			}
		case len(m.PrivateUserIDs) <= 2:
			other := actor.ID
			for _, uid := range m.PrivateUserIDs {
				if uid != actor.ID {
					other = uid
				}
			}
			if _, ok := pms[other]; !ok {
				pmOrder = append(pmOrder, other)
			}
			pms[other] = append(pms[other], id)
			count++
		default:
			key := joinIDs(m.PrivateUserIDs)
			if _, ok := huddles[key]; !ok {
				huddleOrder = append(huddleOrder, key)
			}
			huddles[key] = append(huddles[key], id)
			count++
		}
	}
	pmList := []map[string]any{}
	for _, other := range pmOrder {
		pmList = append(pmList, map[string]any{"other_user_id": other, "sender_id": other, "unread_message_ids": pms[other]})
	}
	streamList := []map[string]any{}
	for _, k := range streamOrder {
		streamList = append(streamList, map[string]any{"stream_id": k.streamID, "topic": k.topic, "unread_message_ids": streams[k]})
	}
	huddleList := []map[string]any{}
	for _, key := range huddleOrder {
		huddleList = append(huddleList, map[string]any{"user_ids_string": key, "unread_message_ids": huddles[key]})
	}
	return map[string]any{"pms": pmList, "streams": streamList, "huddles": huddleList,
		"mentions": mentions, "count": count, "old_unreads_missing": false}, nil
}

func joinIDs(ids []int64) string {
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return strings.Join(parts, ",")
}

// recentPrivateConversationsScan bounds how far back the recent private
// conversations look, so registering stays cheap on long histories.
const recentPrivateConversationsScan = 20000

// recentPrivateConversations lists the user's private conversations, newest
// first, each with its other participants and newest message.
func recentPrivateConversations(tx *store.Tx, userID int64) []map[string]any {
	out := []map[string]any{}
	seen := map[string]bool{}
	scanned := 0
	tx.Scan(store.UserRange(userID), AnchorNewest, true, func(id int64) bool {
		scanned++
		m, err := tx.Message(id)
		if err != nil || !m.IsPrivate() {
			return scanned < recentPrivateConversationsScan
		}
		key := joinIDs(m.PrivateUserIDs)
		if !seen[key] {
			seen[key] = true
			others := slices.DeleteFunc(slices.Clone(m.PrivateUserIDs), func(id int64) bool { return id == userID })
			out = append(out, map[string]any{"max_message_id": id, "user_ids": others})
		}
		return scanned < recentPrivateConversationsScan
	})
	return out
}

// neverSubscribed is a stream the user could join, with its subscribers.
type neverSubscribed struct {
	StreamObject
	Subscribers any `json:"subscribers,omitempty"`
}

// includeDeactivatedGroups is the client capability of taking deactivated
// user groups in register and their events (level 294).
func (req RegisterRequest) includeDeactivatedGroups() bool {
	on, _ := req.ClientCapabilities["include_deactivated_groups"].(bool)
	return on
}
