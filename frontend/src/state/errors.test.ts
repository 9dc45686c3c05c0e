import { describe, expect, it } from 'vitest'
import { ApiError } from '../api/transport'
import { explain } from './errors'

const refused = (msg: string, code = 'BAD_REQUEST', status = 400, body = {}) => new ApiError(status, code, msg, body)

describe('explain', () => {
  it.each([
    [new TypeError('Failed to fetch'), 'Lanchat cannot reach the server. Check the connection; it will try again.'],
    [refused('Must be an organization administrator'), 'Only organization administrators can do this.'],
    [refused('Must be an organization owner', 'UNAUTHORIZED_PRINCIPAL'), 'Only organization owners can do this.'],
    [refused('Wrong password!'), 'The current password is wrong. Type it again.'],
    [refused("Stream 'x' already exists"), "Stream 'x' already exists. Choose another name."],
    [refused("Email 'c@example.com' already in use"), "Email 'c@example.com' already in use. Use a different one."],
    [refused("Missing 'to' argument", 'REQUEST_VARIABLE_MISSING', 400, { var_name: 'to' }), 'Choose a stream, or the people to send to.'],
    [refused('Invalid color_scheme: not one of its choices', 'REQUEST_VARIABLE_INVALID'), 'The value given for “color_scheme” is not accepted (not one of its choices). Correct it and try again.'],
    [refused('API usage exceeded rate limit', 'RATE_LIMIT_HIT', 429), 'Too many requests at once. Wait a few seconds and try again.'],
    [refused('boom', 'INTERNAL', 500), 'The server could not do that. Try again; if it keeps failing, ask the host to look at its log.'],
  ])('%s', (e, want) => expect(explain(e)).toBe(want))
})
