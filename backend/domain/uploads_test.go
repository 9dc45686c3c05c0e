package domain

import (
	"bytes"
	"io"
	"runtime"
	"testing"
)

// TestUploadsStreamToDisk: saving an upload copies it to disk through a
// small buffer instead of reading it whole into memory (before, a 20 MB
// file cost 60 MB of allocations; ten parallel 26 MB uploads took the
// server to 1 GB).
func TestUploadsStreamToDisk(t *testing.T) {
	svc, user := devService(t)
	alice := user("alice@example.com")
	const size = 20 << 20
	file := UploadedFile{Name: "big.bin", Size: size, Open: func() (io.ReadCloser, error) {
		return io.NopCloser(io.LimitReader(zeros{}, size)), nil
	}}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	up, err := svc.SaveUpload(alice, []UploadedFile{file})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > size/8 {
		t.Errorf("saving a %d MB upload allocated %d MB", size>>20, allocated>>20)
	}
	f, err := svc.ReadUpload(alice, up.URI[len("/user_uploads/"):])
	if err != nil || len(f.Data) != size || !bytes.Equal(f.Data[:4], []byte{0, 0, 0, 0}) {
		t.Fatalf("read back %d bytes, %v", len(f.Data), err)
	}
}

// zeros reads as an endless run of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
