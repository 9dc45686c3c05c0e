package domain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"lanchat/backend/store"
)

// Widgets are Zulip's interactive messages: a message whose content starts
// with `/poll` or `/todo` carries, as its first submessage, the widget's
// definition, and everyone who sees it adds submessages (votes, options,
// tasks, strikes) that clients replay to draw its state.

// widgetMsgType is the msg_type of every widget submessage.
const widgetMsgType = "widget"

// maxWidgetIndex bounds the indexes clients give new poll options and todo
// tasks (Zulip's MAX_IDX, shared with its clients' widgets).
const maxWidgetIndex = 1000

// widgetDefinition is the content of the widget submessage a `/poll` or
// `/todo` message is stored with, or "" for any other message. It is the
// JSON Zulip's server writes (Python's json.dumps: ", " and ": " between
// items, non-ASCII escaped), so clients that compare it see the same bytes.
func widgetDefinition(content string) string {
	first, rest := content, ""
	if i := strings.IndexFunc(content, pyIsSpace); i >= 0 {
		first, rest = content[:i], content[i:]
	}
	var b pyJSON
	switch first {
	case "/poll":
		question, items := widgetTitle(rest)
		b.raw(`{"widget_type": "poll", "extra_data": {"question": `)
		b.str(question)
		b.raw(`, "options": `)
		b.list(items, b.str)
	case "/todo":
		title, items := widgetTitle(rest)
		b.raw(`{"widget_type": "todo", "extra_data": {"task_list_title": `)
		b.str(title)
		b.raw(`, "tasks": `)
		b.list(items, func(item string) {
			// A task's description follows its first ": ".
			task, desc, _ := strings.Cut(item, ": ")
			b.raw(`{"task": `)
			b.str(strings.TrimFunc(task, pyIsSpace))
			b.raw(`, "desc": `)
			b.str(strings.TrimFunc(desc, pyIsSpace))
			b.raw("}")
		})
	default:
		return ""
	}
	b.raw("}}")
	return b.String()
}

// widgetTitle splits what follows the command into lines: the first line,
// when it is not empty, is the widget's title (a poll's question); the
// others that hold anything are its items (options, tasks).
func widgetTitle(rest string) (string, []string) {
	lines := pySplitLines(rest)
	title := ""
	if len(lines) > 0 && lines[0] != "" {
		title, lines = strings.TrimFunc(lines[0], pyIsSpace), lines[1:]
	}
	var items []string
	for _, line := range lines {
		if item := widgetListItem(line); item != "" {
			items = append(items, item)
		}
	}
	return title, items
}

// widgetListItem is a line as a poll option or todo task: trimmed, without
// a leading list marker ("-" or "*").
func widgetListItem(line string) string {
	line = strings.TrimFunc(line, pyIsSpace)
	if strings.HasPrefix(line, "-") || strings.HasPrefix(line, "*") {
		line = line[1:]
	}
	return strings.TrimLeftFunc(line, pyIsSpace)
}

// pyIsSpace is Python's str.isspace for one character, which Zulip's
// parser splits and trims by: Unicode's spaces plus the separators
// U+001C to U+001F.
func pyIsSpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// pySplitLines is Python's str.splitlines: lines end at any of its line
// boundaries ("\r\n" counting as one), and a final boundary ends the last
// line rather than starting an empty one.
func pySplitLines(s string) []string {
	var lines []string
	for s != "" {
		i := strings.IndexFunc(s, func(r rune) bool {
			switch r {
			case '\n', '\r', '\v', '\f', 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029:
				return true
			}
			return false
		})
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i])
		if strings.HasPrefix(s[i:], "\r\n") {
			s = s[i+2:]
		} else {
			_, size := utf8.DecodeRuneInString(s[i:])
			s = s[i+size:]
		}
	}
	return lines
}

// pyJSON writes JSON as Python's json.dumps does by default.
type pyJSON struct{ bytes.Buffer }

func (b *pyJSON) raw(s string) { b.WriteString(s) }

// list writes a list, each item written by each.
func (b *pyJSON) list(items []string, each func(string)) {
	b.WriteByte('[')
	for i, item := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		each(item)
	}
	b.WriteByte(']')
}

// str writes a string escaped with ensure_ascii: only printable ASCII
// stays as it is.
func (b *pyJSON) str(s string) {
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r >= 0x20 && r < 0x7f:
			b.WriteRune(r)
		case r > 0xffff:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(b, `\u%04x\u%04x`, hi, lo)
		default:
			fmt.Fprintf(b, `\u%04x`, r)
		}
	}
	b.WriteByte('"')
}

