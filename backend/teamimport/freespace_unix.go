//go:build linux || darwin || freebsd

package teamimport

import "syscall"

// freeSpace reports the bytes an unprivileged writer has left on dir's
// file system.
func freeSpace(dir string) func() (int64, error) {
	return func() (int64, error) {
		var st syscall.Statfs_t
		if err := syscall.Statfs(dir, &st); err != nil {
			return 0, err
		}
		return int64(st.Bavail) * int64(st.Bsize), nil
	}
}
