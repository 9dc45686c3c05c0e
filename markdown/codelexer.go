package markdown

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/dlclark/regexp2/v2"
	"github.com/dlclark/regexp2/v2/syntax"
)

// codeLexer runs a chroma RegexLexer's rules as chroma does, token for
// token, but tries a rule only where the character at hand can begin a
// match of it, and matches most rules by walking their parse tree rather
// than with a regexp2 run. Chroma tries every rule of a state, in order,
// at every position, and each try is a full regexp2 run; in the profile
// that was three quarters of rendering chat with code in it (a Python
// line tried about 28 rules per token, most of which could not start
// there).
type codeLexer struct {
	lexer    *chroma.RegexLexer
	registry *chroma.LexerRegistry
	rules    chroma.CompiledRules
	states   map[string]*lexerState // beside rules
	// spans is the most ints the groups' spans of a walked rule take: a
	// run makes that room once (grown as rules needed it, it was lost
	// whenever such a rule did not match).
	spans int
}

// lexerState is what codeLexer knows of one state's rules: the rules,
// each rule's info, and for each ASCII rune (and, last, for any other
// rune) the rules, in order, that may begin a match there. A Python state
// holds up to 70 rules, of which a handful can start at a given rune.
type lexerState struct {
	rules      []*chroma.CompiledRule
	info       []ruleInfo
	candidates [129][]int
}

// candidatesAt are the rules that may begin a match at text[pos].
func (s *lexerState) candidatesAt(text []rune, pos int) []int {
	if r := text[pos]; r >= 0 && r < 128 {
		return s.candidates[r]
	}
	return s.candidates[128]
}

// ruleInfo is what codeLexer knows of a rule beyond chroma.
type ruleInfo struct {
	first firstChars
	// plain: the rule emits at most one token of a fixed type and at most
	// pushes or pops states, so only the whole match is needed.
	plain bool
	// pattern: the rule's pattern matched without regexp2, or nil.
	pattern *plainPattern
	// groupTypes: for a rule that emits a token of a fixed type per
	// group (chroma's ByGroups of token types) and at most pushes or pops
	// states, each group's type from group 1 on, with Ignore where the
	// group emits nothing and selfLexed where the lexer lexes it; else
	// nil. Its tokens are made straight from the match, without the
	// groups' strings, map and iterators.
	groupTypes []chroma.TokenType
}

// selfLexed stands in groupTypes for a group chroma's UsingSelf lexes
// with the lexer itself: an empty one (the Go lexer's \s* between a name
// and its parenthesis, most often) yields no tokens; a match where one is
// not empty takes the general path.
const selfLexed chroma.TokenType = math.MinInt32

func isPlain(rule *chroma.CompiledRule) bool {
	if _, ok := rule.Type.(chroma.TokenType); rule.Type != nil && !ok {
		return false
	}
	return pushesOrPops(rule.Mutator)
}

// pushesOrPops reports whether m is nil or a push or pop, which read
// nothing of the match.
func pushesOrPops(m chroma.Mutator) bool {
	if m == nil {
		return true
	}
	s, ok := m.(chroma.SerialisableMutator)
	return ok && (s.MutatorKind() == "push" || s.MutatorKind() == "pop")
}

// groupTypes is ruleInfo.groupTypes for rule. Chroma's ByGroups emitter
// does not export its type, only its Emitters field, read here once.
func groupTypes(rule *chroma.CompiledRule) []chroma.TokenType {
	e, ok := rule.Type.(chroma.SerialisableEmitter)
	if !ok || e.EmitterKind() != "bygroups" || !pushesOrPops(rule.Mutator) {
		return nil
	}
	v := reflect.Indirect(reflect.ValueOf(e))
	if v.Kind() != reflect.Struct {
		return nil
	}
	f := v.FieldByName("Emitters")
	if !f.IsValid() {
		return nil
	}
	emitters, ok := f.Interface().(chroma.Emitters)
	// With another count of groups ByGroups emits one error token for
	// the whole match, which the general path does.
	if !ok || len(rule.Regexp.GetGroupNumbers()) != len(emitters)+1 {
		return nil
	}
	types := make([]chroma.TokenType, len(emitters))
	for i, e := range emitters {
		switch t := e.(type) {
		case nil:
			types[i] = chroma.Ignore // no token either way
		case chroma.TokenType:
			types[i] = t
		case chroma.SerialisableEmitter:
			if t.EmitterKind() != "usingself" {
				return nil
			}
			types[i] = selfLexed
		default:
			return nil
		}
	}
	return types
}

