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

// serveUpload sends a file to a user entitled to it; everyone else gets a
// 404, as for a file that does not exist.
func serveUpload(c *call) (J, error) {
	path := "1/" + c.r.PathValue("dir") + "/" + c.r.PathValue("token") + "/" + c.r.PathValue("name")
	f, err := c.api.svc.ReadUpload(c.user, path)
	if err != nil {
		return nil, &statusError{http.StatusNotFound, domain.BadRequest("Not Found")}
	}
	disposition := "attachment"
	if f.Inline {
		disposition = "inline"
	}
	writeFile(c, f.ContentType, f.Data, map[string]string{
		"Content-Security-Policy": "default-src 'none'; sandbox",
		"Content-Disposition":     mime.FormatMediaType(disposition, map[string]string{"filename": f.FileName}),
	})
	return nil, nil
}

func listAttachments(c *call) (J, error) {
	list, used, err := c.api.svc.Attachments(c.user)
	if err != nil {
		return nil, err
	}
	return J{"attachments": list, "upload_space_used": used}, nil
}
