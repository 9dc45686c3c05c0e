package api

import (
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"

	"lanchat/backend/domain"
	"lanchat/frontend"
)

// uiPolicy is the web UI's Content-Security-Policy: everything from this
// server only, no inline scripts, images also from data: and blob: (pasted
// uploads), connections (WebSockets too: 'self' covers ws: and wss: to
// this server in CSP Level 3) back to this server only.
const uiPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; " +
	"connect-src 'self'; font-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"

// The web app manifest's type, which Go's table lacks (browsers read the
// manifest that lets a phone add the page to its home screen).
func init() { _ = mime.AddExtensionType(".webmanifest", "application/manifest+json") }

// notBuilt answers when the binary was built without the UI.
const notBuilt = `<!doctype html><meta charset="utf-8"><title>Lanchat</title>
<p>The web UI is not built into this binary. Run <code>make ui</code> and build again. The API is at <code>/api/v1</code>.</p>`

// ui serves the single-page app: existing files as they are, every other
// path as index.html so client-side routes survive a reload.
func (a *API) ui() http.Handler {
	files := http.FileServerFS(frontend.Files)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, r, &statusError{http.StatusMethodNotAllowed,
				domain.BadRequest("Method Not Allowed").With("allowed_methods", []string{"GET", "HEAD"})})
			return
		}
		w.Header().Set("Content-Security-Policy", uiPolicy)
		name := strings.TrimPrefix(path.Clean(r.URL.Path), "/")
		if name != "" {
			if info, err := fs.Stat(frontend.Files, name); err == nil && !info.IsDir() {
				if strings.HasPrefix(name, "assets/") {
					// Vite names built assets by content hash.
					w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				}
				serveAsset(w, r, frontend.Files, name, files)
				return
			}
		}
		index, err := fs.ReadFile(frontend.Files, "index.html")
		if err != nil {
			index = []byte(notBuilt)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Write(index)
	})
}
