package archive

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// OpenFile opens an export that is one bare file (a Mattermost
// import.jsonl written without its zip): an archive holding that file
// alone, under its own name.
func OpenFile(name string) (*Archive, error) {
	st, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", name)
	}
	return &Archive{FS: oneFile{name: filepath.Base(name), path: name}, Name: filepath.Base(name), Size: st.Size(), Claimed: st.Size()}, nil
}

// oneFile is a file system of one file.
type oneFile struct{ name, path string }

func (o oneFile) Open(name string) (fs.File, error) {
	switch name {
	case o.name:
		return os.Open(o.path)
	case ".":
		st, err := os.Stat(o.path)
		if err != nil {
			return nil, err
		}
		dir, err := os.Stat(filepath.Dir(o.path))
		if err != nil {
			return nil, err
		}
		return &oneDir{info: dir, entry: fs.FileInfoToDirEntry(st)}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

// oneDir is the root folder of a oneFile, listing the one file.
type oneDir struct {
	info  fs.FileInfo
	entry fs.DirEntry
	read  bool
}

func (d *oneDir) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *oneDir) Close() error               { return nil }

func (d *oneDir) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: ".", Err: errors.New("is a directory")}
}

func (d *oneDir) ReadDir(n int) ([]fs.DirEntry, error) {
	if d.read {
		if n > 0 {
			return nil, io.EOF
		}
		return nil, nil
	}
	d.read = true
	return []fs.DirEntry{d.entry}, nil
}
