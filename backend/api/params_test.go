package api

import (
	"bytes"
	"errors"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"lanchat/backend/domain"
)

func formRequest(method, query, body string) *http.Request {
	r := httptest.NewRequest(method, "/api/v1/x?"+query, strings.NewReader(body))
	if body != "" {
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	return r
}

func errCode(err error) string {
	var de *domain.Error
	if errors.As(err, &de) {
		return de.Code + ":" + de.Fields["var_name"].(string)
	}
	return ""
}

func TestParamsTypes(t *testing.T) {
	cases := []struct {
		name    string
		method  string
		query   string
		body    string
		read    func(p *params) any
		want    any
		wantErr string
	}{
		{"raw string", "GET", "to=general", "", func(p *params) any { return p.str("to") }, "general", ""},
		{"missing string", "GET", "", "", func(p *params) any { return p.str("to") }, "", "REQUEST_VARIABLE_MISSING:to"},
		{"body beats query", "POST", "to=a", "to=b", func(p *params) any { return p.str("to") }, "b", ""},
		{"given twice reads the last", "POST", "", "to=a&to=b", func(p *params) any { return p.str("to") }, "b", ""},
		{"given twice in the query", "GET", "anchor=oldest&anchor=newest", "", func(p *params) any { return p.str("anchor") }, "newest", ""},
		{"DELETE body parsed", "DELETE", "", "stream=x", func(p *params) any { return p.str("stream") }, "x", ""},
		{"int", "GET", "num_before=30", "", func(p *params) any { return p.int("num_before") }, int64(30), ""},
		{"quoted int", "GET", `num_before="30"`, "", func(p *params) any { return p.int("num_before") }, int64(30), ""},
		{"bad int", "GET", "num_before=x", "", func(p *params) any { return p.int("num_before") }, int64(0), "REQUEST_VARIABLE_INVALID:num_before"},
		{"null int is absent", "GET", "num_before=null", "", func(p *params) any { return p.optInt("num_before", 7) }, int64(7), ""},
		{"missing int", "GET", "", "", func(p *params) any { return p.int("num_after") }, int64(0), "REQUEST_VARIABLE_MISSING:num_after"},
		{"bool true", "GET", "apply_markdown=true", "", func(p *params) any { return p.optBool("apply_markdown", false) }, true, ""},
		{"python bool", "GET", "apply_markdown=False", "", func(p *params) any { return p.optBool("apply_markdown", true) }, false, ""},
		{"bad bool", "GET", "apply_markdown=yes", "", func(p *params) any { return p.optBool("apply_markdown", true) }, true, "REQUEST_VARIABLE_INVALID:apply_markdown"},
		{"json list", "POST", "", "messages=%5B1%2C2%5D", func(p *params) any { var v []int64; p.json("messages", &v); return len(v) }, 2, ""},
		{"json wrong type", "POST", "", "messages=%5B%22a%22%5D", func(p *params) any { var v []int64; p.json("messages", &v); return len(v) }, 0, "REQUEST_VARIABLE_INVALID:messages"},
		{"json malformed", "POST", "", "messages=%5B1", func(p *params) any { var v []int64; p.json("messages", &v); return len(v) }, 0, "REQUEST_VARIABLE_INVALID:messages"},
		{"json null is absent", "POST", "", "event_types=null", func(p *params) any { var v []string; return p.optJSON("event_types", &v) }, false, ""},
		// Django decodes a parameter's invalid UTF-8 as U+FFFD; stored as
		// sent, such bytes named a stream that no valid name could reach.
		{"invalid UTF-8 replaced", "POST", "", "topic=t%FF%FEx", func(p *params) any { return p.str("topic") }, "t\uFFFDx", ""},
		{"invalid UTF-8 in query replaced", "GET", "topic=%C0%80", "", func(p *params) any { return p.optStr("topic", "") }, "\uFFFD", ""},
		{"invalid UTF-8 in JSON replaced", "POST", "", "names=%5B%22%ED%A0%80%22%5D", func(p *params) any { var v []string; p.json("names", &v); return v[0] }, "\uFFFD", ""},
		{"NUL refused", "POST", "", "topic=a%00b", func(p *params) any { return p.str("topic") }, "a\x00b", "REQUEST_VARIABLE_INVALID:topic"},
		{"NUL in an int refused", "GET", "num_before=1%00", "", func(p *params) any { return p.optInt("num_before", 7) }, int64(7), "REQUEST_VARIABLE_INVALID:num_before"},
		{"NUL escape in JSON refused", "POST", "", `names=%5B%22a%5Cu0000%22%5D`, func(p *params) any { var v []string; return p.optJSON("names", &v) }, false, "REQUEST_VARIABLE_INVALID:names"},
		{"escaped backslash before u0000 kept", "POST", "", `names=%5B%22a%5C%5Cu0000%22%5D`, func(p *params) any { var v []string; p.json("names", &v); return v[0] }, `a\u0000`, ""},
		{"NUL in an unread parameter ignored", "POST", "", "other=%00&topic=x", func(p *params) any { return p.str("topic") }, "x", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, err := parseParams(formRequest(tc.method, tc.query, tc.body), false)
			if err != nil {
				t.Fatal(err)
			}
			got := tc.read(p)
			if got != tc.want {
				t.Errorf("got %#v, want %#v", got, tc.want)
			}
			if code := errCode(p.err()); code != tc.wantErr {
				t.Errorf("error %q (%v), want %q", code, p.err(), tc.wantErr)
			}
		})
	}
}

