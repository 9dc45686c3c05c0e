import { defineConfig } from 'vite'

// The UI is embedded in the Go binaries (frontend/embed.go), which serve it
// from the root of the same origin as the API.
export default defineConfig({
  base: '/',
  build: { outDir: 'dist', emptyOutDir: true, assetsDir: 'assets', sourcemap: false },
  server: { proxy: { '/api': 'http://127.0.0.1:9991', '/accounts': 'http://127.0.0.1:9991', '/user_uploads': 'http://127.0.0.1:9991', '/user_avatars': 'http://127.0.0.1:9991' } },
  test: { environment: 'node', include: ['src/**/*.test.ts'] },
})
