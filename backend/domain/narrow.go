package domain

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// A narrow is checked against every message its queue could receive and
// every message a history query walks: its size is bounded.
const (
	MaxNarrowTerms         = 30
	MaxNarrowOperandLength = 1000 // characters
)

// NarrowTerm is one filter of a narrow, as clients send it.
type NarrowTerm struct {
	Operator string
	Operand  string
	Negated  bool
}

func badNarrow(desc string) *Error {
	return errorf(CodeBadNarrow, "Invalid narrow operator: %s", desc).With("desc", desc)
}

// ParseNarrow reads a narrow in either of its wire forms: a list of
// [operator, operand] pairs or of {operator, operand, negated} objects.
// Operands may be strings, numbers or lists of numbers (user IDs).
func ParseNarrow(text string) ([]NarrowTerm, error) {
	text = strings.TrimSpace(text)
	if text == "" || text == "null" {
		return nil, nil
	}
	var raw []json.RawMessage
	if err := json.Unmarshal([]byte(text), &raw); err != nil {
		return nil, InvalidArgument("narrow", "not a list")
	}
	if len(raw) > MaxNarrowTerms {
		return nil, errorf(CodeBadNarrow, "Too many narrow terms (at most %d)", MaxNarrowTerms)
	}
	terms := make([]NarrowTerm, 0, len(raw))
	for _, r := range raw {
		var t NarrowTerm
		var pair []json.RawMessage
		var obj struct {
			Operator *string         `json:"operator"`
			Operand  json.RawMessage `json:"operand"`
			Negated  bool            `json:"negated"`
		}
		switch {
		case json.Unmarshal(r, &pair) == nil && len(pair) == 2:
			if json.Unmarshal(pair[0], &t.Operator) != nil {
				return nil, InvalidArgument("narrow", "operator is not a string")
			}
			obj.Operand = pair[1]
		case json.Unmarshal(r, &obj) == nil && obj.Operator != nil && obj.Operand != nil:
			t.Operator, t.Negated = *obj.Operator, obj.Negated
		default:
			return nil, InvalidArgument("narrow", "each element must be [operator, operand] or {operator, operand}")
		}
		operand, err := operandText(obj.Operand)
		if err != nil {
			return nil, err
		}
		if utf8.RuneCountInString(operand) > MaxNarrowOperandLength {
			return nil, errorf(CodeBadNarrow, "Narrow operand too long (at most %d characters)", MaxNarrowOperandLength)
		}
		t.Operand = operand
		terms = append(terms, t)
	}
	return terms, nil
}

// operandText flattens an operand to text: lists of IDs become "1,2,3".
func operandText(raw json.RawMessage) (string, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, nil
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		if _, err := n.Int64(); err == nil {
			return n.String(), nil
		}
	}
	var ids []int64
	if json.Unmarshal(raw, &ids) == nil {
		parts := make([]string, len(ids))
		for i, id := range ids {
			parts[i] = strconv.FormatInt(id, 10)
		}
		return strings.Join(parts, ","), nil
	}
	return "", InvalidArgument("narrow", "operand must be a string, an integer or a list of integers")
}

// Narrow is a resolved narrow for one viewer: every name looked up, ready
// to match messages. The same matcher filters history and live events.
type Narrow struct {
	viewer store.User
	terms  []matcher
	// received: without a stream term, a narrow covers only messages the
	// viewer received (Zulip's "all messages").
	received bool
	// muted topics and streams, for in:home and first_unread.
	muted mutedSet
	// plan is the ordered index a history query walks.
	plan plan
	// searchWords hold the search terms, each once, for match
	// highlighting.
	searchWords []string
}

type matcher struct {
	negated bool
	match   func(c *events.Candidate, f store.Flags) bool
}

// plan names the driving index of a history query: a range, or an explicit
// list of IDs (search hits, id:).
type plan struct {
	rng  *store.Range
	ids  []int64
	cost int // lower is more selective
}

// addSearchWords notes a search term's words for highlighting, leaving
// out those noted already: each word a message shows is checked against
// every one of them.
func (n *Narrow) addSearchWords(words []string) {
	n.searchWords = append(n.searchWords, words...)
	slices.Sort(n.searchWords)
	n.searchWords = slices.Compact(n.searchWords)
}

