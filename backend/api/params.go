package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"lanchat/backend/domain"
)

// params reads a request's parameters the way Zulip clients send them:
// query string, urlencoded or multipart bodies (on every method, DELETE
// included), strings raw and every other type as JSON text. A JSON null means
// "not given". The first problem is kept and reported by err, so handlers
// read all their parameters and check once.
type params struct {
	values url.Values
	// asked are the names the handler read, given or not; what else was
	// given is ignored (see ignored).
	asked map[string]struct{}
	files multipartFiles
	r     *http.Request
	first error
}

// parseParams merges the query string and the body. Body values win over
// query values of the same name. An upload route's files are left in the
// body, to stream to disk as they are read (files); any other route's are
// skipped.
func parseParams(r *http.Request, upload bool) (*params, error) {
	// Query parses afresh on every call, so its map is the request's own.
	p := &params{values: r.URL.Query(), r: r}
	ctype, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ctype {
	case "application/x-www-form-urlencoded":
		body, err := readBody(r)
		if err != nil {
			return nil, err
		}
		vals, err := url.ParseQuery(string(body))
		if err != nil {
			return nil, domain.BadRequest("Malformed form body")
		}
		for k, v := range vals {
			p.values[k] = v
		}
	case "multipart/form-data":
		if err := p.readFields(upload); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// maxFormFields bounds a multipart body's fields together (files aside).
const maxFormFields = defaultMaxBody

// readFields reads a multipart body's fields, up to its first file part on
// an upload route (the rest is read by files.Next as the handler goes).
func (p *params) readFields(upload bool) error {
	parts, err := p.r.MultipartReader()
	if err != nil {
		return domain.BadRequest("Malformed multipart body")
	}
	body := url.Values{}
	room := int64(maxFormFields)
	for first := true; ; first = false {
		part, err := parts.NextPart()
		switch {
		case err == io.EOF:
			maps.Copy(p.values, body)
			return nil
		case first && errors.Is(err, io.EOF):
			// No part at all: the empty body zulip-js sends for a POST
			// without parameters (Django reads such a body as no fields too).
			return nil
		case err != nil:
			return bodyError(err)
		case part.FileName() != "" && upload:
			maps.Copy(p.values, body)
			p.files = multipartFiles{parts: parts, next: part}
			return nil
		case part.FileName() != "":
			continue // NextPart skips what is left of it
		}
		value, err := io.ReadAll(io.LimitReader(part, room+1))
		if err != nil {
			return bodyError(err)
		}
		if room -= int64(len(value)); room < 0 {
			return &http.MaxBytesError{Limit: maxFormFields}
		}
		body[part.FormName()] = append(body[part.FormName()], string(value))
	}
}

// multipartFiles are an upload's file parts, read from the body in turn
// (domain.UploadedFiles): next is the first, already reached by
// readFields. Fields after a file are not read. A pace, when set, spreads
// what person's files are read over time.
type multipartFiles struct {
	parts  *multipart.Reader
	next   *multipart.Part
	pace   *pace
	person int64
}

func (m *multipartFiles) Next() (domain.UploadedFile, bool, error) {
	part := m.next
	m.next = nil
	for part == nil || part.FileName() == "" {
		if m.parts == nil {
			return domain.UploadedFile{}, false, nil
		}
		var err error
		if part, err = m.parts.NextPart(); err == io.EOF {
			m.parts = nil
		} else if err != nil {
			return domain.UploadedFile{}, false, bodyError(err)
		}
	}
	var r io.Reader = filePart{part}
	if m.pace != nil {
		r = m.pace.reader(m.person, r)
	}
	return domain.UploadedFile{Name: part.FileName(), Reader: r}, true, nil
}

// filePart reads a file part, its errors told as bodyError tells them.
type filePart struct{ part *multipart.Part }

func (f filePart) Read(b []byte) (int, error) {
	n, err := f.part.Read(b)
	if err != nil && err != io.EOF {
		err = bodyError(err)
	}
	return n, err
}

// bodyError is an error met reading a multipart body: the body reader's
// own (too large, too slow), which writeError answers, or else a malformed
// body (one cut short included).
func bodyError(err error) error {
	if tooLarge(err) || errors.Is(err, os.ErrDeadlineExceeded) {
		return err
	}
	return domain.BadRequest("Malformed multipart body")
}

func (p *params) fail(err error) {
	if p.first == nil {
		p.first = err
	}
}

// err is the first problem met while reading parameters.
func (p *params) err() error { return p.first }

// raw returns a parameter's text and whether it was given (JSON null counts
// as not given only for typed parameters; see typed). A parameter given
// twice reads as its last value, as Django's QueryDict reads it. Invalid
// UTF-8 reads as U+FFFD, as Django decodes it, so nothing stored is
// undecodable; a NUL byte is refused, as no name, text or value may hold
// one.
func (p *params) raw(name string) (string, bool) {
	if p.asked == nil {
		p.asked = make(map[string]struct{}, len(p.values))
	}
	p.asked[name] = struct{}{}
	v, ok := p.values[name]
	if !ok || len(v) == 0 {
		return "", false
	}
	last := v[len(v)-1]
	if strings.ContainsRune(last, 0) {
		p.fail(domain.InvalidArgument(name, "contains NULL (0x00) characters"))
	}
	return strings.ToValidUTF8(last, "\uFFFD"), true
}

// ignored are the parameters given that the handler never read, sorted:
// Zulip answers them as ignored_parameters_unsupported (feature level 167).
func (p *params) ignored() []string {
	var names []string
	for name := range p.values {
		if _, read := p.asked[name]; !read {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// typed is raw for JSON-typed parameters, where `null` means absent.
func (p *params) typed(name string) (string, bool) {
	v, ok := p.raw(name)
	if !ok || strings.TrimSpace(v) == "null" {
		return "", false
	}
	return strings.TrimSpace(v), true
}

// has tells whether a parameter was given at all.
func (p *params) has(name string) bool {
	_, ok := p.typed(name)
	return ok
}

// str reads a required string.
func (p *params) str(name string) string {
	v, ok := p.raw(name)
	if !ok {
		p.fail(domain.MissingArgument(name))
	}
	return v
}

// optStr reads an optional string.
func (p *params) optStr(name, def string) string {
	if v, ok := p.raw(name); ok {
		return v
	}
	return def
}

// int reads a required integer.
func (p *params) int(name string) int64 {
	if !p.has(name) {
		p.fail(domain.MissingArgument(name))
		return 0
	}
	return p.optInt(name, 0)
}

// optInt reads an optional integer; a quoted number is accepted too.
func (p *params) optInt(name string, def int64) int64 {
	v, ok := p.typed(name)
	if !ok {
		return def
	}
	n, err := strconv.ParseInt(strings.Trim(v, `"`), 10, 64)
	if err != nil {
		p.fail(domain.InvalidArgument(name, "not an integer"))
		return def
	}
	return n
}

// optBool reads an optional boolean sent as JSON (`true`/`false`); Python's
// `True`/`False` are accepted as clients built from str() send them.
func (p *params) optBool(name string, def bool) bool {
	v, ok := p.typed(name)
	if !ok {
		return def
	}
	switch strings.ToLower(strings.Trim(v, `"`)) {
	case "true":
		return true
	case "false":
		return false
	}
	p.fail(domain.InvalidArgument(name, "not a boolean"))
	return def
}

// strGiven, intGiven and boolGiven read a parameter the request may leave
// out, as a PATCH's fields: nil when it does. boolGiven's def stands for an
// invalid value, whose error p records, as optBool's does.
func (p *params) strGiven(name string) *string {
	if !p.has(name) {
		return nil
	}
	v := p.str(name)
	return &v
}

// topicGiven is strGiven for a topic, named topic or, in older clients,
// subject (topic first when both are given, as a send reads them).
func (p *params) topicGiven() *string {
	if topic := p.strGiven("topic"); topic != nil {
		return topic
	}
	return p.strGiven("subject")
}

func (p *params) intGiven(name string) *int64 {
	if !p.has(name) {
		return nil
	}
	v := p.int(name)
	return &v
}

func (p *params) boolGiven(name string, def bool) *bool {
	if !p.has(name) {
		return nil
	}
	v := p.optBool(name, def)
	return &v
}

// json decodes a required JSON parameter into v.
func (p *params) json(name string, v any) {
	if !p.has(name) {
		p.fail(domain.MissingArgument(name))
		return
	}
	p.optJSON(name, v)
}

// optJSON decodes an optional JSON parameter into v, leaving v as it is when
// the parameter is absent. It reports whether a value was decoded.
func (p *params) optJSON(name string, v any) bool {
	text, ok := p.typed(name)
	if !ok {
		return false
	}
	// Decode into a fresh value so a failed decode leaves v untouched.
	fresh := reflect.New(reflect.TypeOf(v).Elem())
	if err := json.Unmarshal([]byte(text), fresh.Interface()); err != nil {
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) {
			p.fail(domain.InvalidArgument(name, fmt.Sprintf("expected %s", describeJSONType(v))))
		} else {
			p.fail(domain.InvalidArgument(name, "malformed JSON"))
		}
		return false
	}
	if jsonEscapesNUL(text) {
		p.fail(domain.InvalidArgument(name, "contains NULL (0x00) characters"))
		return false
	}
	reflect.ValueOf(v).Elem().Set(fresh.Elem())
	return true
}

// jsonEscapesNUL tells whether valid JSON text holds the escape \u0000, a
// NUL in a decoded string (raw refuses a literal one). In valid JSON a
// backslash appears only in strings, where \u0000 is that escape unless
// the backslash before it is itself escaped, by an odd run before it.
func jsonEscapesNUL(text string) bool {
	for i := 0; ; {
		at := strings.Index(text[i:], `\u0000`)
		if at < 0 {
			return false
		}
		at += i
		slashes := 0
		for j := at - 1; j >= 0 && text[j] == '\\'; j-- {
			slashes++
		}
		if slashes%2 == 0 {
			return true
		}
		i = at + 1
	}
}

// userRefs is a JSON list of users named by email or by integer ID (Zulip
// takes either in `principals`); IDs are kept as their decimal text.
type userRefs []string

func (l *userRefs) UnmarshalJSON(b []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	out := make(userRefs, 0, len(raw))
	for _, r := range raw {
		var email string
		var id int64
		switch {
		case json.Unmarshal(r, &email) == nil:
			out = append(out, email)
		case json.Unmarshal(r, &id) == nil:
			out = append(out, strconv.FormatInt(id, 10))
		default:
			return &json.UnmarshalTypeError{Value: string(r), Type: reflect.TypeOf(l)}
		}
	}
	*l = out
	return nil
}

func describeJSONType(v any) string {
	switch v.(type) {
	case *userRefs:
		return "a list of emails or user IDs"
	case *[]int64, *[]int:
		return "a list of integers"
	case *[]string:
		return "a list of strings"
	case *map[string]any:
		return "an object"
	}
	return "another type"
}

// optNarrow reads an optional narrow in either wire form; absent is none.
func (p *params) optNarrow(name string) []domain.NarrowTerm {
	terms, err := domain.ParseNarrow(p.optStr(name, ""))
	if err != nil {
		p.fail(err)
	}
	return terms
}

// narrow reads a required narrow ("[]" is the empty one).
func (p *params) narrow(name string) []domain.NarrowTerm {
	if _, ok := p.raw(name); !ok {
		p.fail(domain.MissingArgument(name))
		return nil
	}
	return p.optNarrow(name)
}

// pathInt reads an integer path segment such as {message_id}.
func (p *params) pathInt(name string) int64 {
	n, err := strconv.ParseInt(p.r.PathValue(name), 10, 64)
	if err != nil || n < 0 {
		p.fail(domain.InvalidArgument(name, "not an integer"))
	}
	return n
}

// uploadedFiles are an upload route's files, read as they arrive.
func (p *params) uploadedFiles() domain.UploadedFiles { return &p.files }

// readBody reads a (size-limited) body whole.
func readBody(r *http.Request) ([]byte, error) {
	return io.ReadAll(r.Body)
}

func tooLarge(err error) bool {
	var mb *http.MaxBytesError
	return errors.As(err, &mb)
}
