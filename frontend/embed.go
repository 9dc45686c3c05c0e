// Package frontend embeds the built web UI (frontend/dist, made by `make
// ui`) so lanchatd and the desktop app serve it without extra files.
package frontend

import (
	"embed"
	"io/fs"
)

// dist always holds at least .keep, so Go builds before the UI is built.
//
//go:embed all:dist
var dist embed.FS

// Files is the built UI, rooted at its index.html.
var Files, _ = fs.Sub(dist, "dist")
