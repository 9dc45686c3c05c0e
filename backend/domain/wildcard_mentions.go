package domain

import "lanchat/backend/store"

// wildcardMentionPolicies are Zulip's wildcard_mention_policy numbers, each
// with who may mention everyone under it (4, stream administrators, is
// gone from Zulip).
var wildcardMentionPolicies = map[int]func(store.User) bool{
	1: func(store.User) bool { return true },
	2: func(u store.User) bool { return !isGuest(u) },
	3: func(u store.User) bool { return !isGuest(u) }, // every member is a full member: no waiting period
	5: isAdmin,
	6: func(store.User) bool { return false },
	7: func(u store.User) bool { return isAdmin(u) || isModerator(u) },
}

// wildcardMentionPolicy is the realm's wildcard_mention_policy.
func wildcardMentionPolicy(r store.Realm) int {
	if r.WildcardMentionPolicy == 0 {
		return 1
	}
	return r.WildcardMentionPolicy
}

// manyPeople is how many people a wildcard mention may reach before the
// policy applies (Zulip's WILDCARD_MENTION_THRESHOLD).
const manyPeople = 15

// checkWildcardMentions refuses a stream or topic wildcard mention that
// reaches more than manyPeople when the realm's policy does not let the
// sender make it, with the codes Zulip uses since level 229.
func checkWildcardMentions(tx *store.Tx, sender store.User, target messageTarget, r rendered) error {
	if target.stream.ID == 0 || !r.StreamWildcard && !r.TopicWildcard {
		return nil
	}
	realm, err := tx.Realm()
	if err != nil || wildcardMentionPolicies[wildcardMentionPolicy(realm)](sender) {
		return nil
	}
	if r.StreamWildcard && len(tx.StreamSubscriberIDs(target.stream.ID)) > manyPeople {
		return errorf(CodeStreamWildcardMentionNotAllowed, "You do not have permission to use channel wildcard mentions in this channel.")
	}
	if r.TopicWildcard && len(topicParticipants(tx, target.stream.ID, target.topic)) > manyPeople {
		return errorf(CodeTopicWildcardMentionNotAllowed, "You do not have permission to use topic wildcard mentions in this topic.")
	}
	return nil
}

// topicParticipants are the senders of a topic's messages.
func topicParticipants(tx *store.Tx, streamID int64, topic string) map[int64]bool {
	senders := map[int64]bool{}
	rid, ok := tx.LookupRecipientID(streamID, nil)
	if !ok {
		return senders
	}
	folded := store.FoldTopic(topic)
	tx.Scan(store.RecipientRange(rid), 0, false, func(id int64) bool {
		if m, err := tx.Message(id); err == nil && store.FoldTopic(m.Topic) == folded {
			senders[m.SenderID] = true
		}
		return true
	})
	return senders
}
