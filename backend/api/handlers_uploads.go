package api

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"

	"lanchat/backend/domain"
	"lanchat/backend/store"
)

// maxUploadBody bounds an upload request; the domain enforces the
// configured file size within it.
const maxUploadBody = 256 << 20

func uploadFile(c *call) (J, error) {
	up, err := c.api.svc.SaveUpload(c.user, c.p.uploadedFiles())
	if err != nil {
		return nil, err
	}
	return J{"uri": up.URI, "url": up.URI, "filename": up.FileName}, nil
}

// Policies for served uploads. Everything is sandboxed, except PDFs:
// browsers' built-in viewers refuse to run in a sandbox, so those get
// Zulip's policy, which allows only the viewer itself.
const (
	uploadPolicy = "default-src 'none'; sandbox"
	pdfPolicy    = "default-src 'none'; object-src 'self'; plugin-types application/pdf; style-src 'unsafe-inline'"
)

// serveUpload sends a file to a user entitled to it; everyone else gets a
// 404, as for a file that does not exist.
// uploadPath is an upload's path from the route's segments.
func uploadPath(c *call) string {
	return c.r.PathValue("realm") + "/" + c.r.PathValue("dir") + "/" + c.r.PathValue("token") + "/" + c.r.PathValue("name")
}

func serveUpload(c *call) (J, error) {
	f, err := c.api.svc.ReadUpload(c.user, uploadPath(c))
	return writeUpload(c, f, err)
}

func serveTemporaryUpload(c *call) (J, error) {
	f, err := c.api.svc.ReadTemporaryUpload(c.r.PathValue("token"))
	return writeUpload(c, f, err)
}

func temporaryUploadURL(c *call) (J, error) {
	url, err := c.api.svc.TemporaryUploadURL(c.user, uploadPath(c))
	if err != nil {
		return nil, &statusError{http.StatusNotFound, domain.BadRequest("Not Found")}
	}
	return J{"url": url}, nil
}

// Downloads: one person is sent at most downloadsPerPerson files at once;
// one more waits up to downloadSlotWait for one of them to end (a page of
// images over HTTP/2 asks for many at once), then gets 429.
const (
	downloadsPerPerson = 8
	downloadSlotWait   = 10 * time.Second
)

// writeUpload sends a stored file from disk: images, PDFs and text in
// place, the rest as a download, each under a restrictive
// Content-Security-Policy.
func writeUpload(c *call, f domain.ServedFile, err error) (J, error) {
	if err != nil {
		return nil, &statusError{http.StatusNotFound, domain.BadRequest("Not Found")}
	}
	defer f.Close()
	disposition, policy := "attachment", uploadPolicy
	if f.Inline {
		disposition = "inline"
	}
	if f.ContentType == "application/pdf" {
		policy = pdfPolicy
	}
	return nil, writeFile(c, f.Person, f.ContentType, f.Modified, f.File, map[string]string{
		"Content-Security-Policy": policy,
		"Content-Disposition":     mime.FormatMediaType(disposition, map[string]string{"filename": f.FileName}),
	})
}

// writeFile answers with a file's content instead of JSON, ranges
// included, as one of person's downloads (downloadsPerPerson), each write
// under its deadline; extra headers (a CSP, a disposition) come from the
// caller. modified may be zero (not known).
func writeFile(c *call, person int64, contentType string, modified time.Time, content io.ReadSeeker, extra map[string]string) error {
	if !c.api.downloads.take(c.r.Context(), person, downloadSlotWait) {
		return rateLimited(c.w, time.Second)
	}
	defer c.api.downloads.give(person)
	h := c.w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Cache-Control", "private, max-age=86400")
	for k, v := range extra {
		h.Set(k, v)
	}
	c.wrote = true
	w := &stallBoundWriter{ResponseWriter: c.w, rc: http.NewResponseController(c.w), timeout: c.api.opts.DownloadWriteTimeout}
	http.ServeContent(w, c.r, "", modified, content)
	w.finish()
	return nil
}

// stallBoundWriter gives every write of a download a deadline of its own,
// renewed as the client takes the file: a slow client that keeps reading
// gets a large file, while one that stops is dropped once a write has
// waited timeout, having held a socket and nothing more meanwhile.
type stallBoundWriter struct {
	http.ResponseWriter
	rc      *http.ResponseController
	timeout time.Duration
	failed  bool
}

