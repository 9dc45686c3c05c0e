package domain

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"lanchat/backend/events"
	"lanchat/backend/safefile"
	"lanchat/backend/store"
)

// DefaultMaxUploadSize is max_file_upload_size_mib's default, 25 MiB.
const DefaultMaxUploadSize = 25 << 20

// uploadDir holds uploaded files under server-chosen names.
const uploadDir = "uploads"

// safeFileName keeps a client's file name as metadata only: letters,
// digits, dots, dashes and underscores, never a path.
func safeFileName(name string) string {
	name = path.Base(strings.ReplaceAll(name, "\\", "/"))
	clean := strings.Map(func(r rune) rune {
		switch {
		case unicode.IsLetter(r), unicode.IsDigit(r), r == '.', r == '-', r == '_':
			return r
		case r == ' ':
			return '_'
		}
		return -1
	}, name)
	clean = strings.TrimLeft(clean, ".")
	if clean == "" {
		clean = "file"
	}
	if len(clean) > 100 {
		clean = clean[len(clean)-100:]
	}
	return clean
}

// Upload is the answer to a file upload.
type Upload struct {
	URI string
	// FileName is the name the client gave, without folders: closer to the
	// original than the URL's (level 286).
	FileName string
}

// DefaultUploadQuota bounds each user's uploaded files together: 1 GiB.
const DefaultUploadQuota = 1 << 30

// SaveUpload stores one uploaded file, streaming it to disk as it
// arrives, within the size limit and the uploader's quota.
func (s *Service) SaveUpload(actor store.User, files UploadedFiles) (Upload, error) {
	limit := s.uploadLimit()
	var name, original string
	var size int64
	var head []byte
	dir, token := randomHex(1), randomString(24, apiKeyAlphabet)
	stored := filepath.Join(dir, token)
	file := filepath.Join(s.cfg.DataDir, uploadDir, stored)
	err := onlyFile(files, "file", func(f UploadedFile) (err error) {
		name, original = safeFileName(f.Name), originalFileName(f.Name)
		size, head, err = streamDataFile(file, io.LimitReader(f, limit+1))
		if err == nil && size > limit {
			err = BadRequest("Uploaded file is larger than the allowed limit of %s", mib(limit))
		}
		return err
	})
	if err != nil {
		os.Remove(file)
		return Upload{}, err
	}
	return s.recordUpload(actor, dir, token, name, cmp.Or(original, name), size, http.DetectContentType(head))
}

// uploadLimit is the largest file one may upload.
func (s *Service) uploadLimit() int64 {
	if s.cfg.MaxUploadSize <= 0 {
		return DefaultMaxUploadSize
	}
	return s.cfg.MaxUploadSize
}

// originalFileName is a client's file name without folders, or "" when
// nothing is left.
func originalFileName(name string) string {
	name = path.Base(strings.ReplaceAll(name, "\\", "/"))
	if strings.Trim(name, "./") == "" {
		return ""
	}
	return name
}

// recordUpload records a file stored at uploads/dir/token, within the
// uploader's quota; the file goes when it cannot be recorded.
func (s *Service) recordUpload(actor store.User, dir, token, name, original string, size int64, contentType string) (Upload, error) {
	u := store.Upload{
		Path: fmt.Sprintf("1/%s/%s/%s", dir, token, name), Token: token, FileName: name,
		ContentType: contentType, Size: size, OwnerID: actor.ID,
		Created: s.now().Unix(), Stored: filepath.Join(dir, token),
	}
	u.Width, u.Height = imageSize(filepath.Join(s.cfg.DataDir, uploadDir, u.Stored), u.ContentType)
	err := s.store.Update(func(tx *store.Tx) error {
		if err := s.checkUploadQuota(tx, actor.ID, size); err != nil {
			return err
		}
		return tx.CreateUpload(&u)
	})
	if err != nil {
		os.Remove(filepath.Join(s.cfg.DataDir, uploadDir, u.Stored))
		return Upload{}, internal("save upload", err)
	}
	return Upload{URI: "/user_uploads/" + u.Path, FileName: original}, nil
}

