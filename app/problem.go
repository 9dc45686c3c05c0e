package app

import (
	"html/template"
	"net/http"
)

// problemPage is what the window shows when the app cannot start (its
// data folder in use by a lanchatd or by a copy the session bus could not
// reach, a folder it may not write, …): a desktop app's standard error
// goes nowhere a person looks. The window's title says it too, through
// the bound SetTitle, as WebKitGTK does not pass the page's title on.
func problemPage(dataDir string, err error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		problemHTML.Execute(w, struct{ DataDir, Problem string }{dataDir, err.Error()})
	})
}

var problemHTML = template.Must(template.New("problem").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Lanchat cannot start</title>
<style>
  :root { color-scheme: light dark; font: 16px/1.5 system-ui, sans-serif; }
  body { max-width: 40rem; margin: 3rem auto; padding: 0 1.5rem; }
  code { font-size: 1rem; overflow-wrap: anywhere; user-select: all; }
  .problem { color: #dc2626; }
</style>
</head>
<body>
<h1>Lanchat cannot start</h1>
<p class="problem" data-testid="problem">{{.Problem}}</p>
<p>The data folder is <code>{{.DataDir}}</code>. If another Lanchat, or a <code>lanchatd</code> server, uses it,
quit that one first, or start this one on another folder (<code>lanchat --data FOLDER</code>).</p>
<p>Close this window to quit.</p>
<script>window.go.app.App.SetTitle('Lanchat cannot start')</script>
</body>
</html>
`))
