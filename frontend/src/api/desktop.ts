// The desktop host's bound Go methods (app.App), present only in the window.

// authorityUrl: where other devices download this host's certificate
// authority to trust its HTTPS ("" when the host serves plain HTTP only).
export interface HostInfo { running: boolean; addresses: string[]; joinUrl: string; dataDir: string; version: string; authorityUrl: string }

// LogEntry is one of the host's recent warnings or errors (logring.Entry).
export interface LogEntry { time: string; level: string; message: string; attrs: string }

export interface DesktopHost {
  SetupToken(): Promise<string>
  HostInfo(): Promise<HostInfo>
  CreateAccount(fullName: string, email: string, role: string): Promise<{ email: string; password: string }>
  Backup(): Promise<string>
  OpenDataFolder(): Promise<void>
  RecentErrors(): Promise<LogEntry[]>
  // Notify raises a native notification; clicking it opens hash (hosts that predate it lack it).
  Notify?(title: string, body: string, hash: string): Promise<void>
}

declare global {
  interface Window {
    go?: { app?: { App?: DesktopHost } }
    runtime?: { EventsOn(name: string, cb: (data: any) => void): () => void }
  }
}

export function desktop(): DesktopHost | undefined {
  return window.go?.app?.App
}

export function onHostEvent(name: string, cb: (data: any) => void): () => void {
  return window.runtime?.EventsOn(name, cb) ?? (() => {})
}
