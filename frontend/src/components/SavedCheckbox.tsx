import { useEffect, useState } from 'preact/hooks'

// SavedCheckbox is a checkbox for a value the server keeps. It shows the
// person's click at once and keeps showing it while the change is on its
// way: the value comes back with the change's event, and a render before
// then (a status line cleared, say) put the old value back, so the box
// flickered back and forth. save resolves to false when the change failed,
// and the box then shows the value as it is.
export function SavedCheckbox(p: { checked: boolean; save: (checked: boolean) => Promise<boolean>; testid?: string; label?: string }) {
  const [pending, setPending] = useState<boolean | null>(null)
  useEffect(() => setPending(null), [p.checked])
  return (
    <input type="checkbox" data-testid={p.testid} aria-label={p.label} checked={pending ?? p.checked}
      onChange={(e) => {
        const checked = (e.target as HTMLInputElement).checked
        setPending(checked)
        p.save(checked).then((saved) => { if (!saved) setPending(null) })
      }} />
  )
}
