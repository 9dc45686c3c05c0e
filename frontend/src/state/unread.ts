// Unread accounting: which messages are unread and where they live, so the
// sidebar and the title can count them. Muted streams and topics count in
// their own rows but not in the total, as in Zulip.
import { mentionsMe } from './mentions'
import { pmEmails, topicKey, type MuteState } from './conversation'
import type { UnreadMsgs } from '../api/zulip'
import type { Message } from './types'

export interface UnreadPlace { streamId?: number; topic?: string; pm?: string; mentioned: boolean }


// placeOf is where an unread message counts, the one rule for live messages
// and for messages marked unread again: its stream and topic, or its direct
// conversation; and whether it mentions me (wildcards too, as register counts).
export function placeOf(m: Message, myEmail: string): UnreadPlace {
  const mentioned = mentionsMe(m.flags)
  return m.type === 'stream' ? { streamId: m.stream_id, topic: m.subject, mentioned } : { pm: pmEmails(m, myEmail).join(','), mentioned }
}

export class Unreads {
  readonly places = new Map<number, UnreadPlace>()

  add(id: number, place: UnreadPlace) { this.places.set(id, place) }
  remove(id: number) { this.places.delete(id) }
  has(id: number) { return this.places.has(id) }

  // fromRegister reads register's unread_msgs.
  static fromRegister(u: UnreadMsgs | undefined, emailsOf: (ids: number[]) => string): Unreads {
    const out = new Unreads()
    const mentions = new Set<number>(u?.mentions ?? [])
    for (const s of u?.streams ?? []) for (const id of s.unread_message_ids) out.add(id, { streamId: s.stream_id, topic: s.topic, mentioned: mentions.has(id) })
    for (const p of u?.pms ?? []) for (const id of p.unread_message_ids) out.add(id, { pm: emailsOf([p.other_user_id]), mentioned: mentions.has(id) })
    for (const h of u?.huddles ?? []) {
      const ids = String(h.user_ids_string).split(',').map(Number)
      for (const id of h.unread_message_ids) out.add(id, { pm: emailsOf(ids), mentioned: mentions.has(id) })
    }
    return out
  }

  private muted(p: UnreadPlace, m: MuteState) {
    return p.streamId !== undefined && (m.mutedStreams.has(p.streamId) || m.mutedTopics.has(topicKey(p.streamId, p.topic ?? '')))
  }

  total(m: MuteState): number {
    let n = 0
    for (const p of this.places.values()) if (!this.muted(p, m)) n++
    return n
  }

  // inStream counts a stream's unreads outside its muted topics.
  inStream(streamId: number, m: MuteState): number {
    let n = 0
    for (const p of this.places.values()) if (p.streamId === streamId && !m.mutedTopics.has(topicKey(streamId, p.topic ?? ''))) n++
    return n
  }

  inTopic(streamId: number, topic: string): number {
    const key = topicKey(streamId, topic)
    let n = 0
    for (const p of this.places.values()) if (p.streamId !== undefined && topicKey(p.streamId, p.topic ?? '') === key) n++
    return n
  }

  inConversation(pm: string): number {
    let n = 0
    for (const p of this.places.values()) if (p.pm === pm) n++
    return n
  }

  private(): number {
    let n = 0
    for (const p of this.places.values()) if (p.pm !== undefined) n++
    return n
  }

  mentions(): number {
    let n = 0
    for (const p of this.places.values()) if (p.mentioned) n++
    return n
  }

  // topics lists a stream's unread topics with counts, for the sidebar.
  topicsOf(streamId: number): Map<string, number> {
    const out = new Map<string, number>()
    for (const p of this.places.values()) if (p.streamId === streamId) out.set(p.topic ?? '', (out.get(p.topic ?? '') ?? 0) + 1)
    return out
  }

  firstUnreadTopic(after: (streamId: number, topic: string) => boolean, m: MuteState): { streamId: number; topic: string } | null {
    const ids = [...this.places.keys()].sort((a, b) => a - b)
    for (const id of ids) {
      const p = this.places.get(id)!
      if (p.streamId !== undefined && !this.muted(p, m) && after(p.streamId, p.topic ?? '')) return { streamId: p.streamId, topic: p.topic ?? '' }
    }
    return null
  }
}

// titleWithUnreads is the page's title, as Zulip's: the unread count, the
// view on screen, the organization ("(3) #general › lunch - Acme").
export function titleWithUnreads(count: number, realm: string, view: string): string {
  return `${count > 0 ? `(${count}) ` : ''}${view} - ${realm}`
}
