package api

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strconv"
	"sync"

	"lanchat/backend/domain"
	"lanchat/backend/store"
)

// J is a JSON object answer; the writer adds result and msg.
type J = map[string]any

// statusError is a failure decided by the transport itself (unknown route,
// wrong method, oversized body), which needs an HTTP status the domain's
// codes do not imply.
type statusError struct {
	status int
	err    *domain.Error
}

func (e *statusError) Error() string { return e.err.Error() }

// httpStatus maps a domain code to Zulip's HTTP status.
func httpStatus(code string) int {
	switch code {
	case domain.CodeUnauthorized, domain.CodeInvalidAPIKey, domain.CodeUserDeactivated,
		domain.CodeAuthenticationFailed:
		return http.StatusUnauthorized
	case domain.CodeRateLimitHit:
		return http.StatusTooManyRequests
	case domain.CodeUnsupportedWebhookEvent:
		return http.StatusOK
	case domain.ErrBadCSRF.Code:
		return http.StatusForbidden
	}
	return http.StatusBadRequest
}

func writeJSON(w http.ResponseWriter, status int, body any) {
	data, err := json.Marshal(body)
	if err != nil {
		slog.Error("encode response", "err", err)
		status = http.StatusInternalServerError
		data = []byte(`{"result":"error","msg":"Internal server error","code":"BAD_REQUEST"}`)
	}
	writeEncoded(w, status, data)
}

// writeEncoded sends an already encoded JSON answer.
func writeEncoded(w http.ResponseWriter, status int, data []byte) {
	data = gzipAnswer(w, data)
	jsonHeaders(w.Header(), len(data))
	w.WriteHeader(status)
	w.Write(data)
}

// jsonHeaders are the headers of an encoded JSON answer of n bytes (sent
// as it is, or gzipped by gzipAnswer, which adds its own).
func jsonHeaders(h http.Header, n int) {
	varyByEncoding(h)
	h["Content-Type"] = jsonContentType
	h.Set("Content-Length", strconv.Itoa(n))
}

// writeSuccess sends {"result":"success","msg":"", ...fields}.
func writeSuccess(w http.ResponseWriter, fields J) {
	if fields == nil {
		fields = J{}
	}
	fields["result"] = "success"
	fields["msg"] = ""
	writeJSON(w, http.StatusOK, fields)
}

// withIgnored adds to a success answer's fields the parameters the handler
// did not read, as Zulip's answers list them, so a client learns that what
// it asked for is not supported rather than silently not done.
func withIgnored(fields J, p *params) J {
	ignored := p.ignored()
	if len(ignored) == 0 {
		return fields
	}
	if fields == nil {
		fields = J{}
	}
	fields["ignored_parameters_unsupported"] = ignored
	return fields
}

// writeSuccessSpliced is writeSuccess for an answer whose bulk, the field
// name, is encoded already: appendBulk appends it to the answer, not
// encoded (and, through MarshalJSON, validated) again, and not copied from
// a buffer of its own. result and msg come first, as in Zulip's answers; a
// long-poll's answer has no other fields, so waking thousands of pollers
// encodes nothing at all.
func writeSuccessSpliced(c *call, fields J, name string, appendBulk func([]byte) []byte) {
	fields = withIgnored(fields, c.p)
	buf := answerBuffers.Get().(*[]byte)
	defer putAnswerBuffer(buf)
	body := append((*buf)[:0], successHead...)
	if len(fields) > 0 {
		more, err := json.Marshal(fields)
		if err != nil {
			writeError(c.w, c.r, err)
			return
		}
		body = append(append(body, ','), more[1:len(more)-1]...)
	}
	body = append(append(append(body, `,"`...), name...), `":`...)
	body = append(appendBulk(body), '}')
	*buf = body
	writeEncoded(c.w, http.StatusOK, body)
	c.wrote = true
}

// answerBuffers hold spliced answers while they are written (the response
// writer copies them): a fresh buffer per long-poll answer was most of what
// the event path allocated, and so of the collector's work.
var answerBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// putAnswerBuffer returns a buffer to the pool, unless a large history page
// grew it: the pool would keep that memory for small answers.
func putAnswerBuffer(b *[]byte) {
	if cap(*b) <= 64<<10 {
		answerBuffers.Put(b)
	}
}

// successHead opens every success answer.
const successHead = `{"result":"success","msg":""`

// writeError sends any error in the API's error shape. Errors that are not
// domain errors are bugs or store failures: they are logged and answered
// with a generic 500 that leaks nothing.
func writeError(w http.ResponseWriter, r *http.Request, err error) {
	status := 0
	var cause error // logged with the request, for the operator
	var de *domain.Error
	var se *statusError
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &se):
		status, de = se.status, se.err
	case errors.As(err, &de) && de.NotFound:
		status = http.StatusNotFound
	case errors.As(err, &de):
		status = httpStatus(de.Code)
	case errors.As(err, &tooBig):
		status = http.StatusRequestEntityTooLarge
		de = domain.BadRequest("Request body too large (limit: %d bytes)", tooBig.Limit)
	case errors.Is(err, os.ErrDeadlineExceeded):
		de = domain.BadRequest("Request body took too long to arrive")
		status = http.StatusRequestTimeout
	case errors.Is(err, io.ErrUnexpectedEOF):
		de = domain.BadRequest("Request body ended early")
		status = http.StatusBadRequest
	case errors.Is(err, store.ErrStorageFull), errors.Is(err, store.ErrReadOnly):
		// Nothing was written; reads still work. The request's log line
		// tells the operator why.
		cause = err
		status = http.StatusInsufficientStorage
		code := "STORAGE_FULL"
		msg := "The server's disk is full: nothing was saved. Reading still works."
		if errors.Is(err, store.ErrReadOnly) {
			code, msg = "STORAGE_READ_ONLY", "The server's data directory is read-only: nothing was saved. Reading still works."
		}
		de = &domain.Error{Code: code, Msg: msg}
	default:
		recordFailure(w, r, nil, err)
		writeJSON(w, http.StatusInternalServerError, J{"result": "error", "msg": "Internal server error", "code": domain.CodeBadRequest})
		return
	}
	recordFailure(w, r, de, cause)
	body := J{}
	for k, v := range de.Fields {
		body[k] = v
	}
	body["result"] = "error"
	body["msg"] = de.Msg
	body["code"] = de.Code
	// Pages (which send X-Requested-With) must not trigger the browser's
	// own Basic login dialog.
	if status == http.StatusUnauthorized && r.Header.Get("X-Requested-With") == "" {
		w.Header().Set("WWW-Authenticate", `Basic realm="zulip"`)
	}
	writeJSON(w, status, body)
}

// WriteUnavailable answers a request the server cannot serve for a moment
// (an import replacing the organization): a 503 in the API's error shape,
// with a Retry-After.
func WriteUnavailable(w http.ResponseWriter, r *http.Request, msg string) {
	w.Header().Set("Retry-After", "2")
	writeError(w, r, &statusError{http.StatusServiceUnavailable, domain.BadRequest("%s", msg)})
}
