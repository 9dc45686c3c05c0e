package domain

// Files users upload (custom emoji, avatars, attachments) and imports
// bring: reading them as they arrive, bounded, telling images by content,
// and storing them under the data directory.

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"

	"lanchat/backend/safefile"
)

// imageTypes are the image formats accepted (custom emoji, avatars),
// detected by content.
var imageTypes = map[string]string{"image/png": ".png", "image/gif": ".gif", "image/jpeg": ".jpg", "image/webp": ".webp"}

// detectImage tells an image's type from its first bytes, whatever its
// name claims.
func detectImage(head []byte) (string, bool) {
	ctype := http.DetectContentType(head)
	_, ok := imageTypes[ctype]
	return ctype, ok
}

// UploadedFile is one file of a multipart request, read as it arrives.
type UploadedFile struct {
	Name string
	io.Reader
}

// UploadedFiles are a request's files in the order they arrive: Next
// returns the next one (false after the last), once the one before has
// been read, so no file is held whole anywhere on its way to disk.
type UploadedFiles interface {
	Next() (UploadedFile, bool, error)
}

// onlyFile hands a request's one file to read, refusing a request with
// none or with more than one (what names the file in the refusal).
func onlyFile(files UploadedFiles, what string, read func(UploadedFile) error) error {
	f, ok, err := files.Next()
	if err == nil && !ok {
		err = BadRequest("You must upload exactly one %s.", what)
	}
	if err != nil {
		return err
	}
	if err := read(f); err != nil {
		return err
	}
	_, more, err := files.Next()
	if err == nil && more {
		err = BadRequest("You must upload exactly one %s.", what)
	}
	return err
}

// readAll reads a file of at most limit bytes.
func readAll(r io.Reader, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, BadRequest("Uploaded file is larger than the allowed limit of %s", mib(limit))
	}
	return bytes.Clone(data), nil
}

// mib names a size in MiB when it is whole ones, else in bytes.
func mib(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}

// randomHex is n random bytes in hex: stored files' names and folders.
func randomHex(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// writeDataFile stores a user file under the data directory whole or not
// at all (safefile), creating its folder.
func writeDataFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return safefile.WriteData(path, data)
}
