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
	file := UploadedFile{Name: "big.bin", Reader: io.LimitReader(zeros{}, size)}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	up, err := svc.SaveUpload(alice, &filesOf{file})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if allocated := after.TotalAlloc - before.TotalAlloc; allocated > size/8 {
		t.Errorf("saving a %d MB upload allocated %d MB", size>>20, allocated>>20)
	}
	f, err := svc.ReadUpload(alice, up.URI[len("/user_uploads/"):])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, err := io.ReadAll(f)
	if err != nil || len(data) != size || !bytes.Equal(data[:4], []byte{0, 0, 0, 0}) {
		t.Fatalf("read back %d bytes, %v", len(data), err)
	}
}

// filesOf are a request's files, given.
type filesOf []UploadedFile

func (l *filesOf) Next() (UploadedFile, bool, error) {
	if len(*l) == 0 {
		return UploadedFile{}, false, nil
	}
	f := (*l)[0]
	*l = (*l)[1:]
	return f, true, nil
}

// zeros reads as an endless run of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
