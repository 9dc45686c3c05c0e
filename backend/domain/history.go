package domain

import (
	"slices"
	"strconv"
	"strings"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// Anchors that are not message IDs, with Zulip's values.
const (
	AnchorNewest int64 = 10_000_000_000_000_000
	AnchorOldest int64 = 0
	// MaxMessagesPerRequest caps num_before + num_after, or the message
	// IDs named (message_ids, and matches_narrow's msg_ids), as Zulip's
	// MAX_MESSAGES_PER_FETCH does.
	MaxMessagesPerRequest = 5000
)

// HistoryQuery is a GET /messages request.
type HistoryQuery struct {
	Anchor               string // an ID, "newest", "oldest" or "first_unread"; "" when absent
	UseFirstUnreadAnchor bool
	NumBefore, NumAfter  int64
	IncludeAnchor        bool
	Narrow               []NarrowTerm
	ApplyMarkdown        bool
	MessageIDs           []int64 // instead of an anchor: exactly these messages
}

// HistoryResult is the answer to a HistoryQuery.
type HistoryResult struct {
	Anchor         int64
	FoundAnchor    bool
	FoundNewest    bool
	FoundOldest    bool
	HistoryLimited bool
	Messages       []MessageObject
}

func (q HistoryQuery) validate() error {
	switch {
	case len(q.MessageIDs) > MaxMessagesPerRequest:
		return BadRequest("Too many messages requested (maximum %d).", MaxMessagesPerRequest)
	case q.MessageIDs != nil:
		return nil
	case q.NumBefore < 0:
		return InvalidArgument("num_before", "must not be negative")
	case q.NumAfter < 0:
		return InvalidArgument("num_after", "must not be negative")
	case q.NumBefore+q.NumAfter > MaxMessagesPerRequest:
		return BadRequest("Too many messages requested (maximum %d).", MaxMessagesPerRequest)
	case !q.IncludeAnchor && q.NumBefore > 0 && q.NumAfter > 0:
		return BadRequest("The anchor can only be excluded at an end of the range")
	}
	return nil
}

// Messages answers a history query: the anchor and up to NumBefore older
// and NumAfter newer messages in the narrow that the viewer may see, found
// by walking the narrow's most selective ordered index.
func (s *Service) Messages(viewer store.User, q HistoryQuery) (HistoryResult, error) {
	if err := q.validate(); err != nil {
		return HistoryResult{}, err
	}
	var res HistoryResult
	err := s.store.View(func(tx *store.Tx) error {
		n, found, err := findHistory(tx, viewer, q, &res)
		if err != nil {
			return err
		}
		mv := newMessageViewer(tx, viewOptions{applyMarkdown: q.ApplyMarkdown}, s.topicLinks)
		res.Messages = make([]MessageObject, 0, len(found))
		for _, h := range found {
			o := mv.viewWithFlags(h.msg, h.flags)
			if len(n.searchWords) > 0 {
				content, subject := highlight(o.Content, n.searchWords), highlight(htmlEscape(h.msg.Topic), n.searchWords)
				o.MatchContent, o.MatchSubject = &content, &subject
			}
			res.Messages = append(res.Messages, o)
		}
		return nil
	})
	return res, internal("get messages", err)
}

// NarrowMatch is a message of GET /messages/matches_narrow: its rendered
// content and topic, with search hits highlighted.
type NarrowMatch struct {
	MatchContent string `json:"match_content"`
	MatchSubject string `json:"match_subject"`
}

// MatchesNarrow tells which of the messages (among those the viewer may
// see) the narrow holds, keyed by message ID. It reads only what the
// answer shows, not whole message objects: a request may name 5000.
func (s *Service) MatchesNarrow(viewer store.User, ids []int64, narrow []NarrowTerm) (map[string]NarrowMatch, error) {
	q := HistoryQuery{MessageIDs: nonNil(ids), Narrow: narrow}
	if err := q.validate(); err != nil {
		return nil, err
	}
	var out map[string]NarrowMatch
	err := s.store.View(func(tx *store.Tx) error {
		n, found, err := findHistory(tx, viewer, q, &HistoryResult{})
		if err != nil {
			return err
		}
		out = make(map[string]NarrowMatch, len(found))
		for _, h := range found {
			m := NarrowMatch{MatchContent: h.msg.Rendered, MatchSubject: htmlEscape(h.msg.Topic)}
			if len(n.searchWords) > 0 {
				m.MatchContent, m.MatchSubject = highlight(m.MatchContent, n.searchWords), highlight(m.MatchSubject, n.searchWords)
			}
			out[strconv.FormatInt(h.msg.ID, 10)] = m
		}
		return nil
	})
	return out, internal("matches narrow", err)
}

// findHistory finds the messages a query selects, filling res's anchor and
// found_* fields.
func findHistory(tx *store.Tx, viewer store.User, q HistoryQuery, res *HistoryResult) (*Narrow, []hit, error) {
	n, err := resolveNarrow(tx, viewer, q.Narrow)
	if err != nil {
		return nil, nil, err
	}
	w := &historyWalk{tx: tx, viewer: viewer, narrow: n, streams: streamCache{}}
	if q.MessageIDs != nil {
		return n, w.exactly(q.MessageIDs), nil
	}
	anchor, err := w.resolveAnchor(q)
	if err != nil {
		return nil, nil, err
	}
	res.Anchor = anchor
	return n, w.around(q, anchor, res), nil
}

// hit is a message in the narrow with the viewer's flags on it.
type hit struct {
	msg   store.Message
	flags store.Flags
}

type historyWalk struct {
	tx      *store.Tx
	viewer  store.User
	narrow  *Narrow
	streams streamCache
}

// check loads a candidate and tells whether the viewer sees it in the narrow.
func (w *historyWalk) check(id int64) (hit, bool) {
	m, err := w.tx.Message(id)
	if err != nil {
		return hit{}, false
	}
	f, ok := messageAccess(w.tx, w.viewer, m, w.streams)
	if !ok {
		return hit{}, false
	}
	c := events.Candidate{Message: m}
	if !m.IsPrivate() {
		st, ok := w.streams.get(w.tx, m.StreamID)
		c.Public = ok && !st.InviteOnly
	}
	if !w.narrow.Match(&c, f) {
		return hit{}, false
	}
	return hit{m, f}, true
}

// walk visits the plan's IDs from anchor (ascending: >= anchor; descending:
// <= anchor) and collects up to limit hits.
func (w *historyWalk) walk(anchor int64, descending bool, limit int64) []hit {
	var hits []hit
	visit := func(id int64) bool {
		if h, ok := w.check(id); ok {
			hits = append(hits, h)
		}
		return int64(len(hits)) < limit
	}
	if limit <= 0 {
		return nil
	}
	p := w.narrow.plan
	if p.rng != nil {
		w.tx.Scan(*p.rng, anchor, descending, visit)
		return hits
	}
	i, _ := slices.BinarySearch(p.ids, anchor)
	if descending {
		if i < len(p.ids) && p.ids[i] == anchor {
			i++
		}
		for j := i - 1; j >= 0 && visit(p.ids[j]); j-- {
		}
	} else {
		for j := i; j < len(p.ids) && visit(p.ids[j]); j++ {
		}
	}
	return hits
}

// around collects the anchor and its neighbours. found_newest and
// found_oldest follow Zulip: anchored at that end, or fewer rows than asked.
func (w *historyWalk) around(q HistoryQuery, anchor int64, res *HistoryResult) []hit {
	var after []hit
	if anchor < AnchorNewest {
		after = w.walk(anchor, false, q.NumAfter+1) // +1: the anchor itself
	}
	var anchorHit []hit
	if len(after) > 0 && after[0].msg.ID == anchor {
		res.FoundAnchor = true
		anchorHit, after = after[:1], after[1:]
	}
	after = after[:min(int64(len(after)), q.NumAfter)]
	res.FoundNewest = anchor >= AnchorNewest || int64(len(after)) < q.NumAfter
	var before []hit
	if anchor > 0 {
		before = w.walk(anchor-1, true, q.NumBefore)
	}
	res.FoundOldest = anchor <= AnchorOldest || int64(len(before)) < q.NumBefore
	slices.Reverse(before)
	if q.IncludeAnchor {
		before = append(before, anchorHit...)
	}
	return append(before, after...)
}

func (w *historyWalk) exactly(ids []int64) []hit {
	ids = sortedUnique(ids)
	out := make([]hit, 0, len(ids))
	for _, id := range ids {
		if h, ok := w.check(id); ok {
			out = append(out, h)
		}
	}
	return out
}

// resolveAnchor turns the anchor parameter into a message ID.
func (w *historyWalk) resolveAnchor(q HistoryQuery) (int64, error) {
	anchor := strings.TrimSpace(q.Anchor)
	if q.UseFirstUnreadAnchor {
		anchor = "first_unread"
	}
	switch anchor {
	case "":
		return 0, MissingArgument("anchor")
	case "newest":
		return AnchorNewest, nil
	case "oldest":
		return AnchorOldest, nil
	case "first_unread":
		return w.firstUnread(), nil
	}
	id, err := strconv.ParseInt(strings.Trim(anchor, `"`), 10, 64)
	if err != nil {
		return 0, BadRequest("Invalid anchor")
	}
	return min(max(id, 0), AnchorNewest), nil
}

// firstUnread is the oldest unread message in the narrow outside muted
// streams and topics, or AnchorNewest when there is none.
func (w *historyWalk) firstUnread() int64 {
	first := AnchorNewest
	w.tx.Scan(store.FlagRange(w.viewer.ID, store.IndexUnread), 0, false, func(id int64) bool {
		h, ok := w.check(id)
		if ok && !w.narrow.muted.hides(h.msg) {
			first = id
			return false
		}
		return true
	})
	return first
}