func (n *Narrow) consider(p plan) {
	if n.plan.rng == nil && n.plan.ids == nil || p.cost < n.plan.cost {
		n.plan = p
	}
}

// Match tells whether a message the viewer can see, with the viewer's flags
// on it, falls in the narrow.
func (n *Narrow) Match(c *events.Candidate, f store.Flags) bool {
	if n.received && f&store.FlagHistorical != 0 {
		return false
	}
	for _, t := range n.terms {
		if t.match(c, f) == t.negated {
			return false
		}
	}
	return true
}

// resolveNarrow looks up every operand for viewer, for history. Unknown or
// hidden streams and users are BAD_NARROW errors.
func resolveNarrow(tx *store.Tx, viewer store.User, terms []NarrowTerm) (*Narrow, error) {
	return buildNarrow(tx, viewer, terms, badNarrow)
}

// resolveQueueNarrow is resolveNarrow for an event queue. Zulip checks a
// queue's narrow for its operators only: a stream or sender it cannot find
// (or the viewer cannot see) matches no message, and its own example client
// retries a refused registration forever.
func resolveQueueNarrow(tx *store.Tx, viewer store.User, terms []NarrowTerm) (*Narrow, error) {
	return buildNarrow(tx, viewer, terms, func(string) *Error { return nil })
}

func matchNothing(*events.Candidate, store.Flags) bool { return false }

