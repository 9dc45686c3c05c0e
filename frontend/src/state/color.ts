// textOn picks the text color readable on a stream's color (dark or white,
// whichever contrasts more, by WCAG's relative luminance), as Zulip does
// for its stream labels.
const channel = (v: number) => { const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4 }

export const darkText = '#1f2328'

function luminance(hex: string): number | null {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex.trim())
  if (!m) return null
  const [r, g, b] = m.slice(1).map((h) => channel(parseInt(h, 16)))
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

export function textOn(background: string): string {
  const l = luminance(background)
  if (l === null) return darkText
  const dark = luminance(darkText)!
  return (l + 0.05) / (dark + 0.05) >= 1.05 / (l + 0.05) ? darkText : '#ffffff'
}

// unsubscribedColor is a stream's swatch for someone not subscribed to it (no color of their own).
export const unsubscribedColor = '#9aa1ab'
