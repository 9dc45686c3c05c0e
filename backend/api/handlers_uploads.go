package api

import (
	"mime"
	"net/http"

	"lanchat/backend/domain"
)

// maxUploadBody bounds an upload request; the domain enforces the
// configured file size within it.
const maxUploadBody = 256 << 20

func uploadFile(c *call) (J, error) {
	up, err := c.api.svc.SaveUpload(c.user, uploadedFiles(c))
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

// writeUpload sends a stored file: images, PDFs and text in place, the rest
// as a download, each under a restrictive Content-Security-Policy.
func writeUpload(c *call, f domain.ServedFile, err error) (J, error) {
	if err != nil {
		return nil, &statusError{http.StatusNotFound, domain.BadRequest("Not Found")}
	}
	disposition, policy := "attachment", uploadPolicy
	if f.Inline {
		disposition = "inline"
	}
	if f.ContentType == "application/pdf" {
		policy = pdfPolicy
	}
	writeFile(c, f.ContentType, f.Data, map[string]string{
		"Content-Security-Policy": policy,
		"Content-Disposition":     mime.FormatMediaType(disposition, map[string]string{"filename": f.FileName}),
	})
	return nil, nil
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
