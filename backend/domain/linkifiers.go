package domain

import (
	"lanchat/backend/store"
)

// linkifierState is the register state of linkifiers in both of Zulip's
// forms: realm_linkifiers objects and legacy realm_filters triples.
func linkifierState(tx *store.Tx, state map[string]any) error {
	list, err := tx.Linkifiers()
	if err != nil {
		return err
	}
	legacy := make([][3]any, 0, len(list))
	for _, l := range list {
		legacy = append(legacy, [3]any{l.Pattern, l.URLTemplate, l.ID})
	}
	state["realm_linkifiers"], state["realm_filters"] = list, legacy
	return nil
}