func TestParamsMultipart(t *testing.T) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("type", "stream")
	w, _ := mw.CreateFormFile("/tmp/whatever.png", "whatever.png")
	w.Write([]byte("PNG"))
	mw.Close()
	r := httptest.NewRequest("POST", "/api/v1/x", &buf)
	r.Header.Set("Content-Type", mw.FormDataContentType())
	p, err := parseParams(r, true)
	if err != nil {
		t.Fatal(err)
	}
	files := p.uploadedFiles()
	f, ok, err := files.Next()
	if p.str("type") != "stream" || !ok || err != nil || f.Name != "whatever.png" {
		t.Fatalf("multipart: type %q, file %v %v %v", p.str("type"), f.Name, ok, err)
	}
	if data, err := io.ReadAll(f); string(data) != "PNG" || err != nil {
		t.Errorf("file read %q, %v", data, err)
	}
	if _, more, err := files.Next(); more || err != nil {
		t.Errorf("a second file: %v %v", more, err)
	}
}

func TestHandlerPanicIsAJSON500(t *testing.T) {
	var log bytes.Buffer
	a := &API{mux: http.NewServeMux(), log: slog.New(slog.NewTextHandler(&log, nil))}
	a.mux.HandleFunc("/api/v1/boom", func(http.ResponseWriter, *http.Request) { panic("boom") })
	rec := httptest.NewRecorder()
	a.ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/boom", nil))
	if rec.Code != 500 || !strings.Contains(rec.Body.String(), `"result":"error"`) {
		t.Errorf("panic answered %d %q", rec.Code, rec.Body.String())
	}
	// The panic is logged with its stack, and the request as an error.
	if !strings.Contains(log.String(), `level=ERROR msg="handler panic" method=GET route=/api/v1/boom panic=boom stack=`) ||
		!strings.Contains(log.String(), `level=ERROR msg=request method=GET route=/api/v1/boom status=500`) {
		t.Errorf("log:\n%s", log.String())
	}
}

// FuzzParams feeds arbitrary query strings and bodies to the parser and
// every typed reader: none may panic, and every failure is a domain error.
func FuzzParams(f *testing.F) {
	f.Add("num_before=30&anchor=newest", "messages=%5B1%2C2%5D&flag=read", "application/x-www-form-urlencoded")
	f.Add("narrow=%5B%5B%22stream%22%2C%22x%22%5D%5D", "", "")
	f.Add("a=%zz", "b=%%%", "multipart/form-data; boundary=x")
	f.Fuzz(func(t *testing.T, query, body, ctype string) {
		r, err := http.NewRequest("POST", "/api/v1/x", strings.NewReader(body))
		if err != nil {
			return
		}
		r.URL.RawQuery = query
		r.Header.Set("Content-Type", ctype)
		p, err := parseParams(r, false)
		if err != nil {
			var de *domain.Error
			if !errors.As(err, &de) {
				t.Fatalf("parse error is not a domain error: %v", err)
			}
			return
		}
		for name := range p.values {
			p.str(name)
			p.optInt(name, 0)
			p.optBool(name, false)
			var anyJSON any
			p.optJSON(name, &anyJSON)
			var ids []int64
			p.optJSON(name, &ids)
		}
		if err := p.err(); err != nil {
			var de *domain.Error
			if !errors.As(err, &de) {
				t.Fatalf("reader error is not a domain error: %v", err)
			}
		}
	})
}

// zulip-js sends a POST without parameters as multipart/form-data with an
// empty body (or only the closing boundary): no parameters, not an error.
func TestParamsEmptyMultipartBody(t *testing.T) {
	for _, body := range []string{"", "--b--\r\n"} {
		r := httptest.NewRequest("POST", "/api/v1/x?q=1", strings.NewReader(body))
		r.Header.Set("Content-Type", "multipart/form-data; boundary=b")
		p, err := parseParams(r, false)
		if err != nil {
			t.Errorf("body %q: %v", body, err)
			continue
		}
		if p.str("q") != "1" || p.has("x") {
			t.Errorf("body %q: values %v", body, p.values)
		}
	}
}
