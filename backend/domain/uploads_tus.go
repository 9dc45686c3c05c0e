package domain

import (
	"cmp"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"lanchat/backend/store"
)

// Resumable uploads over the tus protocol (level 295), as Zulip's
// /api/v1/tus: a client creates an upload of a known length, sends its
// bytes in as many PATCHes as it needs (resuming after a HEAD tells how
// far it got), and the last one records the file as POST /user_uploads
// would. Unfinished uploads live under uploads/tus/ as the bytes so far
// and their description, so they survive a restart.

// tusDir holds unfinished resumable uploads.
const tusDir = "tus"

// TusUpload describes an unfinished resumable upload.
type TusUpload struct {
	OwnerID  int64  `json:"owner_id"`
	Length   int64  `json:"length"`
	FileName string `json:"file_name"`
	// Offset is how many bytes have arrived (not stored: the file's size).
	Offset int64 `json:"-"`
}

// tusPaths are the bytes and the description of an unfinished upload.
func (s *Service) tusPaths(id string) (data, info string) {
	base := filepath.Join(s.cfg.DataDir, uploadDir, tusDir, id)
	return base, base + ".info"
}

// CreateTusUpload starts a resumable upload of length bytes with the tus
// Upload-Metadata header's filename, and returns its ID.
func (s *Service) CreateTusUpload(actor store.User, length int64, metadata string) (string, error) {
	if length < 0 {
		return "", BadRequest("SizeIsDeferred is not supported")
	}
	if limit := s.uploadLimit(); length > limit {
		return "", BadRequest("Uploaded file is larger than the allowed limit of %s", mib(limit))
	}
	err := s.store.View(func(tx *store.Tx) error { return s.checkUploadQuota(tx, actor.ID, length) })
	if err != nil {
		return "", err
	}
	meta := tusMetadata(metadata)
	up := TusUpload{OwnerID: actor.ID, Length: length, FileName: meta["filename"]}
	id := randomString(24, apiKeyAlphabet)
	data, info := s.tusPaths(id)
	if err := os.MkdirAll(filepath.Dir(data), 0o700); err != nil {
		return "", internal("tus upload", err)
	}
	desc, _ := json.Marshal(up)
	if err := writeDataFile(info, desc); err != nil {
		return "", internal("tus upload", err)
	}
	return id, internal("tus upload", writeDataFile(data, nil))
}

// tusMetadata decodes Upload-Metadata: comma-separated "key base64value".
func tusMetadata(header string) map[string]string {
	out := map[string]string{}
	for _, pair := range strings.Split(header, ",") {
		key, value, _ := strings.Cut(strings.TrimSpace(pair), " ")
		if decoded, err := base64.StdEncoding.DecodeString(value); err == nil && key != "" {
			out[key] = string(decoded)
		}
	}
	return out
}

// TusUploadState is an unfinished upload of the actor's, for HEAD.
func (s *Service) TusUploadState(actor store.User, id string) (TusUpload, error) {
	s.tusLock.Lock()
	defer s.tusLock.Unlock()
	return s.tusUpload(actor, id)
}

func (s *Service) tusUpload(actor store.User, id string) (TusUpload, error) {
	var up TusUpload
	if strings.ContainsAny(id, "/\\.") || id == "" {
		return up, store.ErrNotFound
	}
	data, info := s.tusPaths(id)
	desc, err := os.ReadFile(info)
	if err != nil || json.Unmarshal(desc, &up) != nil || up.OwnerID != actor.ID {
		return up, store.ErrNotFound
	}
	st, err := os.Stat(data)
	if err != nil {
		return up, store.ErrNotFound
	}
	up.Offset = st.Size()
	return up, nil
}

// ErrTusOffset refuses a PATCH whose Upload-Offset is not where the
// upload is (the tus protocol's 409).
var ErrTusOffset = errors.New("tus: offset mismatch")

// AppendTusUpload adds the bytes of a PATCH sent at offset. It returns
// the new offset, and the recorded file once the upload is complete.
func (s *Service) AppendTusUpload(actor store.User, id string, offset int64, body io.Reader) (int64, *Upload, error) {
	s.tusLock.Lock()
	defer s.tusLock.Unlock()
	up, err := s.tusUpload(actor, id)
	if err != nil {
		return 0, nil, err
	}
	if offset != up.Offset {
		return up.Offset, nil, ErrTusOffset
	}
	data, info := s.tusPaths(id)
	f, err := os.OpenFile(data, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return 0, nil, internal("tus upload", err)
	}
	n, err := io.Copy(f, io.LimitReader(body, up.Length-up.Offset))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, nil, internal("tus upload", err)
	}
	if up.Offset += n; up.Offset < up.Length {
		return up.Offset, nil, nil
	}
	os.Remove(info)
	dir, token := randomHex(1), randomString(24, apiKeyAlphabet)
	stored := filepath.Join(s.cfg.DataDir, uploadDir, dir, token)
	if err := os.MkdirAll(filepath.Dir(stored), 0o700); err != nil {
		return 0, nil, internal("tus upload", err)
	}
	if err := os.Rename(data, stored); err != nil {
		return 0, nil, internal("tus upload", err)
	}
	original := cmp.Or(originalFileName(up.FileName), "uploaded-file")
	// The type is read from the bytes, as for POST /user_uploads, never
	// taken from the client's filetype.
	head := make([]byte, 512)
	if f, err := os.Open(stored); err == nil {
		n, _ := io.ReadFull(f, head)
		f.Close()
		head = head[:n]
	}
	done, err := s.recordUpload(actor, dir, token, safeFileName(original), original, up.Length, http.DetectContentType(head))
	if err != nil {
		return 0, nil, err
	}
	return up.Offset, &done, nil
}
