import { describe, expect, it } from 'vitest'
import { inboxGroups } from './inbox'
import { Unreads } from './unread'
import { topicKey } from './conversation'
import type { Subscription } from './types'

const sub = (stream_id: number, name: string): Subscription => ({ stream_id, name, color: '#abc', is_muted: false, description: '', invite_only: false })
const subs = new Map([[1, sub(1, 'general')], [2, sub(2, 'design')], [3, sub(3, 'noise')]])

describe('inboxGroups', () => {
  it('groups unread messages by direct conversation and stream topic, newest topic first, muted ones left out', () => {
    const u = new Unreads()
    u.add(1, { streamId: 1, topic: 'lunch', mentioned: false })
    u.add(2, { streamId: 1, topic: 'Lunch', mentioned: true })
    u.add(3, { streamId: 1, topic: 'printer', mentioned: false })
    u.add(4, { streamId: 2, topic: 'logo', mentioned: false })
    u.add(5, { pm: 'bob@x', mentioned: false })
    u.add(6, { streamId: 3, topic: 'spam', mentioned: false })
    u.add(7, { streamId: 2, topic: 'quiet', mentioned: false })
    const mute = { mutedStreams: new Set([3]), mutedTopics: new Set([topicKey(2, 'quiet')]), followedTopics: new Set([topicKey(1, 'printer')]) }
    const g = inboxGroups(u, mute, '', (e) => e, (id) => subs.get(id))
    expect(g.dms).toEqual([{ emails: 'bob@x', count: 1, newest: 5 }])
    expect(g.streams.map((s) => [s.name, s.count, s.topics.map((t) => [t.topic, t.count, t.mentioned, t.followed])])).toEqual([
      ['design', 1, [['logo', 1, false, false]]],
      ['general', 3, [['printer', 1, false, true], ['lunch', 2, true, false]]],
    ])
    expect(inboxGroups(u, mute, 'print', (e) => e, (id) => subs.get(id)).streams.map((s) => s.name)).toEqual(['general'])
  })
})
