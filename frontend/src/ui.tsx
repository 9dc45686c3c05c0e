import { render } from 'preact'
import { App } from './components/App'
// After the components' own styles, as the cascade has always had it; the
// one style sheet is named in the HTML all the same (vite.config.ts).
import './styles.css'

render(<App />, document.getElementById('app')!)
