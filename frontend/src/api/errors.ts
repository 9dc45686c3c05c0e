// plainError turns a failed request into a sentence a person can act on:
// what happened and what to do. The server's own message is kept when it
// already says so; Zulip's codes and the browser's network failures are
// worded here.
// (ApiError is recognised by its fields, so this module has no import of the
// transport and its browser globals.)
interface ApiFailure extends Error { status: number; code: string }

const isApiFailure = (e: unknown): e is ApiFailure => e instanceof Error && 'status' in e && 'code' in e

const byCode: Record<string, string> = {
  UNAUTHORIZED: 'You are signed out. Sign in again to continue.',
  UNAUTHORIZED_PRINCIPAL: 'That person cannot be added here.',
  RATE_LIMIT_HIT: 'Too many requests at once. Wait a few seconds and try again.',
  STREAM_DOES_NOT_EXIST: 'That stream does not exist, or you cannot see it.',
  BAD_RESPONSE: 'The server gave an answer that could not be read. Try again in a moment.',
}

const byMessage: [RegExp, string][] = [
  [/^Must be an organization (administrator|owner)/i, 'Only organization administrators can do this.'],
  [/^Insufficient permission/i, 'You do not have permission to do this.'],
  [/^Wrong password/i, 'The current password is wrong. Type it again.'],
  [/^The password is too weak/i, 'The new password is too short: use at least 6 characters.'],
  [/already exists/i, '{msg}. Choose another name.'],
  [/already in use/i, '{msg}. Use a different one.'],
  [/^Invalid (\S+): (.*)$/, 'The value given for “$1” is not accepted ($2). Correct it and try again.'],
  [/^Missing '(\S+)' argument/, 'Fill in “$1” and try again.'],
]

export function plainError(e: unknown): string {
  if (isApiFailure(e)) {
    const msg = e.message.replace(/[.!]+$/, '')
    for (const [re, text] of byMessage) {
      const m = re.exec(msg)
      if (m) return text.replace(/\$(\d)/g, (_, i) => m[Number(i)]).replace('{msg}', msg)
    }
    if (byCode[e.code]) return byCode[e.code]
    if (e.status >= 500) return 'The server failed while doing this. Try again; if it keeps failing, tell your administrator.'
    return `${msg}.`
  }
  if (e instanceof TypeError) return 'The server could not be reached. Check your connection; the page reconnects by itself.'
  return e instanceof Error ? e.message : String(e)
}
