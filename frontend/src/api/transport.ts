// One place that talks HTTP to the server. In a browser the session is a
// cookie plus a CSRF token; in the desktop window (a wails: page, where
// WebKitGTK keeps no cookies for custom schemes) it is the API key.

export type Json = Record<string, any>

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, msg: string, readonly body: Json) {
    super(msg)
  }
}

export const inWindow = typeof location !== 'undefined' && !/^https?:$/.test(location.protocol)

const windowCredentialsKey = 'lanchat.window.credentials'

interface Credentials { email: string; apiKey: string }

let csrfToken = ''
let credentials: Credentials | null = inWindow ? loadCredentials() : null

function loadCredentials(): Credentials | null {
  try {
    const c = JSON.parse(localStorage.getItem(windowCredentialsKey) ?? 'null')
    return c && c.email && c.apiKey ? c : null
  } catch {
    return null
  }
}

export function setCsrfToken(token: string) { csrfToken = token }

export function setWindowCredentials(c: Credentials | null) {
  credentials = c
  if (c) localStorage.setItem(windowCredentialsKey, JSON.stringify(c))
  else localStorage.removeItem(windowCredentialsKey)
}

export function hasWindowCredentials() { return credentials !== null }

function authHeaders(method: string): Record<string, string> {
  const h: Record<string, string> = { 'X-Requested-With': 'XMLHttpRequest' }
  if (credentials) {
    h.Authorization = 'Basic ' + btoa(unescape(encodeURIComponent(`${credentials.email}:${credentials.apiKey}`)))
  } else if (method !== 'GET' && csrfToken) {
    h['X-CSRF-Token'] = csrfToken
  }
  return h
}

// Params are form-encoded as Zulip expects: arrays and objects as JSON.
export function encodeParams(params: Json = {}): URLSearchParams {
  const form = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined || v === null) continue
    form.set(k, typeof v === 'object' ? JSON.stringify(v) : String(v))
  }
  return form
}

export async function call(method: string, path: string, params?: Json, signal?: AbortSignal): Promise<Json> {
  const form = encodeParams(params)
  let url = path
  let body: BodyInit | undefined
  if (method === 'GET' || method === 'DELETE') {
    const q = form.toString()
    if (q) url += '?' + q
  } else {
    body = form
  }
  return send(method, url, body, signal)
}

export async function upload(path: string, file: File): Promise<Json> {
  const data = new FormData()
  data.append('file', file, file.name)
  return send('POST', path, data)
}

// uploadBody sends a file as the request's whole body (an export archive,
// which the server streams to disk as it arrives).
export async function uploadBody(path: string, file: File): Promise<Json> {
  return send('POST', path, file)
}

async function send(method: string, url: string, body?: BodyInit, signal?: AbortSignal): Promise<Json> {
  const res = await fetch(url, { method, body, headers: authHeaders(method), credentials: 'same-origin', signal })
  let json: Json
  try {
    json = await res.json()
  } catch {
    throw new ApiError(res.status, 'BAD_RESPONSE', `The server answered ${res.status}`, {})
  }
  if (!res.ok || json.result === 'error') {
    throw new ApiError(res.status, json.code ?? 'BAD_REQUEST', json.msg ?? `Error ${res.status}`, json)
  }
  return json
}

export const api = {
  get: (path: string, p?: Json, signal?: AbortSignal) => call('GET', path, p, signal),
  post: (path: string, p?: Json) => call('POST', path, p),
  patch: (path: string, p?: Json) => call('PATCH', path, p),
  del: (path: string, p?: Json) => call('DELETE', path, p),
}
