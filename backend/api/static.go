package api

import (
	"encoding/json"
	"net/http"
	"sync"

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

// emojiData answers server_emoji_data_url: every emoji's names by code,
// built once from the emoji table.
var emojiData = sync.OnceValue(func() []byte {
	data, _ := json.Marshal(map[string]any{"code_to_names": assets.EmojiCodeToNames()})
	return data
})

func serveEmojiData(w http.ResponseWriter, _ *http.Request) {
	w.Header()["Content-Type"] = jsonContentType
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.Write(emojiData())
}

// zulipEmojiPath is where Zulip's clients load the :zulip: emoji's image
// (reaction type zulip_extra_emoji), without credentials.
const zulipEmojiPath = "/static/generated/emoji/images/emoji/unicode/zulip.png"

func serveZulipEmoji(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "public, max-age=86400")
	w.Write(assets.ZulipEmojiPNG())
}
