// Lazy renders a panel from a module fetched on first use, so panels a
// person opens now and then (settings, the stream browser, the desktop
// window's host panel) stay out of the first load.
import type { VNode } from 'preact'
import { useEffect, useState } from 'preact/hooks'

export function Lazy<M>(p: { load: () => Promise<M>; render: (m: M) => VNode }) {
  const [mod, setMod] = useState<M | null>(null)
  useEffect(() => {
    let live = true
    p.load().then((m) => { if (live) setMod(() => m) })
    return () => { live = false }
  }, [])
  return mod ? p.render(mod) : null
}
