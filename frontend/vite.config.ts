import { defineConfig, type Plugin } from 'vite'

// preloadApp names the app's script (src/ui.tsx, imported by the entry once
// it has started the first requests) and what it imports in the HTML, so
// that the browser fetches and compiles it beside the entry, not after it.
function preloadApp(): Plugin {
  return {
    name: 'preload-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c) => c.type === 'chunk')
        const app = chunks.find((c) => c.facadeModuleId?.endsWith('/src/ui.tsx'))
        if (!app) throw new Error('preload-app: no chunk for src/ui.tsx')
        return [app.fileName, ...app.imports].filter((file) => !html.includes(file)).map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' }))
      },
    },
  }
}

// The UI is embedded in the Go binaries (frontend/embed.go), which serve it
// from the root of the same origin as the API.
export default defineConfig({
  base: '/',
  plugins: [preloadApp()],
  // One style sheet, named in the HTML: the app's script is loaded from the
  // entry, and its styles would otherwise come only after it.
  build: { outDir: 'dist', emptyOutDir: true, assetsDir: 'assets', sourcemap: false, cssCodeSplit: false,
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] } } } },
  server: { proxy: { '/api': 'http://127.0.0.1:9991', '/accounts': 'http://127.0.0.1:9991', '/user_uploads': 'http://127.0.0.1:9991', '/user_avatars': 'http://127.0.0.1:9991' } },
  test: { environment: 'node', include: ['src/**/*.test.ts'] },
})