// checkUploadQuota refuses a file that would take a user's uploads past
// the quota; it runs in the upload's own write, so parallel uploads cannot
// all slip under it.
func (s *Service) checkUploadQuota(tx *store.Tx, userID, size int64) error {
	quota := s.cfg.UploadQuota
	if quota == 0 {
		quota = DefaultUploadQuota
	}
	if quota < 0 {
		return nil
	}
	list, err := tx.UserUploads(userID)
	if err != nil {
		return err
	}
	used := size
	for _, u := range list {
		used += u.Size
	}
	if used > quota {
		return BadRequest("Upload would exceed your upload quota of %s.", mib(quota))
	}
	return nil
}

// streamDataFile is writeDataFile for a stream: the file is copied to disk
// through a small buffer, never held in memory. It returns the size and
// the first bytes, for type detection.
func streamDataFile(path string, r io.Reader) (size int64, head []byte, err error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return 0, nil, err
	}
	err = safefile.Write(path, func(w io.Writer) error {
		head = make([]byte, 512)
		n, err := io.ReadFull(r, head)
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			return err
		}
		head = head[:n]
		size, err = io.Copy(w, io.MultiReader(bytes.NewReader(head), r))
		return err
	})
	return size, head, err
}

// UploadAccessible is the one rule for who may fetch an upload: its owner,
// and anyone who can see a message that grants it (found through the search
// index by the upload's unique token), so a file posted only in a private
// stream stays there. As in Zulip, a message grants a file only when its
// sender could already access it: the owner's messages do, another's only
// if its sender can see an earlier granting message. Posting a URL one has
// noted (from a message since deleted, or a private stream) grants nothing.
func UploadAccessible(tx *store.Tx, viewer store.User, u store.Upload) bool {
	if u.OwnerID == viewer.ID {
		return true
	}
	g := uploadGrants{tx: tx, streams: streamCache{}, reached: map[int64]bool{u.OwnerID: true}, checked: map[int64]int{}}
	for _, m := range linkingMessages(tx, u) {
		if sender, err := tx.User(m.SenderID); err == nil && g.reaches(sender) {
			g.granting = append(g.granting, m)
		}
	}
	return g.reaches(viewer)
}

// uploadGrants walks an upload's messages in order, keeping those that
// grant it.
type uploadGrants struct {
	tx       *store.Tx
	streams  streamCache
	granting []store.Message
	reached  map[int64]bool // users known to have access
	checked  map[int64]int  // per user, how many granting messages were tried
}

// reaches tells whether u can see one of the granting messages so far;
// each user tries each message at most once.
func (g *uploadGrants) reaches(u store.User) bool {
	if g.reached[u.ID] {
		return true
	}
	for _, m := range g.granting[g.checked[u.ID]:] {
		if _, ok := messageAccess(g.tx, u, m, g.streams); ok {
			g.reached[u.ID] = true
			return true
		}
	}
	g.checked[u.ID] = len(g.granting)
	return false
}

// linkingMessages are the messages whose content links the upload.
func linkingMessages(tx *store.Tx, u store.Upload) []store.Message {
	var out []store.Message
	for _, id := range tx.SearchIDs(u.Token) {
		if m, err := tx.Message(id); err == nil && strings.Contains(m.Content, u.Path) {
			out = append(out, m)
		}
	}
	return out
}

// ServedFile is a stored file, open, with how to serve it; the caller
// sends it from disk and closes it.
type ServedFile struct {
	*os.File
	Modified    time.Time // when it was uploaded
	ContentType string
	FileName    string
	Inline      bool // images, PDFs and plain text show in place; everything else downloads
	// Person is whose download it is (PersonOf the viewer, or of who asked
	// for a temporary URL): what one person downloads at once is bounded.
	Person int64
}

// inlineTypes are the detected types a browser may show in place without
// running anything of the file's; anything else (HTML, SVG, scripts,
// archives) is sent as an opaque download.
var inlineTypes = map[string]bool{"image/png": true, "image/gif": true, "image/jpeg": true, "image/webp": true,
	"application/pdf": true, "text/plain; charset=utf-8": true}

// ReadUpload returns an upload the viewer may see; others get the same
// answer as for a missing file.
func (s *Service) ReadUpload(viewer store.User, path string) (ServedFile, error) {
	u, err := s.accessibleUpload(viewer, path)
	if err != nil {
		return ServedFile{}, err
	}
	return s.servedFile(u, PersonOf(viewer))
}

