package domain

import (
	"lanchat/backend/store"
)

// canSeeStream is the one rule for who may see a stream, its topics and its
// messages: subscribers always; others only public streams, and never
// guests. Hidden streams answer exactly like missing ones.
func canSeeStream(tx *store.Tx, u store.User, st store.Stream) bool {
	return tx.IsSubscribed(u.ID, st.ID) || openTo(u, st)
}

// canReadStream tells whether u may read a stream's messages: those who
// can see it, and for a private stream those its can_subscribe_group
// holds, who could join it (level 354: groups that grant content access).
func canReadStream(tx *store.Tx, u store.User, st store.Stream) bool {
	return canSeeStream(tx, u, st) || st.InviteOnly && holdsSubscribeGroup(tx, u, st)
}

// hasMetadataAccess tells whether u may see a stream's settings and
// subscribers (level 349): those who can see it and, for a private stream,
// those its can_administer_channel_group or can_add_subscribers_group
// holds, who need not read its messages to do their part.
func hasMetadataAccess(tx *store.Tx, u store.User, st store.Stream) bool {
	if canSeeStream(tx, u, st) {
		return true
	}
	if !st.InviteOnly || isGuest(u) {
		return false
	}
	ix, err := loadGroups(tx)
	return err == nil && metadataViaGroups(ix, u, st)
}

// metadataViaGroups tells whether a private stream's groups give u
// metadata access: its channel administrators and those who may add
// subscribers to it, never guests.
func metadataViaGroups(ix *groupIndex, u store.User, st store.Stream) bool {
	return !isGuest(u) && (ix.holds(streamSetting(ix, st, SettingAdministerChannel), u) || ix.holds(streamSetting(ix, st, SettingAddSubscribers), u))
}

// openTo tells whether a stream is open to u without a subscription: public
// streams are, except to guests.
func openTo(u store.User, st store.Stream) bool {
	return !st.InviteOnly && !isGuest(u)
}

// errInvalidMessage answers alike for missing messages and hidden ones.
var errInvalidMessage = BadRequest("Invalid message(s)")

// accessMessage is the one gate for a message named by ID, as Zulip's
// access_message: it loads the message with the user's flags on it (see
// messageAccess), or answers "Invalid message(s)" whether the message is
// missing or hidden from the user.
func accessMessage(tx *store.Tx, u store.User, id int64, streams streamCache) (store.Message, store.Flags, error) {
	m, err := tx.Message(id)
	if err != nil {
		return store.Message{}, 0, errInvalidMessage
	}
	f, ok := messageAccess(tx, u, m, streams)
	if !ok {
		return store.Message{}, 0, errInvalidMessage
	}
	return m, f, nil
}

// messageAccess returns the user's flags on a message and whether they may
// see it: messages they received keep their own flags; other messages of a
// stream they can see read as historical.
func messageAccess(tx *store.Tx, u store.User, m store.Message, streams streamCache) (store.Flags, bool) {
	if f, ok := tx.MessageFlags(u.ID, m); ok {
		return f, true
	}
	if m.IsPrivate() {
		return 0, false
	}
	st, ok := streams.get(tx, m.StreamID)
	if !ok || !canReadStream(tx, u, st) {
		return 0, false
	}
	return store.FlagRead | store.FlagHistorical, true
}

// streamCache remembers streams read during one request.
type streamCache map[int64]*store.Stream

func (c streamCache) get(tx *store.Tx, id int64) (store.Stream, bool) {
	if st, ok := c[id]; ok {
		if st == nil {
			return store.Stream{}, false
		}
		return *st, true
	}
	st, err := tx.Stream(id)
	if err != nil {
		c[id] = nil
		return store.Stream{}, false
	}
	c[id] = &st
	return st, true
}

// visibleStream resolves a stream by name or decimal ID for the user,
// answering STREAM_DOES_NOT_EXIST for unknown and hidden streams alike.
func visibleStream(tx *store.Tx, u store.User, nameOrID string) (store.Stream, error) {
	st, err := lookupStream(tx, nameOrID)
	if err != nil || !canSeeStream(tx, u, st) {
		return store.Stream{}, StreamDoesNotExist(nameOrID)
	}
	return st, nil
}

// visibleStreamByID is visibleStream for a numeric stream_id parameter.
func visibleStreamByID(tx *store.Tx, u store.User, id int64) (store.Stream, error) {
	return streamByIDFor(tx, id, func(st store.Stream) bool { return canSeeStream(tx, u, st) })
}

// metadataStreamByID is visibleStreamByID for those with metadata
// access (level 349): a stream's object, settings and subscribers.
func metadataStreamByID(tx *store.Tx, u store.User, id int64) (store.Stream, error) {
	return streamByIDFor(tx, id, func(st store.Stream) bool { return hasMetadataAccess(tx, u, st) })
}

// streamByIDFor loads a stream that passes a gate; else "Invalid channel
// ID", alike for missing and hidden streams.
func streamByIDFor(tx *store.Tx, id int64, gate func(store.Stream) bool) (store.Stream, error) {
	st, err := tx.Stream(id)
	if err != nil || !gate(st) {
		return store.Stream{}, BadRequest("Invalid channel ID")
	}
	return st, nil
}

func lookupStream(tx *store.Tx, nameOrID string) (store.Stream, error) {
	if st, err := tx.StreamByName(nameOrID); err == nil {
		return st, nil
	}
	if id, ok := parseID(nameOrID); ok {
		return tx.Stream(id)
	}
	return store.Stream{}, store.ErrNotFound
}

// mayReplaceCredentials is the one gate for setting another account's
// credentials (issuing a password, regenerating a bot's key): only an
// owner acts on an administrator's or an owner's, as in Zulip, or one
// administrator could sign in as another, or as the owner through the
// owner's bot given that role. Below administrator, administrators act on
// people's and a bot's owner on its key.
func mayReplaceCredentials(actor, u store.User) error {
	if isAdmin(u) && !isOwner(actor) {
		return ErrNotOwner
	}
	if u.IsBot() {
		return manageableBot(actor, u)
	}
	if !isAdmin(actor) {
		return ErrNotAdmin
	}
	return nil
}
