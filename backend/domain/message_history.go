package domain

import (
	"slices"

	"lanchat/backend/store"
)

// The organization's message_edit_history_visibility_policy values (level
// 358): who sees what a message was before it was edited.
const (
	editHistoryAll   = "all"
	editHistoryMoves = "moves" // only changes of topic or channel
	editHistoryNone  = "none"
)

var editHistoryPolicies = []string{editHistoryAll, editHistoryMoves, editHistoryNone}

// editHistoryVisibility is the organization's policy.
func editHistoryVisibility(r store.Realm) string {
	if r.EditHistoryVisibility == "" {
		return editHistoryAll
	}
	return r.EditHistoryVisibility
}

// HistoryEntry is one version of a message, oldest first.
type HistoryEntry struct {
	Topic               string  `json:"topic"`
	Content             string  `json:"content"`
	RenderedContent     string  `json:"rendered_content"`
	Timestamp           int64   `json:"timestamp"`
	UserID              int64   `json:"user_id"`
	PrevContent         *string `json:"prev_content,omitempty"`
	PrevRenderedContent *string `json:"prev_rendered_content,omitempty"`
	PrevTopic           *string `json:"prev_topic,omitempty"`
	Stream              *int64  `json:"stream,omitempty"`
	PrevStream          *int64  `json:"prev_stream,omitempty"`
}

// MessageHistory rebuilds every version of a message from its edits, as
// far as the organization's policy shows them.
func (s *Service) MessageHistory(viewer store.User, id int64) ([]HistoryEntry, error) {
	var m store.Message
	var policy string
	err := s.store.View(func(tx *store.Tx) error {
		r, err := tx.Realm()
		if err != nil {
			return err
		}
		if policy = editHistoryVisibility(r); policy == editHistoryNone {
			return BadRequest("Message edit history is disabled in this organization")
		}
		m, _, err = accessMessage(tx, viewer, id, streamCache{})
		return err
	})
	if err != nil {
		return nil, internal("message history", err)
	}
	if policy == editHistoryMoves {
		return moveHistory(m), nil
	}
	// Walk back from the current state, undoing one edit at a time.
	entries := make([]HistoryEntry, len(m.Edits)+1)
	cur := HistoryEntry{Topic: m.Topic, Content: m.Content, RenderedContent: m.Rendered, UserID: m.SenderID, Timestamp: m.Timestamp}
	for i := len(m.Edits) - 1; i >= 0; i-- {
		e := m.Edits[i]
		entry := cur
		entry.Timestamp, entry.UserID = e.Timestamp, e.UserID
		if e.PrevRendered != "" {
			entry.PrevContent, entry.PrevRenderedContent = &e.PrevContent, &e.PrevRendered
			cur.Content, cur.RenderedContent = e.PrevContent, e.PrevRendered
		}
		if e.PrevTopic != "" {
			entry.PrevTopic = &e.PrevTopic
			cur.Topic = e.PrevTopic
		}
		if e.PrevStreamID != 0 {
			entry.PrevStream = &e.PrevStreamID
		}
		entries[i+1] = entry
		cur.PrevContent, cur.PrevRenderedContent, cur.PrevTopic, cur.PrevStream = nil, nil, nil, nil
	}
	entries[0] = HistoryEntry{Topic: cur.Topic, Content: cur.Content, RenderedContent: cur.RenderedContent, UserID: m.SenderID, Timestamp: m.Timestamp}
	return entries, nil
}

// moveHistory is a message's history showing only its moves: each version
// with the current content.
func moveHistory(m store.Message) []HistoryEntry {
	topic := m.Topic
	var moves []HistoryEntry
	for i := len(m.Edits) - 1; i >= 0; i-- {
		e := m.Edits[i]
		if e.PrevTopic == "" && e.PrevStreamID == 0 {
			continue
		}
		entry := HistoryEntry{Topic: topic, Content: m.Content, RenderedContent: m.Rendered, Timestamp: e.Timestamp, UserID: e.UserID}
		if e.PrevTopic != "" {
			entry.PrevTopic = &e.PrevTopic
			topic = e.PrevTopic
		}
		if e.PrevStreamID != 0 {
			entry.PrevStream = &e.PrevStreamID
		}
		moves = append(moves, entry)
	}
	first := HistoryEntry{Topic: topic, Content: m.Content, RenderedContent: m.Rendered, UserID: m.SenderID, Timestamp: m.Timestamp}
	out := []HistoryEntry{first}
	for _, e := range slices.Backward(moves) {
		out = append(out, e)
	}
	return out
}