// newCodeLexer compiles the lexer's rules as chroma's RegexLexer does
// (same pattern text, flags and timeout, then its include and combine
// steps) and works out each rule's first characters.
func newCodeLexer(lexer *chroma.RegexLexer, registry *chroma.LexerRegistry) (*codeLexer, error) {
	raw, err := lexer.Rules()
	if err != nil {
		return nil, err
	}
	config := lexer.Config()
	flags := ""
	if !config.NotMultiline {
		flags += "m"
	}
	if config.CaseInsensitive {
		flags += "i"
	}
	if config.DotAll {
		flags += "s"
	}
	c := &codeLexer{lexer: lexer, registry: registry, rules: chroma.CompiledRules{}, states: map[string]*lexerState{}}
	trees := map[*chroma.CompiledRule]*syntax.RegexNode{}
	for state, rules := range raw {
		for i, rule := range rules {
			pattern := "(?:" + rule.Pattern + ")"
			if flags != "" {
				pattern = "(?" + flags + ")" + pattern
			}
			pattern = `\G` + pattern
			compiled := &chroma.CompiledRule{Rule: rule}
			if compiled.Regexp, err = regexp2.Compile(pattern); err != nil {
				return nil, fmt.Errorf("%s: rule %s.%d: %w", config.Name, state, i, err)
			}
			compiled.Regexp.MatchTimeout = maxRegexpRun
			tree, err := syntax.Parse(pattern, syntax.ParseOptions{})
			if err != nil {
				return nil, err
			}
			trees[compiled] = tree.Root
			c.rules[state] = append(c.rules[state], compiled)
		}
	}
	if err := expandLexerMutators(c.rules); err != nil {
		return nil, fmt.Errorf("%s: %w", config.Name, err)
	}
	for state, rules := range c.rules {
		s := &lexerState{rules: rules}
		for i, rule := range rules {
			info := ruleInfo{first: firstCharsOf(trees[rule]), plain: isPlain(rule), groupTypes: groupTypes(rule)}
			info.pattern = newPlainPattern(trees[rule], rule.Regexp, !info.plain)
			if info.pattern != nil {
				c.spans = max(c.spans, 2*info.pattern.groups)
			}
			s.info = append(s.info, info)
			for r := range s.candidates {
				if info.first.mayBegin(rune(r)) { // 128 stands for every other rune
					s.candidates[r] = append(s.candidates[r], i)
				}
			}
		}
		c.states[state] = s
	}
	return c, nil
}

// expandLexerMutators applies include and combine rules one at a time,
// starting over after each since each rewrites the state lists, as
// chroma does when it compiles.
func expandLexerMutators(rules chroma.CompiledRules) error {
	for {
		state, index, mutator := findLexerMutator(rules)
		if mutator == nil {
			return nil
		}
		if err := mutator.MutateLexer(rules, state, index); err != nil {
			return err
		}
	}
}

func findLexerMutator(rules chroma.CompiledRules) (string, int, chroma.LexerMutator) {
	for state, list := range rules {
		for i, rule := range list {
			if m, ok := rule.Mutator.(chroma.LexerMutator); ok {
				return state, i, m
			}
		}
	}
	return "", 0, nil
}

// maxRegexpRun bounds one run of a rule's regexp, which the lexer's own
// deadline is checked only between.
const maxRegexpRun = 50 * time.Millisecond

