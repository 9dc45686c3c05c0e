// A poll or a todo list in place of its message's text, as Zulip's web app
// draws them. State comes from the message's submessages alone: a click
// posts a submessage and the widget changes when its event comes back, so
// every reader sees the same thing at the same time.
import { useState } from 'preact/hooks'
import * as zulip from '../api/zulip'
import type { Chat } from '../state/chat'
import { explain } from '../state/errors'
import type { Message } from '../state/types'
import { newOptionEvent, newTaskEvent, questionEvent, strikeEvent, titleEvent, voteEvent, type Poll, type TodoList, type Widget as WidgetState } from '../state/widgets'

interface Props { chat: Chat; m: Message; widget: WidgetState }

export function Widget(p: Props) {
  const [error, setError] = useState('')
  const submit = (event: object | null) => {
    if (!event) return Promise.resolve(false)
    setError('')
    return zulip.sendSubmessage(p.m.id, event)
      .then(() => true, (e) => { setError(explain(e)); return false })
  }
  return (
    <div class={`widget ${p.widget.kind}`} onClick={(e) => e.stopPropagation()}>
      {p.widget.kind === 'poll' ? <PollWidget {...p} poll={p.widget} submit={submit} /> : <TodoWidget {...p} todo={p.widget} submit={submit} />}
      {error && <p class="form-error" data-testid="widget-error">{error}</p>}
    </div>
  )
}

type Submit = (event: object | null) => Promise<boolean>

// Heading is the widget's title, which its author may change.
function Heading(p: { text: string; placeholder: string; mine: boolean; testid: string; onSave: (text: string) => Promise<boolean> }) {
  const [editing, setEditing] = useState<string | null>(p.mine && !p.text ? '' : null)
  const save = async () => { if (editing?.trim() && (await p.onSave(editing))) setEditing(null) }
  if (editing === null) {
    return (
      <div class="widget-head">
        <h4 data-testid={p.testid}>{p.text}</h4>
        {p.mine && <button class="icon" data-testid={`${p.testid}-edit`} title="Edit" aria-label="Edit" onClick={() => setEditing(p.text)}>✎</button>}
      </div>
    )
  }
  return (
    <form class="widget-head" onSubmit={(e) => { e.preventDefault(); save() }}>
      <input data-testid={`${p.testid}-input`} aria-label={p.placeholder} placeholder={p.placeholder} value={editing}
        onInput={(e) => setEditing((e.target as HTMLInputElement).value)} onKeyDown={(e) => { if (e.key === 'Escape' && p.text) setEditing(null) }} />
      <button type="submit" class="primary" disabled={!editing.trim()}>Save</button>
      {p.text && <button type="button" onClick={() => setEditing(null)}>Cancel</button>}
    </form>
  )
}

// AddRow is a field (or two) and a button that add an option or a task.
function AddRow(p: { fields: { placeholder: string; testid: string }[]; button: string; testid: string; onAdd: (values: string[]) => Promise<boolean> }) {
  const [values, setValues] = useState(p.fields.map(() => ''))
  const add = async () => { if (values[0].trim() && (await p.onAdd(values))) setValues(p.fields.map(() => '')) }
  return (
    <form class="widget-add" onSubmit={(e) => { e.preventDefault(); add() }}>
      {p.fields.map((f, i) => (
        <input data-testid={f.testid} aria-label={f.placeholder} placeholder={f.placeholder} value={values[i]}
          onInput={(e) => { const v = (e.target as HTMLInputElement).value; setValues(values.map((x, j) => (j === i ? v : x))) }} />
      ))}
      <button type="submit" data-testid={p.testid} disabled={!values[0].trim()}>{p.button}</button>
    </form>
  )
}

function PollWidget(p: Props & { poll: Poll; submit: Submit }) {
  const me = p.chat.me.user_id
  const mine = p.m.sender_id === me
  const name = (id: number) => p.chat.users.get(id)?.full_name ?? `user ${id}`
  return (
    <div data-testid="poll">
      <Heading text={p.poll.question} placeholder="Add question" mine={mine} testid="poll-question" onSave={(q) => p.submit(questionEvent(q))} />
      {!p.poll.question && !mine && <p class="hint">We are about to have a poll. Please wait for the question.</p>}
      <ul class="poll-options">
        {p.poll.options.map((o) => {
          const voted = o.voters.includes(me)
          return (
            <li data-testid="poll-option" data-key={o.key}>
              <button class={`poll-vote ${voted ? 'voted' : ''}`} data-testid="poll-vote" aria-pressed={voted}
                aria-label={`${voted ? 'Take back your vote for' : 'Vote for'} ${o.option}: ${o.voters.length} ${o.voters.length === 1 ? 'vote' : 'votes'}`}
                disabled={!p.poll.question} onClick={() => p.submit(voteEvent(o, me))}>{o.voters.length}</button>
              <span class="poll-option-text">{o.option}</span>
              {o.voters.length > 0 && <span class="poll-voters" data-testid="poll-voters">({o.voters.map(name).join(', ')})</span>}
            </li>
          )
        })}
      </ul>
      {p.poll.question && <AddRow fields={[{ placeholder: 'New option', testid: 'poll-new-option' }]} button="Add option" testid="poll-add-option"
        onAdd={([option]) => p.submit(newOptionEvent(p.poll, me, option))} />}
    </div>
  )
}

function TodoWidget(p: Props & { todo: TodoList; submit: Submit }) {
  const me = p.chat.me.user_id
  return (
    <div data-testid="todo">
      <Heading text={p.todo.title || 'Task list'} placeholder="Add todo task list title" mine={p.m.sender_id === me} testid="todo-title"
        onSave={(t) => p.submit(titleEvent(t))} />
      <ul class="todo-tasks">
        {p.todo.tasks.map((t) => (
          <li data-testid="todo-task" data-key={t.key} data-completed={t.completed ? 'true' : 'false'}>
            <label>
              {/* The box shows what the server holds: a click asks for the strike and the event ticks it. */}
              <input type="checkbox" data-testid="todo-checkbox" checked={t.completed}
                onClick={(e) => { e.preventDefault(); p.submit(strikeEvent(t)) }} />
              <span class={t.completed ? 'todo-done' : ''}><strong>{t.task}</strong>{t.desc && `: ${t.desc}`}</span>
            </label>
          </li>
        ))}
      </ul>
      <AddRow fields={[{ placeholder: 'New task', testid: 'todo-new-task' }, { placeholder: 'Description', testid: 'todo-new-desc' }]}
        button="Add task" testid="todo-add-task" onAdd={([task, desc]) => p.submit(newTaskEvent(p.todo, me, task, desc))} />
    </div>
  )
}
