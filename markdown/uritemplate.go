package markdown

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// uriTemplate is a parsed RFC 6570 URL template (levels 1 to 4), as Zulip
// uses for linkifiers.
type uriTemplate struct {
	parts []templatePart
}

// templatePart is literal text, or an expression when op is set.
type templatePart struct {
	literal string
	op      *templateOp
	vars    []templateVar
}

type templateVar struct {
	name   string
	prefix int // keep this many characters; 0 keeps all
}

// templateOp is how an expression's operator expands (RFC 6570 appendix A).
type templateOp struct {
	first, sep string
	named      bool
	ifEmpty    string
	reserved   bool // reserved characters pass through
}

var templateOps = map[byte]*templateOp{
	0:   {sep: ","},
	'+': {sep: ",", reserved: true},
	'#': {first: "#", sep: ",", reserved: true},
	'.': {first: ".", sep: "."},
	'/': {first: "/", sep: "/"},
	';': {first: ";", sep: ";", named: true},
	'?': {first: "?", sep: "&", named: true, ifEmpty: "="},
	'&': {first: "&", sep: "&", named: true, ifEmpty: "="},
}

var errTemplate = errors.New("Invalid URL template.")

func parseTemplate(s string) (uriTemplate, error) {
	var t uriTemplate
	for s != "" {
		open := strings.IndexByte(s, '{')
		if open < 0 {
			open = len(s)
		}
		if open > 0 {
			if !validLiteral(s[:open]) {
				return t, errTemplate
			}
			t.parts = append(t.parts, templatePart{literal: s[:open]})
		}
		if open == len(s) {
			break
		}
		end := strings.IndexByte(s[open:], '}')
		if end < 0 {
			return t, errTemplate
		}
		part, err := parseExpression(s[open+1 : open+end])
		if err != nil {
			return t, err
		}
		t.parts = append(t.parts, part)
		s = s[open+end+1:]
	}
	return t, nil
}

func parseExpression(expr string) (templatePart, error) {
	var opChar byte
	if expr != "" && strings.IndexByte("+#./;?&", expr[0]) >= 0 {
		opChar, expr = expr[0], expr[1:]
	}
	part := templatePart{op: templateOps[opChar]}
	for _, spec := range strings.Split(expr, ",") {
		name, modifier, hasPrefix := strings.Cut(spec, ":")
		v := templateVar{name: strings.TrimSuffix(name, "*")}
		if hasPrefix {
			n, err := strconv.Atoi(modifier)
			if err != nil || n < 1 || n > 9999 || len(modifier) > 4 || v.name != name {
				return part, errTemplate
			}
			v.prefix = n
		}
		if !validVarName(v.name) {
			return part, errTemplate
		}
		part.vars = append(part.vars, v)
	}
	return part, nil
}

func validVarName(name string) bool {
	if name == "" || name[0] == '.' || name[len(name)-1] == '.' {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// validLiteral allows what RFC 6570 allows outside expressions.
func validLiteral(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c <= ' ' || c == 0x7f || strings.IndexByte("\"'<>\\^`{|}", c) >= 0:
			return false
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
		}
	}
	return true
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

// variables lists the template's variable names.
func (t uriTemplate) variables() []string {
	var names []string
	for _, p := range t.parts {
		for _, v := range p.vars {
			names = append(names, v.name)
		}
	}
	return names
}

// expand fills the template; value reports a variable's value and whether
// it is defined (undefined variables expand to nothing).
func (t uriTemplate) expand(value func(name string) (string, bool)) string {
	var b strings.Builder
	for _, p := range t.parts {
		if p.op == nil {
			b.WriteString(p.literal)
			continue
		}
		first := true
		for _, v := range p.vars {
			val, ok := value(v.name)
			if !ok {
				continue
			}
			if first {
				b.WriteString(p.op.first)
				first = false
			} else {
				b.WriteString(p.op.sep)
			}
			if v.prefix > 0 && utf8.RuneCountInString(val) > v.prefix {
				val = string([]rune(val)[:v.prefix])
			}
			if p.op.named {
				b.WriteString(v.name)
				if val == "" {
					b.WriteString(p.op.ifEmpty)
					continue
				}
				b.WriteByte('=')
			}
			pctEncode(&b, val, p.op.reserved)
		}
	}
	return b.String()
}

// pctEncode writes s percent-encoded: all but unreserved characters, or,
// for reserved expansion, all but unreserved, reserved and existing
// %XX escapes.
func pctEncode(b *strings.Builder, s string, reserved bool) {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~", c) >= 0:
			b.WriteByte(c)
		case reserved && strings.IndexByte(":/?#[]@!$&'()*+,;=", c) >= 0:
			b.WriteByte(c)
		case reserved && c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
}

// ValidatePlaygroundTemplate checks a code playground's URL template: RFC
// 6570, a link Lanchat would make (as for linkifiers), with {code} its only
// variable. Errors are worded as Zulip's.
func ValidatePlaygroundTemplate(template string) error {
	t, err := parseTemplate(strings.TrimSpace(template))
	if err != nil || !safeTemplate(t) {
		return errTemplate
	}
	if vars := t.variables(); len(vars) == 0 || slices.ContainsFunc(vars, func(v string) bool { return v != "code" }) {
		return errors.New(`"code" should be the only variable present in the URL template`)
	}
	return nil
}
