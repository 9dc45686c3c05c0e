package domain

import (
	"io"
	"strings"
	"testing"

	"lanchat/backend/archive"
	"lanchat/backend/store"
)

// newImporter is an importer into a new store, closed when the test ends.
func newImporter(t *testing.T) (*store.Store, *Importer) {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, New(st, Config{DataDir: t.TempDir()}).NewImporter()
}

// A file is refused by the size it claims, before a byte of it is read:
// past the import's limit, or past the room left on the data folder's disk.
func TestImporterRefusesFilesByTheirClaimedSize(t *testing.T) {
	_, im := newImporter(t)
	im.MaxFileSize = 1000
	im.FreeSpace = func() (int64, error) { return 500, nil }
	if err := im.User(archive.User{Ref: "U1", Email: "a@x.test", FullName: "A", Active: true}); err != nil {
		t.Fatal(err)
	}
	opened := false
	open := func() (io.ReadCloser, error) { opened = true; return io.NopCloser(strings.NewReader("x")), nil }
	for _, c := range []struct {
		size int64
		want string
	}{
		{2000, "file F1 (big.bin): claims 2000 bytes, more than the 1000 bytes an imported file may have"},
		{800, "file F1 (big.bin): claims 800 bytes, more than the 500 left on the data folder's disk"},
		{-1, "file F1 (big.bin): claims a negative size"},
	} {
		_, err := im.File(archive.File{Ref: "F1", OwnerRef: "U1", Name: "big.bin", Size: c.size, Open: open})
		if err == nil || err.Error() != c.want {
			t.Errorf("size %d: %v, want %q", c.size, err, c.want)
		}
	}
	if opened {
		t.Error("a refused file was opened")
	}
}

// An imported stream keeps the creator its archive names, as the person's
// new ID; a stream without one has none.
func TestImporterKeepsStreamCreators(t *testing.T) {
	st, im := newImporter(t)
	if err := im.User(archive.User{Ref: "U1", Email: "a@x.test", FullName: "A", Active: true}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []archive.Stream{{Ref: "S1", Name: "made", CreatorRef: "U1"}, {Ref: "S2", Name: "found"}} {
		if err := im.Stream(s); err != nil {
			t.Fatal(err)
		}
	}
	if err := im.Stream(archive.Stream{Ref: "S3", Name: "orphan", CreatorRef: "U9"}); err == nil {
		t.Error("a stream naming an unknown creator was imported")
	}
	st.View(func(tx *store.Tx) error {
		a, _ := tx.StreamByName("made")
		b, _ := tx.StreamByName("found")
		u, _ := tx.UserByEmail("a@x.test")
		if a.CreatorID != u.ID || u.ID == 0 || b.CreatorID != 0 {
			t.Errorf("creators %d and %d, the importer's user is %d", a.CreatorID, b.CreatorID, u.ID)
		}
		return nil
	})
}
