// Raising notifications: the operating system's through the desktop host
// when the page runs in the window, else the browser's Notification API,
// which browsers offer only in a secure context (HTTPS or localhost).
import { desktop } from './desktop'

export type Permission = 'granted' | 'denied' | 'default' | 'unavailable'

export function permission(): Permission {
  if (desktop()?.Notify) return 'granted'
  if (typeof Notification === 'undefined' || !window.isSecureContext) return 'unavailable'
  return Notification.permission
}

export async function askPermission(): Promise<Permission> {
  if (permission() !== 'default') return permission()
  return await Notification.requestPermission()
}

// notify shows title and body; a click brings the window forward at hash.
export function notify(title: string, body: string, hash: string, tag: string) {
  const host = desktop()
  if (host?.Notify) return void host.Notify(title, body, hash).catch(() => {})
  if (permission() !== 'granted') return
  const n = new Notification(title, { body, tag, icon: '/icons/icon-192.png' })
  n.onclick = () => { window.focus(); location.hash = hash; n.close() }
}

// chime plays a short two-note sound, made here so nothing is fetched.
let audio: AudioContext | null = null
export function chime() {
  try {
    audio ??= new AudioContext()
    const now = audio.currentTime
    for (const [i, freq] of [880, 1320].entries()) {
      const osc = audio.createOscillator()
      const gain = audio.createGain()
      osc.frequency.value = freq
      gain.gain.setValueAtTime(0.0001, now + i * 0.12)
      gain.gain.exponentialRampToValueAtTime(0.2, now + i * 0.12 + 0.02)
      gain.gain.exponentialRampToValueAtTime(0.0001, now + i * 0.12 + 0.25)
      osc.connect(gain).connect(audio.destination)
      osc.start(now + i * 0.12)
      osc.stop(now + i * 0.12 + 0.3)
    }
  } catch {
    // No audio output: the notification itself still shows.
  }
}
