package domain

import (
	"lanchat/backend/store"
	"lanchat/markdown"
)

// customEmoji finds an organization's custom emoji by name for rendering.
// Custom emoji themselves arrive with the people and integrations work;
// until then an organization has none.
func customEmoji(tx *store.Tx, name string) (markdown.CustomEmoji, bool) {
	return markdown.CustomEmoji{}, false
}
