package api

import (
	"io"

	"lanchat/backend/domain"
)

// Importer runs an import that replaces the organization: the server's,
// which alone can swap the store under the API.
type Importer interface {
	// StartImport receives the archive of size bytes (-1: unknown) to a
	// temporary file and starts importing it for owner; it refuses while
	// another import runs.
	StartImport(owner domain.ImportingOwner, format string, archive io.Reader, size int64) error
	ImportStatus() domain.ImportStatus
}

// DefaultMaxImportSize bounds an uploaded export archive.
const DefaultMaxImportSize = 4 << 30

// startImport takes an export archive as the request's body (the format
// in the query), checked before a byte of it is read.
func startImport(c *call) (J, error) {
	format := c.p.str("format")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	if c.api.opts.Importer == nil {
		return nil, domain.BadRequest("This server cannot import.")
	}
	owner, err := c.api.svc.BeginImport(c.user, sessionToken(c))
	if err != nil {
		return nil, err
	}
	if err := c.api.opts.Importer.StartImport(owner, format, c.r.Body, c.r.ContentLength); err != nil {
		return nil, err
	}
	return J{"import": c.api.opts.Importer.ImportStatus()}, nil
}

func importStatus(c *call) (J, error) {
	status := func() domain.ImportStatus { return domain.ImportStatus{State: "none"} }
	if c.api.opts.Importer != nil {
		status = c.api.opts.Importer.ImportStatus
	}
	s, err := domain.WatchImport(c.user, status)
	return J{"import": s}, err
}
