// Zulip's widgets (polls and todo lists) as the web app draws them: a
// message's first submessage, its sender's, defines the widget; the later
// ones (votes, options, tasks, strikes) are replayed in ID order to give its
// state, and the outbound helpers build the events a click sends to
// POST /submessage. Replaying follows the same rules as Zulip's clients, so
// both draw the same poll from the same submessages.
import type { Submessage } from './types'

export interface PollOption { key: string; option: string; voters: number[] }
export interface Poll { kind: 'poll'; question: string; options: PollOption[] }
export interface Task { key: string; task: string; desc: string; completed: boolean }
export interface TodoList { kind: 'todo'; title: string; tasks: Task[] }
export type Widget = Poll | TodoList

// maxIndex bounds the indexes of added options and tasks (Zulip's MAX_IDX).
const maxIndex = 1000

// The key of the options and tasks the widget's command line gave.
const canned = 'canned'

type Json = Record<string, unknown>

function parse(content: string): Json | null {
  try {
    const v = JSON.parse(content)
    return v && typeof v === 'object' && !Array.isArray(v) ? v : null
  } catch {
    return null
  }
}

const isIndex = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= maxIndex
const str = (v: unknown) => (typeof v === 'string' ? v : '')

// widgetOf is the widget a message carries, or null for a plain message.
export function widgetOf(m: { sender_id: number; submessages?: Submessage[] }): Widget | null {
  const subs = [...(m.submessages ?? [])].sort((a, b) => a.id - b.id)
  const first = subs[0]
  // A widget defined by anyone but the message's sender is ignored, as in Zulip.
  if (!first || first.msg_type !== 'widget' || first.sender_id !== m.sender_id) return null
  const def = parse(first.content)
  const extra = (def?.extra_data ?? {}) as Json
  const events = subs.slice(1).map((s) => ({ sender: s.sender_id, data: parse(s.content) }))
  if (def?.widget_type === 'poll') {
    const poll: Poll = { kind: 'poll', question: str(extra.question), options: [] }
    const addOption = (sender: number | string, idx: unknown, option: unknown) => {
      if (!isIndex(idx) || typeof option !== 'string' || poll.options.some((o) => o.option === option)) return
      poll.options.push({ key: `${sender},${idx}`, option, voters: [] })
    }
    const options = Array.isArray(extra.options) ? extra.options : []
    options.forEach((o, i) => addOption(canned, i, o))
    for (const { sender, data } of events) {
      if (data?.type === 'new_option') addOption(sender, data.idx, data.option)
      if (data?.type === 'question' && sender === m.sender_id && typeof data.question === 'string') poll.question = data.question
      if (data?.type === 'vote') {
        const o = poll.options.find((x) => x.key === data.key)
        if (!o) continue
        if (data.vote === 1 && !o.voters.includes(sender)) o.voters.push(sender)
        if (data.vote === -1) o.voters = o.voters.filter((u) => u !== sender)
      }
    }
    return poll
  }
  if (def?.widget_type === 'todo') {
    const todo: TodoList = { kind: 'todo', title: str(extra.task_list_title), tasks: [] }
    const addTask = (sender: number | string, idx: unknown, task: unknown, desc: unknown, completed: unknown) => {
      if (!isIndex(idx) || typeof task !== 'string' || typeof desc !== 'string' || todo.tasks.some((t) => t.task === task)) return
      todo.tasks.push({ key: `${idx},${sender}`, task, desc, completed: completed === true })
    }
    const tasks = Array.isArray(extra.tasks) ? extra.tasks : []
    tasks.forEach((t, i) => addTask(canned, i, t?.task, t?.desc ?? '', false))
    for (const { sender, data } of events) {
      if (data?.type === 'new_task') addTask(sender, data.key, data.task, data.desc, data.completed)
      if (data?.type === 'new_task_list_title' && sender === m.sender_id && typeof data.title === 'string') todo.title = data.title
      if (data?.type === 'strike') {
        const t = todo.tasks.find((x) => x.key === data.key)
        if (t) t.completed = !t.completed
      }
    }
    return todo
  }
  return null
}

// nextIndex is the index of the next option or task I add: past every one
// I added before (keys name their adder), as Zulip's clients count.
function nextIndex(keys: string[], mine: (key: string) => number | null): number {
  let next = 1
  for (const k of keys) {
    const idx = mine(k)
    if (idx !== null && idx >= next) next = idx + 1
  }
  return next
}

// The events my clicks send, as POST /submessage's content.

export const voteEvent = (o: PollOption, me: number) => ({ type: 'vote', key: o.key, vote: o.voters.includes(me) ? -1 : 1 })

// newOptionEvent adds an option, or is null when it is blank or already there.
export function newOptionEvent(poll: Poll, me: number, option: string) {
  option = option.trim()
  if (!option || poll.options.some((o) => o.option === option)) return null
  const idx = nextIndex(poll.options.map((o) => o.key), (k) => (k.startsWith(`${me},`) ? Number(k.slice(k.indexOf(',') + 1)) : null))
  return { type: 'new_option', idx, option }
}

export const questionEvent = (question: string) => ({ type: 'question', question: question.trim() })

// newTaskEvent adds a task, or is null when it is blank or already there.
export function newTaskEvent(todo: TodoList, me: number, task: string, desc: string) {
  task = task.trim()
  if (!task || todo.tasks.some((t) => t.task === task)) return null
  const key = nextIndex(todo.tasks.map((t) => t.key), (k) => (k.endsWith(`,${me}`) ? Number(k.slice(0, k.indexOf(','))) : null))
  return { type: 'new_task', key, task, desc: desc.trim(), completed: false }
}

export const strikeEvent = (t: Task) => ({ type: 'strike', key: t.key })

export const titleEvent = (title: string) => ({ type: 'new_task_list_title', title: title.trim() })