func (w *stallBoundWriter) Write(b []byte) (int, error) {
	w.rc.SetWriteDeadline(time.Now().Add(w.timeout))
	n, err := w.ResponseWriter.Write(b)
	w.failed = w.failed || err != nil
	return n, err
}

// finish sends what is buffered under one more deadline, then clears it
// for the connection's next request; a dropped connection keeps its
// passed deadline and closes.
func (w *stallBoundWriter) finish() {
	if w.failed {
		return
	}
	w.rc.SetWriteDeadline(time.Now().Add(w.timeout))
	if w.rc.Flush() == nil {
		w.rc.SetWriteDeadline(time.Time{})
	}
}

func deleteAttachment(c *call) (J, error) {
	id := c.p.pathInt("attachment_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.DeleteAttachment(c.user, id)
}

func listAttachments(c *call) (J, error) {
	list, used, err := c.api.svc.Attachments(c.user)
	if err != nil {
		return nil, err
	}
	return J{"attachments": list, "upload_space_used": used}, nil
}

// The tus protocol's answers (level 295) carry its version in every
// response.
const tusResumable = "1.0.0"

// createTusUpload answers the tus creation POST with 201 and the upload's
// Location.
func createTusUpload(c *call) (J, error) {
	length, err := strconv.ParseInt(c.r.Header.Get("Upload-Length"), 10, 64)
	if err != nil {
		length = -1
	}
	id, err := c.api.svc.CreateTusUpload(c.user, length, c.r.Header.Get("Upload-Metadata"))
	if err != nil {
		return nil, err
	}
	c.w.Header().Set("Tus-Resumable", tusResumable)
	c.w.Header().Set("Location", "/api/v1/tus/"+id)
	c.w.WriteHeader(http.StatusCreated)
	c.wrote = true
	return nil, nil
}

// tusUploadOffset answers HEAD with how far an upload has got.
func tusUploadOffset(c *call) (J, error) {
	up, err := c.api.svc.TusUploadState(c.user, c.r.PathValue("id"))
	if err != nil {
		return nil, &statusError{http.StatusNotFound, domain.BadRequest("Not Found")}
	}
	h := c.w.Header()
	h.Set("Tus-Resumable", tusResumable)
	h.Set("Cache-Control", "no-store")
	h.Set("Upload-Offset", strconv.FormatInt(up.Offset, 10))
	h.Set("Upload-Length", strconv.FormatInt(up.Length, 10))
	c.w.WriteHeader(http.StatusOK)
	c.wrote = true
	return nil, nil
}

// appendTusUpload takes a PATCH's bytes: 204 with the new offset, or, for
// the last bytes, 200 with the file's url and filename as Zulip answers.
func appendTusUpload(c *call) (J, error) {
	if c.r.Header.Get("Content-Type") != "application/offset+octet-stream" {
		return nil, &statusError{http.StatusUnsupportedMediaType, domain.BadRequest("Content-Type must be application/offset+octet-stream")}
	}
	offset, err := strconv.ParseInt(c.r.Header.Get("Upload-Offset"), 10, 64)
	if err != nil {
		return nil, domain.BadRequest("Missing or invalid Upload-Offset")
	}
	newOffset, done, err := c.api.svc.AppendTusUpload(c.user, c.r.PathValue("id"), offset, c.r.Body)
	switch {
	case errors.Is(err, domain.ErrTusOffset):
		return nil, &statusError{http.StatusConflict, domain.BadRequest("Upload-Offset does not match the upload's")}
	case errors.Is(err, store.ErrNotFound):
		return nil, &statusError{http.StatusNotFound, domain.BadRequest("Not Found")}
	case err != nil:
		return nil, err
	}
	c.w.Header().Set("Tus-Resumable", tusResumable)
	c.w.Header().Set("Upload-Offset", strconv.FormatInt(newOffset, 10))
	if done == nil {
		c.w.WriteHeader(http.StatusNoContent)
		c.wrote = true
		return nil, nil
	}
	body, _ := json.Marshal(map[string]string{"url": done.URI, "filename": done.FileName})
	c.w.Header().Set("Content-Type", "application/json")
	c.w.WriteHeader(http.StatusOK)
	c.w.Write(body)
	c.wrote = true
	return nil, nil
}
