package api

import (
	"net/http"

	"lanchat/assets"
)

// staticImages serves the default organization images without
// authentication, as clients show them on their login screens.
func (a *API) staticImages() http.Handler {
	files := http.StripPrefix("/static/images/", http.FileServerFS(assets.Images))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=86400")
		files.ServeHTTP(w, r)
	})
}