// tokens appends to tokens chroma's RegexLexer.Tokenise's with its default
// options, or reports false when lexing takes more than limit steps (rule
// matches or errors) or runs past deadline.
func (c *codeLexer) tokens(code string, limit int, deadline time.Time, tokens []chroma.Token) ([]chroma.Token, bool) {
	if strings.IndexByte(code, '\r') >= 0 {
		code = lineEnds.Replace(code)
	}
	added := c.lexer.Config().EnsureNL && !strings.HasSuffix(code, "\n")
	if added {
		code += "\n"
	}
	text := []rune(code)
	run := &codeLexerRun{c: c, end: len(text), steps: limit, deadline: deadline, code: code, spans: make([]int, c.spans), state: &chroma.LexerState{
		Lexer:          c.lexer,
		Registry:       c.registry,
		Text:           text,
		Stack:          []string{"root"},
		Rules:          c.rules,
		MutatorContext: map[any]any{},
	}}
	if added {
		run.end-- // the added newline is not lexed
	}
	switch {
	case !utf8.ValidString(code):
		// Matches are made from runes (see matched).
	case len(text) == len(code):
		run.ascii = true
	default:
		// Where every rune is its own bytes, a match is a slice of code.
		run.offsets = make([]int, 0, len(text)+1)
		for i := range code {
			run.offsets = append(run.offsets, i)
		}
		run.offsets = append(run.offsets, len(code))
	}
	for tok := run.next(); tok != chroma.EOF; tok = run.next() {
		if len(tokens) == limit {
			return tokens, false
		}
		tokens = append(tokens, tok)
	}
	return tokens, run.steps >= 0
}

var lineEnds = strings.NewReplacer("\r\n", "\n", "\r", "\n")

// codeLexerRun is one tokenise's position: chroma's LexerState plus the
// emitters' pending tokens.
type codeLexerRun struct {
	c         *codeLexer
	state     *chroma.LexerState
	end       int
	steps     int // left before giving up; negative once given up
	deadline  time.Time
	pending   []chroma.Iterator
	queued    []chroma.Token // a ByGroups rule's tokens, last first
	code      string
	ascii     bool        // code is ASCII: rune i is byte i
	offsets   []int       // otherwise, byte offset of each rune of code and of its end; nil if code is not valid UTF-8
	spans     []int       // room for the groups' spans of a walked rule, read before the next match
	st        *lexerState // of the state named stateName, that of the last step
	stateName string
}

// matched is the text of length runes at pos (for invalid UTF-8, with
// U+FFFD for bad bytes, as chroma's and regexp2's strings have it).
func (r *codeLexerRun) matched(pos, length int) string {
	if r.ascii {
		return r.code[pos : pos+length]
	}
	if r.offsets == nil {
		return string(r.state.Text[pos : pos+length])
	}
	return r.code[r.offsets[pos]:r.offsets[pos+length]]
}

// next is chroma's LexerState.Iterator, step for step, except that rules
// are tried only where they can start, walked where they can be, and a
// plain rule's token is made without building the groups nobody reads.
func (r *codeLexerRun) next() chroma.Token {
	l := r.state
	for l.Pos < r.end && len(l.Stack) > 0 {
		if t, ok := r.drain(); ok {
			return t
		}
		// Some rules backtrack over the rest of the text at every step: the
		// steps are few, their time is not, so the clock is read now and then.
		if r.steps--; r.steps < 0 || r.steps%8 == 0 && time.Now().After(r.deadline) {
			r.steps = -1
			return chroma.EOF
		}
		l.State = l.Stack[len(l.Stack)-1]
		if r.st == nil || l.State != r.stateName {
			// Most steps stay in the state of the step before: two map
			// lookups a step were 2% of Render.
			st, ok := r.c.states[l.State]
			if !ok {
				panic("unknown state " + l.State)
			}
			r.st, r.stateName = st, l.State
		}
		st, rules := r.st, r.st.rules
		index, length, m, spans := matchRule(l.Text, l.Pos, rules, st, r.spans)
		if spans != nil {
			r.spans = spans
		}
		if length < 0 {
			// As chroma and Pygments do: an unmatched newline outside the
			// root state empties the stack; anything else is an error token.
			if l.Text[l.Pos] == '\n' && l.State != "root" {
				l.Stack = []string{"root"}
				continue
			}
			l.Pos++
			return chroma.Token{Type: chroma.Error, Value: string(l.Text[l.Pos-1 : l.Pos])}
		}
		rule, info := rules[index], &st.info[index]
		l.Rule = index
		start := l.Pos
		l.Pos += length
		direct := !info.plain && info.groupTypes != nil && r.queueGroups(info.groupTypes, m, spans)
		if !info.plain && !direct {
			r.setGroups(rule, m, spans)
		}
		if rule.Mutator != nil {
			if err := rule.Mutator.Mutate(l); err != nil {
				panic(err)
			}
		}
		switch {
		case info.plain:
			if t, ok := rule.Type.(chroma.TokenType); ok && t != chroma.Ignore {
				if token := (chroma.Token{Type: t, Value: r.matched(start, length)}); token != chroma.EOF {
					return token
				}
			}
		case !direct && rule.Type != nil:
			r.pending = append(r.pending, rule.Type.Emit(l.Groups, l))
		}
	}
	if t, ok := r.drain(); ok {
		return t
	}
	if l.Pos != len(l.Text) && len(l.Stack) == 0 {
		value := string(l.Text[l.Pos:])
		l.Pos = len(l.Text)
		return chroma.Token{Type: chroma.Error, Value: value}
	}
	return chroma.EOF
}

