package archive

import (
	"fmt"
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
	return &Archive{FS: oneFile{name: filepath.Base(name), path: name}, Size: st.Size()}, nil
}

// oneFile is a file system of one file.
type oneFile struct{ name, path string }

func (o oneFile) Open(name string) (fs.File, error) {
	if name != o.name {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return os.Open(o.path)
}

// ReadDir lists the one file, so readers find it as they would in a folder.
func (o oneFile) ReadDir(name string) ([]fs.DirEntry, error) {
	if name != "." {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	st, err := os.Stat(o.path)
	if err != nil {
		return nil, err
	}
	return []fs.DirEntry{fs.FileInfoToDirEntry(st)}, nil
}
