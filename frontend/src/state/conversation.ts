// A message's conversation: the key of a stream's topic or of a private
// conversation, and which of them the viewer muted. Narrows, unreads and
// recent conversations all key messages so.
import type { Message } from './types'

export interface MuteState { mutedStreams: Set<number>; mutedTopics: Set<string> }

export const topicKey = (streamId: number, topic: string) => `${streamId}:${topic.toLowerCase()}`

// pmEmails are a private message's other participants (or just me, for a
// note to self), sorted: the key of a conversation.
export function pmEmails(m: Message, myEmail: string): string[] {
  if (typeof m.display_recipient === 'string') return []
  const others = m.display_recipient.map((r) => r.email).filter((e) => e !== myEmail)
  return (others.length ? others : [myEmail]).sort()
}
