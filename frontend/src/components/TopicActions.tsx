import { useState } from 'preact/hooks'
import type { Chat } from '../state/chat'
import { explain } from '../state/errors'
import type { Narrow } from '../state/narrow'
import { topicKey } from '../state/conversation'
import { markStreamAsRead, markTopicAsRead, resolvedPrefix, setTopicPolicy, setTopicResolved, TopicPolicy } from '../api/zulip'

// TopicActions are the buttons beside a stream's or topic's title: mark it
// read; for a topic also resolve or unresolve it and follow or unfollow it,
// as Zulip's topic menu offers.
export function TopicActions(p: { chat: Chat; narrow: Narrow }) {
  const { chat, narrow } = p
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  if (narrow.kind !== 'stream') return null
  const act = (f: () => Promise<unknown>) => { setBusy(true); setError(''); f().catch((e) => setError(explain(e))).finally(() => setBusy(false)) }
  const { streamId, topic } = narrow
  if (topic === undefined) {
    return (
      <div class="topic-actions" data-testid="topic-actions">
        <button data-testid="mark-stream-read" disabled={busy} onClick={() => act(() => markStreamAsRead(streamId))}>Mark all as read</button>
        {error && <span class="form-error">{error}</span>}
      </div>
    )
  }
  const resolved = topic.startsWith(resolvedPrefix)
  const followed = chat.followedTopics.has(topicKey(streamId, topic))
  // Any message of the topic names it to the server.
  const anyMessage = chat.view.ids[chat.view.ids.length - 1] ?? chat.topics.get(streamId)?.find((t) => t.name.toLowerCase() === topic.toLowerCase())?.max_id
  return (
    <div class="topic-actions" data-testid="topic-actions">
      {anyMessage !== undefined && (
        <button data-testid="resolve-topic" disabled={busy} aria-pressed={resolved} onClick={() => act(() => setTopicResolved(anyMessage, topic, !resolved))}>
          {resolved ? 'Mark as unresolved' : '✔ Mark as resolved'}
        </button>
      )}
      <button data-testid="follow-topic" disabled={busy} aria-pressed={followed}
        onClick={() => act(() => setTopicPolicy(streamId, topic, followed ? TopicPolicy.inherit : TopicPolicy.followed))}>
        {followed ? 'Unfollow topic' : 'Follow topic'}
      </button>
      <button data-testid="mark-topic-read" disabled={busy} onClick={() => act(() => markTopicAsRead(streamId, topic))}>Mark all as read</button>
      {error && <span class="form-error">{error}</span>}
    </div>
  )
}
