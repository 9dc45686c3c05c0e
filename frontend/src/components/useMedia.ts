import { useEffect, useState } from 'preact/hooks'

// phoneLayout is the width at which the layout becomes a phone's (styles.css).
export const phoneLayout = '(max-width: 700px)'

// useMedia follows a media query.
export function useMedia(query: string): boolean {
  const [matches, setMatches] = useState(() => matchMedia(query).matches)
  useEffect(() => {
    const list = matchMedia(query)
    const changed = () => setMatches(list.matches)
    list.addEventListener('change', changed)
    return () => list.removeEventListener('change', changed)
  }, [query])
  return matches
}
