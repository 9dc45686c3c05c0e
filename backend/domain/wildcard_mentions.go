package domain

import "lanchat/backend/store"

// wildcardPolicyGroups are the system groups Zulip's wildcard_mention_policy
// numbers meant, before can_mention_many_users_group replaced it (level
// 352); register still sends realm_wildcard_mention_policy, the smallest
// policy that allows everyone the setting does.
var wildcardPolicyGroups = map[int]string{
	1: store.EveryoneGroup, 2: store.MembersGroup, 3: store.FullMembersGroup,
	5: store.AdministratorsGroup, 6: store.NobodyGroup, 7: store.ModeratorsGroup,
}

// wildcardMentionPolicy is the deprecated realm_wildcard_mention_policy for
// a can_mention_many_users_group value: a set of users or groups is
// everyone.
func wildcardMentionPolicy(ix *groupIndex, s store.GroupSetting) int {
	if s.Group != 0 {
		name := ix.groups[s.Group].Name
		if name == store.OwnersGroup {
			return 5
		}
		for n, g := range wildcardPolicyGroups {
			if g == name {
				return n
			}
		}
	}
	return 1
}

// manyPeople is how many people a wildcard mention may reach before the
// policy applies (Zulip's WILDCARD_MENTION_THRESHOLD).
const manyPeople = 15

// checkWildcardMentions refuses a stream or topic wildcard mention that
// reaches more than manyPeople when the
// sender may not make it, with the codes Zulip uses since level 229.
// can_mention_many_users_group says who may (level 352).
func checkWildcardMentions(tx *store.Tx, sender store.User, target messageTarget, r rendered) error {
	if target.stream.ID == 0 || !r.StreamWildcard && !r.TopicWildcard {
		return nil
	}
	if allowed, err := realmAllows(tx, sender, SettingMentionManyUsers); err != nil || allowed {
		return err
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
