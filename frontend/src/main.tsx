import { render } from 'preact'
import { App } from './components/App'
import { startEarly } from './state/startup'
import './styles.css'

startEarly(location.hash)

render(<App />, document.getElementById('app')!)
