import { describe, expect, it } from 'vitest'
import { newOptionEvent, newTaskEvent, strikeEvent, voteEvent, widgetOf, type Poll, type TodoList } from './widgets'
import type { Submessage } from './types'

const author = 7
let nextId = 1
const sub = (sender_id: number, content: unknown, msg_type = 'widget'): Submessage =>
  ({ id: nextId++, message_id: 1, sender_id, msg_type, content: typeof content === 'string' ? content : JSON.stringify(content) })
const pollDef = sub(author, { widget_type: 'poll', extra_data: { question: 'Lunch?', options: ['Pizza', 'Soup', 'Pizza'] } })
const todoDef = sub(author, { widget_type: 'todo', extra_data: { task_list_title: '', tasks: [{ task: 'Tag', desc: 'on main' }] } })

describe('widgetOf', () => {
  it('reads no widget from a plain message or one its sender did not define', () => {
    expect(widgetOf({ sender_id: author, submessages: [] })).toBeNull()
    expect(widgetOf({ sender_id: author })).toBeNull()
    expect(widgetOf({ sender_id: 8, submessages: [pollDef] })).toBeNull()
    expect(widgetOf({ sender_id: author, submessages: [sub(author, 'not json')] })).toBeNull()
  })

  it('replays votes, options and question edits in ID order', () => {
    const later = [
      sub(8, { type: 'vote', key: 'canned,0', vote: 1 }),
      sub(9, { type: 'vote', key: 'canned,0', vote: 1 }),
      sub(9, { type: 'new_option', idx: 1, option: 'Salad' }),
      sub(8, { type: 'question', question: 'Hijacked?' }), // not the author's: ignored
      sub(author, { type: 'question', question: 'Lunch today?' }),
      sub(9, { type: 'vote', key: 'canned,0', vote: -1 }),
      sub(8, { type: 'vote', key: 'nowhere', vote: 1 }),
      sub(8, { type: 'new_option', idx: 5000, option: 'Too far' }),
    ]
    const poll = widgetOf({ sender_id: author, submessages: [...later].reverse().concat(pollDef) }) as Poll
    expect(poll.question).toBe('Lunch today?')
    expect(poll.options).toEqual([
      { key: 'canned,0', option: 'Pizza', voters: [8] },
      { key: 'canned,1', option: 'Soup', voters: [] },
      { key: '9,1', option: 'Salad', voters: [] },
    ])
    expect(voteEvent(poll.options[0], 8)).toEqual({ type: 'vote', key: 'canned,0', vote: -1 })
    expect(voteEvent(poll.options[0], 9)).toEqual({ type: 'vote', key: 'canned,0', vote: 1 })
    expect(newOptionEvent(poll, 9, ' Curry ')).toEqual({ type: 'new_option', idx: 2, option: 'Curry' })
    expect(newOptionEvent(poll, 8, 'Curry')).toEqual({ type: 'new_option', idx: 1, option: 'Curry' })
    expect(newOptionEvent(poll, 8, 'Soup')).toBeNull()
    expect(newOptionEvent(poll, 8, '  ')).toBeNull()
  })

  it('replays tasks and strikes, each strike toggling', () => {
    const todo = widgetOf({ sender_id: author, submessages: [todoDef,
      sub(8, { type: 'strike', key: '0,canned' }),
      sub(9, { type: 'new_task', key: 2, task: 'Announce', desc: '', completed: false }),
      sub(9, { type: 'strike', key: '2,9' }),
      sub(8, { type: 'strike', key: '2,9' }),
      sub(8, { type: 'new_task_list_title', title: 'Mine' }), // not the author's
      sub(author, { type: 'new_task_list_title', title: 'Release' }),
    ] }) as TodoList
    expect(todo.title).toBe('Release')
    expect(todo.tasks).toEqual([
      { key: '0,canned', task: 'Tag', desc: 'on main', completed: true },
      { key: '2,9', task: 'Announce', desc: '', completed: false },
    ])
    expect(strikeEvent(todo.tasks[1])).toEqual({ type: 'strike', key: '2,9' })
    expect(newTaskEvent(todo, 9, 'Blog', ' post ')).toEqual({ type: 'new_task', key: 3, task: 'Blog', desc: 'post', completed: false })
    expect(newTaskEvent(todo, 8, 'Blog', '')?.key).toBe(1)
    expect(newTaskEvent(todo, 8, 'Tag', '')).toBeNull()
  })
})
