package archivetest

import (
	"archive/zip"
	"os"
	"path/filepath"
	"testing"
)

// ZipDir packs a folder into a zip in a temporary folder of the test, as
// an exporter would, and returns the zip's path.
func ZipDir(t testing.TB, dir string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), filepath.Base(dir)+".zip")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	if err := zw.AddFS(os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return name
}
