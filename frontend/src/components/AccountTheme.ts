// The theme is kept in the account's user_settings (color_scheme), so it
// follows the person to every browser rather than staying in one.
import { useEffect } from 'preact/hooks'
import * as zulip from '../api/zulip'
import type { Chat } from '../state/chat'

// Theme is the UI's color scheme.
export type Theme = 'light' | 'dark'

// Zulip's color_scheme: 1 follows the system, 2 dark, 3 light.
export const schemeOf = (t: Theme) => (t === 'dark' ? 2 : 3)

export function themeOfScheme(scheme: unknown, systemDark: boolean): Theme {
  if (scheme === 2) return 'dark'
  if (scheme === 3) return 'light'
  return systemDark ? 'dark' : 'light'
}

// useAccountTheme applies the account's theme once signed in and whenever
// it changes (from this or another browser).
export function useAccountTheme(chat: Chat, ready: boolean, setTheme: (t: Theme) => void) {
  const scheme = ready ? chat.userSettings.color_scheme : undefined
  useEffect(() => {
    if (scheme !== undefined) setTheme(themeOfScheme(scheme, matchMedia('(prefers-color-scheme: dark)').matches))
  }, [scheme])
}

export const saveTheme = (t: Theme) => zulip.updateSettings({ color_scheme: schemeOf(t) })