// buildNarrow resolves terms; unknown says what an operand naming no
// stream or user the viewer can see is: an error, or (nil) a term that
// matches nothing.
func buildNarrow(tx *store.Tx, viewer store.User, terms []NarrowTerm, unknown func(desc string) *Error) (*Narrow, error) {
	terms, err := expandWith(tx, viewer, terms)
	if err != nil {
		return nil, err
	}
	muted, err := loadMuted(tx, viewer.ID)
	if err != nil {
		return nil, err
	}
	n := &Narrow{viewer: viewer, received: true, muted: muted}
	n.plan = plan{rng: rangePtr(store.UserRange(viewer.ID)), cost: 100}
	hasStream, hasPrivate := false, false
	var streamID int64  // a positive stream term's stream
	var topics []string // positive topic terms
	for _, t := range terms {
		op := strings.ToLower(strings.TrimSpace(t.Operator))
		operand := strings.TrimSpace(t.Operand)
		var m func(*events.Candidate, store.Flags) bool
		switch op {
		case "stream", "channel":
			hasStream = true
			st, err := lookupStream(tx, operand)
			if err != nil || !canReadStream(tx, viewer, st) {
				if err := unknown("unknown channel " + operand); err != nil {
					return nil, err
				}
				n.terms = append(n.terms, matcher{negated: t.Negated, match: matchNothing})
				continue
			}
			if !t.Negated {
				n.received = false
				streamID = st.ID
				if rid, ok := tx.LookupRecipientID(st.ID, nil); ok {
					n.consider(plan{rng: rangePtr(store.RecipientRange(rid)), cost: 50})
				} else {
					n.consider(plan{ids: []int64{}, cost: 0})
				}
			}
			m = func(c *events.Candidate, _ store.Flags) bool { return c.Message.StreamID == st.ID }
		case "streams", "channels":
			if operand != "public" && operand != "web-public" {
				return nil, badNarrow("invalid channels operand " + operand)
			}
			if !t.Negated {
				n.received = false
				n.consider(plan{rng: rangePtr(store.AllMessagesRange()), cost: 90})
			}
			m = func(c *events.Candidate, _ store.Flags) bool {
				return c.Public
			}
		case "topic", "subject":
			if !t.Negated {
				topics = append(topics, operand)
			}
			folded := store.FoldTopic(operand)
			m = func(c *events.Candidate, _ store.Flags) bool {
				return !c.Message.IsPrivate() && store.FoldTopic(c.Message.Topic) == folded
			}
		case "sender":
			u, err := userByRef(tx, operand)
			if err != nil {
				if err := unknown("unknown user " + operand); err != nil {
					return nil, err
				}
				n.terms = append(n.terms, matcher{negated: t.Negated, match: matchNothing})
				continue
			}
			if !t.Negated {
				n.consider(plan{rng: rangePtr(store.SenderRange(u.ID)), cost: 60})
			}
			m = func(c *events.Candidate, _ store.Flags) bool { return c.Message.SenderID == u.ID }
		case "pm-with", "dm":
			ids, err := narrowUsers(tx, operand)
			if err != nil {
				return nil, err
			}
			hasPrivate = true
			set := sortedUnique(append(ids, viewer.ID))
			if !t.Negated {
				if rid, ok := tx.LookupRecipientID(0, set); ok {
					n.consider(plan{rng: rangePtr(store.RecipientRange(rid)), cost: 20})
				} else {
					n.consider(plan{ids: []int64{}, cost: 0})
				}
			}
			m = func(c *events.Candidate, _ store.Flags) bool {
				return c.Message.IsPrivate() && slices.Equal(c.Message.PrivateUserIDs, set)
			}
		case "group-pm-with", "dm-including":
			ids, err := narrowUsers(tx, operand)
			if err != nil || len(ids) != 1 {
				return nil, badNarrow("invalid user " + operand)
			}
			hasPrivate = true
			m = func(c *events.Candidate, _ store.Flags) bool {
				return c.Message.IsPrivate() && slices.Contains(c.Message.PrivateUserIDs, ids[0])
			}
		case "is":
			m, err = n.isMatcher(operand, t.Negated)
			if err != nil {
				return nil, err
			}
			if operand == "private" || operand == "dm" {
				hasPrivate = true
			}
		case "has":
			m, err = hasMatcher(operand)
			if err != nil {
				return nil, err
			}
		case "search":
			if operand == "" {
				return nil, badNarrow("empty search")
			}
			if !t.Negated {
				n.addSearchWords(store.SearchTerms(operand))
				n.consider(plan{ids: tx.SearchIDs(operand), cost: 10})
			}
			words := store.SearchTerms(operand)
			m = func(c *events.Candidate, _ store.Flags) bool { return store.MatchesWords(c.Words(), words) }
		case "id":
			id, ok := parseID(operand)
			if !ok {
				return nil, badNarrow("invalid message id " + operand)
			}
			if !t.Negated {
				n.received = false
				n.consider(plan{ids: []int64{id}, cost: 1})
			}
			m = func(c *events.Candidate, _ store.Flags) bool { return c.Message.ID == id }
		case "near":
			if _, ok := parseID(operand); !ok {
				return nil, badNarrow("invalid message id " + operand)
			}
			continue // an anchor hint, not a filter
		case "in":
			switch operand {
			case "home":
				m = func(c *events.Candidate, _ store.Flags) bool { return !n.muted.hides(c.Message) }
			case "all":
				continue
			default:
				return nil, badNarrow("invalid in operand " + operand)
			}
		default:
			return nil, badNarrow(fmt.Sprintf("unknown operator %s", t.Operator))
		}
		n.terms = append(n.terms, matcher{negated: t.Negated, match: m})
	}
	if hasStream && hasPrivate {
		return nil, badNarrow("channel and direct message operators cannot be combined")
	}
	if streamID != 0 && len(topics) > 0 {
		n.consider(plan{rng: rangePtr(store.TopicRange(streamID, topics[0])), cost: 15})
	}
	return n, nil
}

