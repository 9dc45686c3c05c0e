// Zulip's keyboard shortcuts that Lanchat knows, listed once for the help
// overlay (?) and the settings page.
const shortcuts: [string, string][] = [
  ['Enter or r', 'Reply to the selected message'], ['R', 'Direct message to its sender'], ['@', 'Reply, mentioning its sender'],
  ['c', 'New stream message'], ['x', 'New direct message'], ['d', 'Drafts'],
  ['↑ ↓ or k j', 'Previous or next message or conversation'], ['PgUp PgDn', 'Scroll a page'], ['Home End', 'First or last message'],
  ['n', 'Next unread topic'], ['p', 'Next unread direct message'], ['s', 'Go to the selected message’s stream, then its topic'],
  ['S', 'Go to the selected message’s topic'], ['t', 'Recent conversations'], ['*', 'Star or unstar the selected message'],
  ['v', 'Show the selected message’s images'], ['u', 'Show the selected message’s sender'], ['i', 'Open the selected message’s menu'],
  ['e', 'Edit the selected message'], ['←', 'Edit your last message'], ['+', 'Toggle 👍 on the selected message'], [':', 'React to the selected message'],
  ['M', 'Mute or unmute the selected message’s topic'], ['U', 'Mark unread from the selected message'], ['P', 'All direct messages'], ['/ or Ctrl+k', 'Search'], ['q', 'Filter streams'], ['w', 'Search people'],
  ['?', 'This list'], ['Esc', 'Close, cancel, or go back to Inbox'],
]

export function ShortcutList() {
  return <dl class="keys">{shortcuts.map(([k, what]) => <><dt>{k}</dt><dd>{what}</dd></>)}</dl>
}

export function ShortcutsHelp(p: { onClose: () => void }) {
  return (
    <div class="overlay" onClick={p.onClose}>
      <div class="panel" role="dialog" aria-label="Keyboard shortcuts" data-testid="shortcuts" onClick={(e) => e.stopPropagation()}>
        <header><h2>Keyboard shortcuts</h2><button class="icon" title="Close" aria-label="Close" onClick={p.onClose}>✕</button></header>
        <ShortcutList />
      </div>
    </div>
  )
}

// Lightbox shows a message's images full size, each with a link to the
// original; Esc or a click beside them closes it.
export function Lightbox(p: { images: string[]; onClose: () => void }) {
  const name = (src: string) => decodeURIComponent(src.split('/').pop() ?? src)
  return (
    <div class="overlay lightbox" data-testid="lightbox" role="dialog" aria-label="Images" onClick={p.onClose}>
      <button class="icon lightbox-close" title="Close" aria-label="Close" onClick={p.onClose}>✕</button>
      {p.images.map((src) => (
        <figure onClick={(e) => e.stopPropagation()}>
          <img src={src} alt={name(src)} data-testid="lightbox-image" />
          <figcaption><span>{name(src)}</span> <a href={src} target="_blank" rel="noopener" data-testid="lightbox-original">Open original</a></figcaption>
        </figure>
      ))}
    </div>
  )
}