// setGroups gives the lexer state the match's groups, for the rule's
// mutator and emitter to read.
func (r *codeLexerRun) setGroups(rule *chroma.CompiledRule, m *regexp2.Match, spans []int) {
	l := r.state
	l.Groups = []string{}
	l.NamedGroups = map[string]string{}
	if m != nil {
		for _, g := range m.Groups() {
			l.NamedGroups[g.Name] = g.String()
			l.Groups = append(l.Groups, g.String())
		}
		return
	}
	for slot := 0; slot < len(spans); slot += 2 {
		value := ""
		if spans[slot] >= 0 {
			value = r.matched(spans[slot], spans[slot+1]-spans[slot])
		}
		l.NamedGroups[rule.Regexp.GroupNameFromNumber(slot/2)] = value
		l.Groups = append(l.Groups, value)
	}
}

// queueGroups queues the tokens chroma's ByGroups yields for the match's
// groups of the given types: none for Ignore, and none equal to EOF (an
// empty group of EOFType), which its iterators and drain skip; an empty
// group of another type is an empty token. It reports false, having
// queued nothing, when a self-lexed group is not empty.
func (r *codeLexerRun) queueGroups(types []chroma.TokenType, m *regexp2.Match, spans []int) bool {
	var groups []regexp2.Group
	if m != nil {
		groups = m.Groups()
	}
	span := func(g int) (start, length int) {
		switch {
		case m != nil:
			return groups[g].RuneIndex, groups[g].RuneLength
		case spans[2*g] >= 0:
			return spans[2*g], spans[2*g+1] - spans[2*g]
		}
		return 0, 0
	}
	for i, t := range types {
		if t != selfLexed {
			continue
		}
		if _, length := span(i + 1); length > 0 {
			return false
		}
	}
	for g := len(types); g > 0; g-- {
		t := types[g-1]
		if t == chroma.Ignore || t == selfLexed {
			continue
		}
		if token := (chroma.Token{Type: t, Value: r.matched(span(g))}); token != chroma.EOF {
			r.queued = append(r.queued, token)
		}
	}
	return true
}

// drain returns the next token the emitters have queued, if any. (A rule
// is matched only once both queues are empty, so at most one holds
// tokens.)
func (r *codeLexerRun) drain() (chroma.Token, bool) {
	if n := len(r.queued); n > 0 {
		t := r.queued[n-1]
		r.queued = r.queued[:n-1]
		return t, true
	}
	for len(r.pending) > 0 {
		n := len(r.pending) - 1
		t := r.pending[n]()
		if t.Type == chroma.Ignore {
			continue
		}
		if t == chroma.EOF {
			r.pending = r.pending[:n]
			continue
		}
		return t, true
	}
	return chroma.Token{}, false
}

// matchRule finds the first rule that matches at pos, as chroma's
// matchRules does, trying only the rules that can begin with the rune
// there: the rule's index and the match's length in runes (-1 if none
// matched), and the regexp2 match, or the groups' spans when the pattern
// was walked.
func matchRule(text []rune, pos int, rules []*chroma.CompiledRule, st *lexerState, spans []int) (int, int, *regexp2.Match, []int) {
	for _, i := range st.candidatesAt(text, pos) {
		rule, info := rules[i], &st.info[i]
		if info.first.lineStart && pos > 0 && text[pos-1] != '\n' {
			continue
		}
		if pattern := info.pattern; pattern != nil {
			if n, spans, ok := pattern.match(text, pos, spans); ok {
				if n >= 0 {
					return i, n, nil, spans
				}
				continue
			}
		}
		m, err := rule.Regexp.FindRunesMatchStartingAt(text, pos)
		if m != nil && err == nil && m.RuneIndex == pos {
			return i, m.RuneLength, m, nil
		}
	}
	return 0, -1, nil, nil
}
