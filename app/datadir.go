package app

import (
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

// hasDisplay tells whether a window can open: GTK needs X11 or Wayland.
func hasDisplay(getenv func(string) string) bool {
	return getenv("DISPLAY") != "" || getenv("WAYLAND_DISPLAY") != ""
}
