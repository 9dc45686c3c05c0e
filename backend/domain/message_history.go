package domain

import "lanchat/backend/store"

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

// MessageHistory rebuilds every version of a message from its edits.
func (s *Service) MessageHistory(viewer store.User, id int64) ([]HistoryEntry, error) {
	var m store.Message
	err := s.store.View(func(tx *store.Tx) error {
		var err error
		m, _, err = accessMessage(tx, viewer, id, streamCache{})
		return err
	})
	if err != nil {
		return nil, internal("message history", err)
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
