import { describe, expect, it } from 'vitest'
import { plainError } from './errors'

const api = (msg: string, code = 'BAD_REQUEST', status = 400) => Object.assign(new Error(msg), { code, status })

describe('plainError', () => {
  it.each([
    [new TypeError('Failed to fetch'), 'The server could not be reached. Check your connection; the page reconnects by itself.'],
    [api('Must be an organization administrator'), 'Only organization administrators can do this.'],
    [api('Wrong password!'), 'The current password is wrong. Type it again.'],
    [api("Stream 'x' already exists"), "Stream 'x' already exists. Choose another name."],
    [api("Email 'c@example.com' already in use"), "Email 'c@example.com' already in use. Use a different one."],
    [api("Missing 'name' argument", 'REQUEST_VARIABLE_MISSING'), 'Fill in “name” and try again.'],
    [api('Invalid color_scheme: not one of its choices', 'REQUEST_VARIABLE_INVALID'), 'The value given for “color_scheme” is not accepted (not one of its choices). Correct it and try again.'],
    [api('API usage exceeded rate limit', 'RATE_LIMIT_HIT', 429), 'Too many requests at once. Wait a few seconds and try again.'],
    [api('boom', 'INTERNAL', 500), 'The server failed while doing this. Try again; if it keeps failing, tell your administrator.'],
    [api('Not subscribed to stream id 4'), 'Not subscribed to stream id 4.'],
  ])('%s', (e, want) => expect(plainError(e)).toBe(want))
})