// accessibleUpload loads an upload the viewer may read; ErrNotFound for
// one that does not exist or they may not see alike.
func (s *Service) accessibleUpload(viewer store.User, path string) (store.Upload, error) {
	var u store.Upload
	err := s.store.View(func(tx *store.Tx) error {
		var err error
		if u, err = tx.Upload(path); err != nil || !UploadAccessible(tx, viewer, u) {
			return store.ErrNotFound
		}
		return nil
	})
	return u, err
}

// servedFile opens an upload's file for person and says how to serve it.
func (s *Service) servedFile(u store.Upload, person int64) (ServedFile, error) {
	file, err := os.Open(filepath.Join(s.cfg.DataDir, uploadDir, u.Stored))
	if err != nil {
		return ServedFile{}, err
	}
	f := ServedFile{File: file, Modified: time.Unix(u.Created, 0), FileName: u.FileName,
		ContentType: "application/octet-stream", Person: person}
	if inlineTypes[u.ContentType] {
		f.ContentType, f.Inline = u.ContentType, true
	}
	return f, nil
}

// Attachment is an upload in GET /attachments, with the messages that
// link it (times in milliseconds, as Zulip before feature level 443).
type Attachment struct {
	ID         int64               `json:"id"`
	Name       string              `json:"name"`
	PathID     string              `json:"path_id"`
	Size       int64               `json:"size"`
	CreateTime int64               `json:"create_time"`
	Messages   []AttachmentMessage `json:"messages"`
}

// AttachmentMessage is a message linking an attachment.
type AttachmentMessage struct {
	ID       int64 `json:"id"`
	DateSent int64 `json:"date_sent"`
}

// Attachments lists the actor's uploads and the space they use.
func (s *Service) Attachments(actor store.User) ([]Attachment, int64, error) {
	out := []Attachment{}
	var used int64
	err := s.store.View(func(tx *store.Tx) error {
		list, err := tx.UserUploads(actor.ID)
		for _, u := range list {
			out = append(out, attachmentOf(tx, u))
			used += u.Size
		}
		return err
	})
	return out, used, internal("attachments", err)
}

// attachmentOf is an upload as GET /attachments shows it.
func attachmentOf(tx *store.Tx, u store.Upload) Attachment {
	a := Attachment{ID: u.ID, Name: u.FileName, PathID: u.Path, Size: u.Size, CreateTime: u.Created * 1000, Messages: []AttachmentMessage{}}
	for _, m := range linkingMessages(tx, u) {
		a.Messages = append(a.Messages, AttachmentMessage{ID: m.ID, DateSent: m.Timestamp * 1000})
	}
	return a
}

// detachedUploads are the editor's uploads an edit from before to after
// stopped linking that no message links any more: reachable only through
// edit history (level 285).
func detachedUploads(tx *store.Tx, editor int64, before, after string) ([]Attachment, error) {
	list, err := tx.UserUploads(editor)
	if err != nil {
		return nil, err
	}
	out := []Attachment{}
	for _, u := range list {
		if strings.Contains(before, u.Path) && !strings.Contains(after, u.Path) && len(linkingMessages(tx, u)) == 0 {
			out = append(out, attachmentOf(tx, u))
		}
	}
	return out, nil
}

// DeleteAttachment removes one of the actor's uploads and its file; links
// to it stop working, as in Zulip.
func (s *Service) DeleteAttachment(actor store.User, id int64) error {
	var gone store.Upload
	err := s.update(func(tx *store.Tx) (func(), error) {
		list, err := tx.UserUploads(actor.ID)
		if err != nil {
			return nil, err
		}
		i := slices.IndexFunc(list, func(u store.Upload) bool { return u.ID == id })
		if i < 0 {
			return nil, BadRequest("Invalid attachment")
		}
		gone = list[i]
		if err := tx.DeleteUpload(gone); err != nil {
			return nil, err
		}
		var used int64
		for _, u := range list {
			used += u.Size
		}
		e := events.Event{"type": "attachment", "op": "remove", "attachment": map[string]int64{"id": id},
			"upload_space_used": used - gone.Size}
		return func() { s.events.Publish(e, []int64{actor.ID}) }, nil
	})
	if err != nil {
		return internal("delete attachment", err)
	}
	os.Remove(filepath.Join(s.cfg.DataDir, uploadDir, gone.Stored))
	return nil
}
