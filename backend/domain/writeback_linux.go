package domain

import (
	"os"
	"syscall"
)

// startWriteback asks the kernel to start writing n bytes of f from off to
// disk, without waiting for them.
func startWriteback(f *os.File, off, n int64) {
	const syncFileRangeWrite = 2 // SYNC_FILE_RANGE_WRITE
	syscall.SyncFileRange(int(f.Fd()), off, n, syncFileRangeWrite)
}
