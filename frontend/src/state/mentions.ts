// Mentions of the reader: which messages mention me (from the server's
// flags) and which mention pills in a message are mine, so both are
// highlighted as in Zulip.

const mentionFlags = ['mentioned', 'wildcard_mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned']
const wildcardFlags = mentionFlags.slice(1)

// mentionsMe says whether a message's flags say it mentions me, by name,
// through a group, or by a wildcard.
export const mentionsMe = (flags: string[]) => flags.some((f) => mentionFlags.includes(f))

// The server's mention spans: user, group (data-user-group-id), channel
// wildcard (data-user-id="*") and topic wildcard (no id).
const mentionSpan = /<span class="(user-mention|user-group-mention|topic-mention)([^"]*)"(?: data-user-(?:group-)?id="([^"]*)")?>/g

// markMentionsOfMe adds Zulip's user-mention-me class to the pills in a
// message's HTML that mention me. Silent mentions notify no one and stay plain.
export function markMentionsOfMe(html: string, flags: string[], myId: number, inGroup: (id: number) => boolean): string {
  if (!mentionsMe(flags)) return html
  const wildcard = flags.some((f) => wildcardFlags.includes(f))
  return html.replace(mentionSpan, (span, kind: string, more: string, id: string | undefined) => {
    if (more.split(' ').includes('silent')) return span
    const mine = kind === 'user-mention' ? (id === '*' ? wildcard : id === String(myId))
      : kind === 'user-group-mention' ? inGroup(Number(id)) : wildcard
    return mine ? span.replace(`class="${kind}`, `class="${kind} user-mention-me`) : span
  })
}
