// The desktop host's bound Go methods (app.App), present only in the window.

// authorityUrl: where other devices download this host's certificate
// authority to trust its HTTPS ("" when the host serves plain HTTP only).
// unreachable: this machine's addresses that do not reach the server, which
// listens only on listen (e.g. 127.0.0.1:9991).
export interface HostInfo {
  running: boolean; addresses: string[] | null; unreachable: string[] | null; listen: string; joinUrl: string
  // joined: the team this app joined instead of hosting one ("" when
  // hosting); a member's app then gives joinUrl (the same address) and
  // nothing of a host's (no addresses, data folder or authority).
  joined: string
  // authority: the fingerprint of the host's certificate authority (four
  // groups of hex digits): a host's own, which members compare with what
  // their app shows when they join; a member's, the one its app trusts for
  // the team. "" without one (plain HTTP; hosts that predate it lack it).
  authority?: string
  dataDir: string; version: string; authorityUrl: string
}

// LogEntry is one of the host's recent warnings or errors (logring.Entry).
export interface LogEntry { time: string; level: string; message: string; attrs: string }

export interface DesktopHost {
  SetupToken(): Promise<string>
  HostInfo(): Promise<HostInfo>
  CreateAccount(fullName: string, email: string, role: string): Promise<{ email: string; password: string }>
  // IssuePassword gives an existing account (an imported person's) a new
  // generated password. Hosts that predate it lack it.
  IssuePassword?(email: string): Promise<{ email: string; password: string }>
  Backup(): Promise<string>
  OpenDataFolder(): Promise<void>
  RecentErrors(): Promise<LogEntry[]>
  // Notify raises a native notification (the operating system's, over
  // D-Bus); a click brings the window forward and opens hash (a narrow).
  // Hosts that predate it lack it.
  Notify?(title: string, body: string, hash: string): Promise<void>
  SetTitle?(title: string): Promise<void>
  LeaveTeam(): Promise<void>
}

declare global {
  interface Window {
    go?: { app?: { App?: DesktopHost } }
    runtime?: { EventsOn(name: string, cb: (data: any) => void): () => void }
  }
}

let following = false

export function desktop(): DesktopHost | undefined {
  const host = window.go?.app?.App
  if (host) followPage(host)
  return host
}

// followPage, once per page: a click on one of our notifications opens its
// conversation, and the window (its taskbar entry) takes the page's title,
// which carries the unread count; WebKitGTK passes neither on by itself.
function followPage(host: DesktopHost) {
  if (following) return
  following = true
  onHostEvent('notification:open', (hash: string) => { location.hash = hash })
  const title = () => { host.SetTitle?.(document.title).catch(() => {}) }
  new MutationObserver(title).observe(document.head, { subtree: true, childList: true, characterData: true })
  title()
}

export function onHostEvent(name: string, cb: (data: any) => void): () => void {
  return window.runtime?.EventsOn(name, cb) ?? (() => {})
}
