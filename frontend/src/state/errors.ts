// explain turns a failed request into a sentence for a person: what happened
// and what to do, instead of the API's wording ("Missing 'to' argument") or
// the browser's ("Failed to fetch").
import { ApiError } from '../api/transport'

const missing: Record<string, string> = {
  to: 'Choose a stream, or the people to send to.',
  topic: 'Add a topic.',
  content: 'Type a message first.',
}

// Refusals whose words say what happened but not what to do ($1 is the
// first group, {msg} the server's sentence).
const refusals: [RegExp, string][] = [
  [/^Must be an organization (administrator|owner)/i, 'Only organization $1s can do this.'],
  [/^Insufficient permission/i, 'You do not have permission to do this.'],
  [/^Wrong password/i, 'The current password is wrong. Type it again.'],
  [/^The password is too weak/i, 'The new password is too short: use at least 6 characters.'],
  [/already exists/i, '{msg}. Choose another name.'],
  [/already in use/i, '{msg}. Use a different one.'],
  [/^Invalid (\S+): (.*)$/, 'The value given for “$1” is not accepted ($2). Correct it and try again.'],
]

export function explain(e: unknown): string {
  if (!(e instanceof ApiError)) {
    if (e instanceof TypeError) return 'Lanchat cannot reach the server. Check the connection; it will try again.'
    return e instanceof Error ? e.message : String(e)
  }
  const varName = e.body.var_name as string | undefined
  const msg = e.message.replace(/[.!]+$/, '')
  for (const [re, text] of refusals) {
    const m = re.exec(msg)
    if (m) return text.replace(/\$(\d)/g, (_, i) => m[Number(i)]).replace('{msg}', msg)
  }
  switch (e.code) {
    case 'REQUEST_VARIABLE_MISSING': return (varName && missing[varName]) ?? `Fill in ${varName ?? 'the missing field'}.`
    case 'UNAUTHORIZED': case 'UNAUTHORIZED_PRINCIPAL': return 'You are signed out. Sign in again to continue.'
    case 'RATE_LIMIT_HIT': return 'Too many requests at once. Wait a few seconds and try again.'
    case 'STREAM_DOES_NOT_EXIST': return `There is no stream named “${e.body.stream ?? ''}”. Check the name, or create the stream first.`
    case 'BAD_EVENT_QUEUE_ID': return 'The connection to the server was reset. Reload the page.'
  }
  if (/must have recipients/i.test(e.message)) return missing.to
  if (/invalid email/i.test(e.message)) return 'Someone in the recipients is not a member here. Pick people from the suggestions.'
  if (e.status === 413) return 'That is larger than the server accepts.'
  if (e.status >= 500) return 'The server could not do that. Try again; if it keeps failing, ask the host to look at its log.'
  return e.message
}
