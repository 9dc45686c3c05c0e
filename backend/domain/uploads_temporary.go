package domain

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"strconv"
	"strings"
	"time"

	"lanchat/backend/store"
)

// TemporaryUploadLifetime is how long a temporary upload URL works, as in
// Zulip.
const TemporaryUploadLifetime = 60 * time.Second

// TemporaryUploadPrefix starts the path of a temporary upload URL.
const TemporaryUploadPrefix = "/user_uploads/temporary/"

// TemporaryUploadURL answers GET /api/v1/user_uploads/{path}: a URL that
// serves the file without credentials for a minute, for API clients that
// hand a file to a browser or another app. The token signs the path and the
// expiry with a key made at start, so URLs die with the process too; it
// names the viewer too, whose downloads the URL's count among.
func (s *Service) TemporaryUploadURL(viewer store.User, path string) (string, error) {
	u, err := s.accessibleUpload(viewer, path)
	if err != nil {
		return "", err
	}
	payload := strconv.FormatInt(s.now().Add(TemporaryUploadLifetime).Unix(), 10) + ":" + strconv.FormatInt(viewer.ID, 10) + ":" + u.Path
	token := base64.RawURLEncoding.EncodeToString([]byte(payload)) + "." + base64.RawURLEncoding.EncodeToString(s.signUpload(payload))
	return TemporaryUploadPrefix + token + "/" + u.FileName, nil
}

// ReadTemporaryUpload serves the file a temporary URL's token names while
// the token is valid; anything else is the answer for a missing file.
func (s *Service) ReadTemporaryUpload(token string) (ServedFile, error) {
	encoded, sig, _ := strings.Cut(token, ".")
	payload, err1 := base64.RawURLEncoding.DecodeString(encoded)
	mac, err2 := base64.RawURLEncoding.DecodeString(sig)
	if err1 != nil || err2 != nil || !hmac.Equal(mac, s.signUpload(string(payload))) {
		return ServedFile{}, store.ErrNotFound
	}
	expiry, rest, _ := strings.Cut(string(payload), ":")
	viewerID, path, _ := strings.Cut(rest, ":")
	until, err := strconv.ParseInt(expiry, 10, 64)
	if err != nil || s.now().Unix() > until {
		return ServedFile{}, store.ErrNotFound
	}
	id, err := strconv.ParseInt(viewerID, 10, 64)
	if err != nil {
		return ServedFile{}, store.ErrNotFound
	}
	var u store.Upload
	var viewer store.User
	err = s.store.View(func(tx *store.Tx) error {
		if u, err = tx.Upload(path); err != nil {
			return err
		}
		viewer, err = tx.User(id)
		return err
	})
	if err != nil {
		return ServedFile{}, err
	}
	return s.servedFile(u, PersonOf(viewer))
}

func (s *Service) signUpload(payload string) []byte {
	m := hmac.New(sha256.New, s.uploadKey)
	m.Write([]byte(payload))
	return m.Sum(nil)
}