// expandWith replaces a `with` term (a message ID, for links to a topic
// that keep working after it moves) by the terms naming that message's
// conversation as it is now, dropping the narrow's own conversation terms,
// as Zulip does.
func expandWith(tx *store.Tx, viewer store.User, terms []NarrowTerm) ([]NarrowTerm, error) {
	i := slices.IndexFunc(terms, func(t NarrowTerm) bool { return strings.EqualFold(strings.TrimSpace(t.Operator), "with") })
	if i < 0 {
		return terms, nil
	}
	id, ok := parseID(strings.TrimSpace(terms[i].Operand))
	if !ok {
		return nil, badNarrow("invalid message id " + terms[i].Operand)
	}
	m, err := tx.Message(id)
	if err == nil {
		_, ok = messageAccess(tx, viewer, m, streamCache{})
	}
	if err != nil || !ok {
		return nil, badNarrow("invalid message id " + terms[i].Operand)
	}
	var out []NarrowTerm
	for _, t := range terms {
		switch strings.ToLower(strings.TrimSpace(t.Operator)) {
		case "with", "stream", "channel", "topic", "subject", "pm-with", "dm", "group-pm-with", "dm-including":
			continue
		}
		out = append(out, t)
	}
	if m.IsPrivate() {
		ids := make([]string, len(m.PrivateUserIDs))
		for j, uid := range m.PrivateUserIDs {
			ids[j] = strconv.FormatInt(uid, 10)
		}
		return append(out, NarrowTerm{Operator: "dm", Operand: strings.Join(ids, ",")}), nil
	}
	return append(out, NarrowTerm{Operator: "channel", Operand: strconv.FormatInt(m.StreamID, 10)},
		NarrowTerm{Operator: "topic", Operand: m.Topic}), nil
}

func rangePtr(r store.Range) *store.Range { return &r }

func (n *Narrow) isMatcher(operand string, negated bool) (func(*events.Candidate, store.Flags) bool, error) {
	flagged := func(ix store.FlagIndex, f store.Flags) func(*events.Candidate, store.Flags) bool {
		if !negated {
			n.consider(plan{rng: rangePtr(store.FlagRange(n.viewer.ID, ix)), cost: 30})
		}
		return func(_ *events.Candidate, got store.Flags) bool { return got&f != 0 }
	}
	switch operand {
	case "private", "dm":
		return func(c *events.Candidate, _ store.Flags) bool { return c.Message.IsPrivate() }, nil
	case "starred":
		return flagged(store.IndexStarred, store.FlagStarred), nil
	case "mentioned":
		return flagged(store.IndexMentioned, store.AnyMention), nil
	case "alerted":
		return flagged(store.IndexAlerted, store.FlagHasAlertWord), nil
	case "unread":
		if !negated {
			n.consider(plan{rng: rangePtr(store.FlagRange(n.viewer.ID, store.IndexUnread)), cost: 30})
		}
		return func(_ *events.Candidate, f store.Flags) bool { return f&store.FlagRead == 0 }, nil
	case "resolved":
		return func(c *events.Candidate, _ store.Flags) bool { return strings.HasPrefix(c.Message.Topic, "✔ ") }, nil
	case "muted":
		return func(c *events.Candidate, _ store.Flags) bool { return n.muted.hides(c.Message) }, nil
	case "followed":
		return func(c *events.Candidate, _ store.Flags) bool { return n.muted.followed(c.Message) }, nil
	}
	return nil, badNarrow("unknown is operand " + operand)
}

func hasMatcher(operand string) (func(*events.Candidate, store.Flags) bool, error) {
	switch operand {
	case "link":
		return func(c *events.Candidate, _ store.Flags) bool { return c.Message.HasLink }, nil
	case "image":
		return func(c *events.Candidate, _ store.Flags) bool { return c.Message.HasImage }, nil
	case "attachment":
		return func(c *events.Candidate, _ store.Flags) bool { return c.Message.HasAttachment }, nil
	case "reaction":
		return func(c *events.Candidate, _ store.Flags) bool { return len(c.Message.Reactions) > 0 }, nil
	}
	return nil, badNarrow("unknown has operand " + operand)
}

// narrowUsers reads a comma-separated list of emails or IDs.
func narrowUsers(tx *store.Tx, operand string) ([]int64, error) {
	var ids []int64
	for _, ref := range strings.Split(operand, ",") {
		ref = strings.TrimSpace(ref)
		if ref == "" {
			continue
		}
		u, err := userByRef(tx, ref)
		if err != nil {
			return nil, badNarrow("unknown user " + ref)
		}
		ids = append(ids, u.ID)
	}
	if len(ids) == 0 {
		return nil, badNarrow("empty user list")
	}
	return ids, nil
}
