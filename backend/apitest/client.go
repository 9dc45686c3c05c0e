package apitest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// Form is a request's parameters; values that are not strings are sent as
// JSON text, as Zulip clients do.
type Form map[string]any

func (f Form) values() url.Values {
	v := url.Values{}
	for k, val := range f {
		switch x := val.(type) {
		case string:
			v.Set(k, x)
		default:
			data, _ := json.Marshal(x)
			v.Set(k, string(data))
		}
	}
	return v
}

// Encode is the form as a urlencoded body or query string.
func (f Form) Encode() string { return f.values().Encode() }

// Client sends requests to a test server as one user.
type Client struct {
	t          testing.TB
	base       string
	email, key string
	// Header is added to every request (for example a User-Agent).
	Header http.Header
}

// Email is the client's login.
func (c *Client) Email() string { return c.email }

// Key is the client's API key.
func (c *Client) Key() string { return c.key }

// Response is a decoded answer.
type Response struct {
	t      testing.TB
	Status int
	Header http.Header
	Raw    []byte
	Body   map[string]any
	req    string
}

// Get sends a GET with the form as the query string.
func (c *Client) Get(path string, f Form) *Response {
	return c.Do("GET", path+query(f), "", nil)
}

// Delete sends a DELETE with the form as the query string (as zulip-js does).
func (c *Client) Delete(path string, f Form) *Response {
	return c.Do("DELETE", path+query(f), "", nil)
}

// Post sends a urlencoded POST.
func (c *Client) Post(path string, f Form) *Response {
	return c.Do("POST", path, "application/x-www-form-urlencoded", strings.NewReader(f.values().Encode()))
}

// Patch sends a urlencoded PATCH.
func (c *Client) Patch(path string, f Form) *Response {
	return c.Do("PATCH", path, "application/x-www-form-urlencoded", strings.NewReader(f.values().Encode()))
}

// PostMultipart sends the form as multipart/form-data, with files given as
// field name → (file name, content).
func (c *Client) PostMultipart(path string, f Form, files map[string][2]string) *Response {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, vals := range f.values() {
		mw.WriteField(k, vals[0])
	}
	for field, file := range files {
		w, _ := mw.CreateFormFile(field, file[0])
		io.WriteString(w, file[1])
	}
	mw.Close()
	return c.Do("POST", path, mw.FormDataContentType(), &buf)
}

func query(f Form) string {
	if len(f) == 0 {
		return ""
	}
	return "?" + f.values().Encode()
}

const regenerateOwnKey = "/api/v1/users/me/api_key/regenerate"

// Do sends any request with the client's credentials.
func (c *Client) Do(method, path, contentType string, body io.Reader) *Response {
	c.t.Helper()
	req, err := http.NewRequest(method, c.base+path, body)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	for k, v := range c.Header {
		req.Header[k] = v
	}
	if c.email != "" {
		req.SetBasicAuth(c.email, c.key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	r := &Response{t: c.t, Status: resp.StatusCode, Header: resp.Header, Raw: raw, req: method + " " + path}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(raw, &r.Body); err != nil {
			c.t.Fatalf("%s: undecodable JSON %q: %v", r.req, raw, err)
		}
	}
	// A client that regenerates its own key goes on with the new one, as
	// real clients do.
	if key, ok := r.Body["api_key"].(string); ok && r.Status == 200 && path == regenerateOwnKey {
		c.key = key
	}
	return r
}

// OK fails the test unless the answer is a JSON success.
func (r *Response) OK() *Response {
	r.t.Helper()
	if r.Status != 200 || r.Body["result"] != "success" || r.Body["msg"] != "" {
		r.t.Fatalf("%s: want success, got %d %s", r.req, r.Status, r.Raw)
	}
	return r
}

// Fails fails the test unless the answer is a JSON error with this HTTP
// status and code, in the API's error shape.
func (r *Response) Fails(status int, code string) *Response {
	r.t.Helper()
	msg, _ := r.Body["msg"].(string)
	if r.Status != status || r.Body["result"] != "error" || r.Body["code"] != code || msg == "" {
		r.t.Fatalf("%s: want error %d %s, got %d %s", r.req, status, code, r.Status, r.Raw)
	}
	return r
}

// Msg is the answer's msg.
func (r *Response) Msg() string { s, _ := r.Body["msg"].(string); return s }

// Str reads a string field.
func (r *Response) Str(key string) string {
	r.t.Helper()
	s, ok := r.Body[key].(string)
	if !ok {
		r.t.Fatalf("%s: field %q is %T (%v), want a string", r.req, key, r.Body[key], r.Body[key])
	}
	return s
}

// Int reads a numeric field.
func (r *Response) Int(key string) int64 {
	r.t.Helper()
	n, ok := r.Body[key].(float64)
	if !ok {
		r.t.Fatalf("%s: field %q is %T (%v), want a number", r.req, key, r.Body[key], r.Body[key])
	}
	return int64(n)
}

// List reads an array field.
func (r *Response) List(key string) []any {
	r.t.Helper()
	l, ok := r.Body[key].([]any)
	if !ok {
		r.t.Fatalf("%s: field %q is %T, want an array", r.req, key, r.Body[key])
	}
	return l
}

// Decode unmarshals the whole body into v.
func (r *Response) Decode(v any) {
	r.t.Helper()
	if err := json.Unmarshal(r.Raw, v); err != nil {
		r.t.Fatalf("%s: decode into %T: %v", r.req, v, err)
	}
}

// String describes the response for failure messages.
func (r *Response) String() string { return fmt.Sprintf("%s → %d %s", r.req, r.Status, r.Raw) }

// PNG is a size×size PNG image with a pattern, for avatar, emoji and
// upload tests.
func PNG(t testing.TB, size int) string {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	for x := range size {
		for y := range size {
			img.Set(x, y, color.RGBA{uint8(x * 7), uint8(y * 13), uint8(x ^ y), 255})
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}