// widgetType is the type ("poll", "todo") of the widget a message carries,
// from its first widget submessage, or "" when it carries none.
func widgetType(subs []store.Submessage) string {
	for _, s := range subs {
		if s.MsgType != widgetMsgType {
			continue
		}
		var def struct {
			WidgetType any `json:"widget_type"`
		}
		if json.Unmarshal([]byte(s.Content), &def) != nil {
			return ""
		}
		t, _ := def.WidgetType.(string)
		return t
	}
	return ""
}

// widgetField is one key of a widget event and the check of its value.
type widgetField struct {
	key   string
	check func(name string, v any) error
}

// widgetEvents are the events each widget accepts, by their "type": the
// keys each must have (and no others), and whether only the message's
// sender may send it.
var widgetEvents = map[string]map[string]struct {
	fields     []widgetField
	authorOnly string // the refusal for others, when only the author may
}{
	"poll": {
		"vote":       {fields: []widgetField{{"key", isString}, {"vote", intIn(1, -1)}}},
		"question":   {fields: []widgetField{{"question", isString}}, authorOnly: "You can't edit a question unless you are the author."},
		"new_option": {fields: []widgetField{{"option", isString}, {"idx", intRange(0, maxWidgetIndex)}}},
	},
	"todo": {
		"new_task": {fields: []widgetField{{"key", intRange(0, maxWidgetIndex)}, {"task", isString}, {"desc", isString}, {"completed", isBool}}},
		"strike":   {fields: []widgetField{{"key", isString}}},
		"new_task_list_title": {fields: []widgetField{{"title", isString}},
			authorOnly: "You can't edit the task list title unless you are the author."},
	},
}

// checkWidgetEvent validates a submessage's decoded content as an event of
// a widget of type widget, with Zulip's checks and sentences.
func checkWidgetEvent(widget string, data any, byAuthor bool) error {
	kinds, ok := widgetEvents[widget]
	if !ok {
		return nil // not a widget Zulip checks: any JSON goes
	}
	name := widget + " data"
	obj, ok := data.(map[string]any)
	if !ok {
		return BadRequest("%s is not a dict", name)
	}
	t, ok := obj["type"]
	if !ok {
		return BadRequest("type key is missing from %s", name)
	}
	if err := isString(name+`["type"]`, t); err != nil {
		return err
	}
	kind, ok := kinds[t.(string)]
	if !ok {
		return BadRequest("Unknown type for %s: %s", name, t)
	}
	if kind.authorOnly != "" && !byAuthor {
		return BadRequest("%s", kind.authorOnly)
	}
	for _, f := range kind.fields {
		v, ok := obj[f.key]
		if !ok {
			return BadRequest("%s key is missing from %s", f.key, name)
		}
		if err := f.check(fmt.Sprintf("%s[%q]", name, f.key), v); err != nil {
			return err
		}
	}
	var unexpected []string
	for k := range obj {
		if k != "type" && !slices.ContainsFunc(kind.fields, func(f widgetField) bool { return f.key == k }) {
			unexpected = append(unexpected, k)
		}
	}
	if len(unexpected) > 0 {
		slices.Sort(unexpected)
		return BadRequest("Unexpected arguments: %s", strings.Join(unexpected, ", "))
	}
	return nil
}

func isString(name string, v any) error {
	if _, ok := v.(string); !ok {
		return BadRequest("%s is not a string", name)
	}
	return nil
}

func isBool(name string, v any) error {
	if _, ok := v.(bool); !ok {
		return BadRequest("%s is not a boolean", name)
	}
	return nil
}

// jsonInt reads a JSON integer (decoded with UseNumber); a fraction or an
// exponent is not one, as in Python. Integers beyond int64 report their sign.
func jsonInt(name string, v any) (n int64, sign int, err error) {
	num, ok := v.(json.Number)
	if !ok || strings.ContainsAny(string(num), ".eE") {
		return 0, 0, BadRequest("%s is not an integer", name)
	}
	n, perr := strconv.ParseInt(string(num), 10, 64)
	if perr != nil {
		if strings.HasPrefix(string(num), "-") {
			return 0, -1, nil
		}
		return 0, 1, nil
	}
	return n, 0, nil
}

func intIn(allowed ...int64) func(string, any) error {
	return func(name string, v any) error {
		n, sign, err := jsonInt(name, v)
		if err != nil {
			return err
		}
		if sign != 0 || !slices.Contains(allowed, n) {
			return BadRequest("Invalid %s", name)
		}
		return nil
	}
}

func intRange(low, high int64) func(string, any) error {
	return func(name string, v any) error {
		n, sign, err := jsonInt(name, v)
		if err != nil {
			return err
		}
		if sign < 0 || (sign == 0 && n < low) {
			return BadRequest("%s is too small", name)
		}
		if sign > 0 || n > high {
			return BadRequest("%s is too large", name)
		}
		return nil
	}
}
