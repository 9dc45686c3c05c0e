package zulip

import "lanchat/backend/store"

// flagBits places Lanchat's per-user flags at their bits in Zulip's
// UserMessage.flags bitfield (AbstractUserMessage.ALL_FLAGS, whose order is
// the bitfield's). Bit 4 was wildcard_mentioned before Zulip 8 renamed it
// stream_wildcard_mentioned; bit 5, once summarize_in_home, is now
// topic_wildcard_mentioned. Bit 6 (group_mentioned) and the removed
// summarize flags have no Lanchat flag.
var flagBits = []struct {
	bit  uint
	flag store.Flags
}{
	{0, store.FlagRead},
	{1, store.FlagStarred},
	{2, store.FlagCollapsed},
	{3, store.FlagMentioned},
	{4, store.FlagStreamWildcardMentioned},
	{5, store.FlagTopicWildcardMentioned},
	{7, store.FlagForceExpand},
	{8, store.FlagForceCollapse},
	{9, store.FlagHasAlertWord},
	{10, store.FlagHistorical},
}

// bitIsPrivate marks a direct message's row; Zulip indexes on it.
const bitIsPrivate = 11

// flagsMask is a user's flags on a message as Zulip's bitfield.
func flagsMask(f store.Flags, private bool) int64 {
	// Lanchat sets wildcard_mentioned beside the stream or topic kind; on
	// its own it is a mention of everyone from before the split.
	if f&store.FlagWildcardMentioned != 0 && f&(store.FlagStreamWildcardMentioned|store.FlagTopicWildcardMentioned) == 0 {
		f |= store.FlagStreamWildcardMentioned
	}
	var mask int64
	for _, fb := range flagBits {
		if f&fb.flag != 0 {
			mask |= 1 << fb.bit
		}
	}
	if private {
		mask |= 1 << bitIsPrivate
	}
	return mask
}

// maskFlags is the Lanchat flags a Zulip bitfield holds.
func maskFlags(mask int64) store.Flags {
	var f store.Flags
	for _, fb := range flagBits {
		if mask&(1<<fb.bit) != 0 {
			f |= fb.flag
		}
	}
	if f&(store.FlagStreamWildcardMentioned|store.FlagTopicWildcardMentioned) != 0 {
		f |= store.FlagWildcardMentioned
	}
	return f
}
