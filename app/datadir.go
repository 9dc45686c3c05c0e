package app

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
)

// DefaultDataDir is where the app keeps its data unless told otherwise:
// $LANCHAT_DATA, else the per-user data directory of the XDG spec
// ($XDG_DATA_HOME/lanchat, by default ~/.local/share/lanchat).
func DefaultDataDir(getenv func(string) string) string {
	if d := getenv("LANCHAT_DATA"); d != "" {
		return d
	}
	if d := getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "lanchat")
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	return filepath.Join(home, ".local", "share", "lanchat")
}

// instanceID names a data folder by its absolute path, short enough for a
// bus name and a file name. Symbolic links are resolved in the part of the
// path that exists, so that a folder not made yet (a first launch) has the
// name it will have once made.
func instanceID(dataDir string) string {
	dir, err := filepath.Abs(dataDir)
	if err != nil {
		dir = filepath.Clean(dataDir)
	}
	rest := ""
	for {
		if real, err := filepath.EvalSymlinks(dir); err == nil {
			dir = filepath.Join(real, rest)
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			dir = filepath.Join(dir, rest)
			break
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
	sum := sha256.Sum256([]byte(dir))
	return hex.EncodeToString(sum[:8])
}

// webDataName is the program name the window runs under, which names the
// folders WebKitGTK keeps the window's web data in (local storage with the
// sign-in, cookies, caches): one pair per data folder, so that a window's
// stored sign-in stays with its team when apps on two folders run side by
// side, and never the data folder itself.
func webDataName(dataDir string) string { return "lanchat-window-" + instanceID(dataDir) }

// webDataDirs are the folders WebKitGTK puts the window's web data in, as
// GLib finds them: $XDG_DATA_HOME/name and $XDG_CACHE_HOME/name, by
// default under ~/.local/share and ~/.cache.
func webDataDirs(getenv func(string) string, name string) (data, cache string) {
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	data, cache = getenv("XDG_DATA_HOME"), getenv("XDG_CACHE_HOME")
	if !filepath.IsAbs(data) {
		data = filepath.Join(home, ".local", "share")
	}
	if !filepath.IsAbs(cache) {
		cache = filepath.Join(home, ".cache")
	}
	return filepath.Join(data, name), filepath.Join(cache, name)
}

// oldWebData are the names WebKitGTK wrote into $XDG_DATA_HOME/lanchat,
// the default data folder, while the window's web data had no folders of
// its own. Lanchat itself never uses these names.
var oldWebData = []string{"hsts-storage.sqlite", "localstorage", "storage", "mediakeys", "databases"}

// moveOldWebData moves what WebKit left in the data folder into the
// window's web data folder, which keeps the window's stored sign-in, or
// removes it where that folder has its own already. Left there, it made
// Host from an export find the folder not empty, and backups see it.
func moveOldWebData(dataDir, webDir string) error {
	var errs []error
	for _, name := range oldWebData {
		old := filepath.Join(dataDir, name)
		if _, err := os.Lstat(old); err != nil {
			continue
		}
		var err error
		if _, ownErr := os.Lstat(filepath.Join(webDir, name)); ownErr == nil {
			err = os.RemoveAll(old)
		} else {
			err = os.Rename(old, filepath.Join(webDir, name))
		}
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// hasDisplay tells whether a window can open: GTK needs X11 or Wayland.
func hasDisplay(getenv func(string) string) bool {
	return getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != ""
}
