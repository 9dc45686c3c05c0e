package store

// Upload is a file a user uploaded. Path is the public part of its URL;
// Stored is the server-chosen file name under the data directory.
type Upload struct {
	ID          int64  `json:"id"` // from the bucket's sequence (schema 5)
	Path        string `json:"path"`
	Token       string `json:"token"` // the random path segment, a search term of linking messages
	FileName    string `json:"file_name"`
	ContentType string `json:"content_type"`
	Size        int64  `json:"size"`
	OwnerID     int64  `json:"owner_id"`
	Created     int64  `json:"created"`
	Stored      string `json:"stored"`
	// Width and Height are an image's size in pixels, read when it was
	// uploaded; zero for other files and images stored before sizes were
	// read. Upload records are never rewritten, so an older build cannot
	// drop them: no schema step.
	Width  int `json:"width,omitempty"`
	Height int `json:"height,omitempty"`
}

// CreateUpload records a new upload under its path with the next ID.
func (tx *Tx) CreateUpload(u *Upload) error {
	id, err := tx.nextID(bucketUploads)
	if err != nil {
		return err
	}
	u.ID = id
	return tx.put(bucketUploads, []byte(u.Path), u)
}

// DeleteUpload forgets an upload.
func (tx *Tx) DeleteUpload(u Upload) error { return tx.bucket(bucketUploads).Delete([]byte(u.Path)) }

// Upload loads an upload by its path.
func (tx *Tx) Upload(path string) (Upload, error) {
	var u Upload
	err := tx.get(bucketUploads, []byte(path), &u)
	return u, err
}

// UserUploads lists a user's uploads.
func (tx *Tx) UserUploads(userID int64) ([]Upload, error) {
	var out []Upload
	err := each(tx, bucketUploads, func(u Upload) bool {
		if u.OwnerID == userID {
			out = append(out, u)
		}
		return true
	})
	return out, err
}
