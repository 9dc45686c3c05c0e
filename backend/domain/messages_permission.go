package domain

import (
	"slices"

	"lanchat/backend/store"
)

// checkCanSendDirect is the gate for a direct message, Zulip 9.0's: a bot
// sender, or a conversation of the sender with bots only, always passes.
// Otherwise someone in it must be in direct_message_permission_group, and a
// sender outside direct_message_initiator_group may only write to a
// conversation that already exists.
func checkCanSendDirect(tx *store.Tx, sender store.User, participants []int64) error {
	if sender.IsBot() {
		return nil
	}
	var people []store.User
	for _, id := range participants {
		u, err := tx.User(id)
		if err != nil {
			return err
		}
		if u.ID == sender.ID || !u.IsBot() {
			people = append(people, u)
		}
	}
	if len(people) <= 1 {
		return nil
	}
	ix, err := loadGroups(tx)
	if err != nil {
		return err
	}
	r, err := tx.Realm()
	if err != nil {
		return err
	}
	permitted := realmSetting(ix, r, SettingDirectMessagePermitted)
	if !slices.ContainsFunc(people, func(u store.User) bool { return ix.holds(permitted, u) }) {
		return BadRequest("This conversation does not include any users who can authorize it.")
	}
	if _, exists := tx.LookupRecipientID(0, participants); !exists && !ix.holds(realmSetting(ix, r, SettingDirectMessageInitiator), sender) {
		return BadRequest("You do not have permission to initiate direct message conversations.")
	}
	return nil
}

// checkGroupMentions is the groups' gate for messages: the sender must be
// in can_mention_group of each group the message mentions (silent
// mentions are not mentions).
func checkGroupMentions(tx *store.Tx, sender store.User, r rendered) error {
	if len(r.MentionedGroupIDs) == 0 {
		return nil
	}
	ix, err := loadGroups(tx)
	if err != nil {
		return err
	}
	for _, id := range r.MentionedGroupIDs {
		g, ok := ix.groups[id]
		if ok && !ix.holds(mentionSetting(ix, g), sender) {
			return BadRequest("You are not allowed to mention user group '%s'.", g.Name)
		}
	}
	return nil
}
