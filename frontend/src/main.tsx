// The entry is small so that it runs soon after the page arrives: it starts
// the page's first requests (startup.ts), then the app, whose larger script
// (preact and the components) the page has been fetching and compiling
// beside it since the HTML named it (vite.config.ts).
import { startEarly } from './state/startup'

startEarly(location.hash)
import('./ui')
