package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"lanchat/backend/isolate"
)

// The window's web data (WebKitGTK's local storage, which holds the
// sign-in, its HSTS list, caches) stays out of the data folder. Launched
// on the default data folder ($XDG_DATA_HOME/lanchat, where WebKit used to
// write too) and signed in, the app's data folder holds only Lanchat's own
// files and is the owner's alone, and WebKit's folders, named after the
// data folder, are private too.
func TestDesktopKeepsWebDataOutOfTheDataFolder(t *testing.T) {
	desktopBinary(t)
	display := startXvfb(t)
	startWindowManager(t, display)
	home := t.TempDir()
	r := launchDesktop(t, display, []string{"HOME=" + home, "LANCHAT_DATA=", "XDG_DATA_HOME=", "XDG_CACHE_HOME="},
		"--addr", "127.0.0.1:0", "--dev", "--advertise=false")
	r.url()
	r.signInWindow("admin@example.com", "lanchat-dev")

	share := filepath.Join(home, ".local", "share")
	data := filepath.Join(share, "lanchat")
	var stored []string
	waitFor(t, "WebKit to store the sign-in", func() bool {
		stored, _ = filepath.Glob(filepath.Join(share, "*", "localstorage", "*.localstorage"))
		return len(stored) > 0
	})
	web, cache := webDataDirs(func(k string) string { return map[string]string{"HOME": home}[k] }, webDataName(data))
	if want := filepath.Join(web, "localstorage"); len(stored) != 1 || filepath.Dir(stored[0]) != want {
		t.Errorf("WebKit stored the sign-in in %v, want %s", stored, want)
	}
	for _, dir := range []string{web, cache} {
		if mode := permissions(dir); mode != "700" {
			t.Errorf("WebKit's folder %s: %s, want mode 700", dir, mode)
		}
	}
	if _, err := os.Stat(filepath.Join(home, ".cache", "lanchat")); err == nil {
		t.Error("WebKit keeps a cache in ~/.cache/lanchat, shared by every data folder")
	}

	own := map[string]bool{"lanchat.db": true, "control.sock": true, "tls": true, "uploads": true, "emoji": true, "avatars": true, MembershipFile: true}
	entries, err := os.ReadDir(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !own[e.Name()] {
			t.Errorf("the data folder holds %s, not Lanchat's", e.Name())
		}
	}
	if mode := permissions(data); mode != "700" {
		t.Errorf("the data folder: %s, want mode 700", mode)
	}
	for _, line := range r.output() {
		if strings.Contains(line, "open to other users") {
			t.Errorf("the host warned: %s", line)
		}
	}
}

// On the first launch the window shows its page before any data folder
// exists; hosting from it then finds the default data folder as Lanchat
// makes it: private, holding nothing of WebKit's (it was made 755 by WebKit
// first, so the host warned, and an import found it not empty). In a
// network namespace, as the page looks for teams.
func TestDesktopHostingFromTheFirstLaunchFindsItsFolderClean(t *testing.T) {
	desktopBinary(t)
	if !isolate.Network(t) {
		return
	}
	display := startXvfb(t)
	startWindowManager(t, display)
	home := t.TempDir()
	r := launchDesktop(t, display, []string{"HOME=" + home, "LANCHAT_DATA=", "XDG_DATA_HOME=", "XDG_CACHE_HOME="},
		"--addr", "127.0.0.1:0", "--advertise=false")
	win := r.window()
	waitFor(t, "the first launch's page", func() bool { return windowTitle(display, win) == "Lanchat: no teams on this network" })
	data := filepath.Join(home, ".local", "share", "lanchat")
	if entries, err := os.ReadDir(data); err == nil {
		t.Errorf("before hosting, the data folder exists, holding %d entries", len(entries))
	}
	// Host a new team: the page's first button.
	if out, err := onDisplay(display, "xdotool", "windowactivate", "--sync", win, "key", "--delay", "100", "Tab", "Return").CombinedOutput(); err != nil {
		t.Fatalf("xdotool: %v %s", err, out)
	}
	r.url()
	entries, err := os.ReadDir(data)
	if err != nil {
		t.Fatal(err)
	}
	own := map[string]bool{"lanchat.db": true, "control.sock": true, "tls": true}
	for _, e := range entries {
		if !own[e.Name()] {
			t.Errorf("the data folder holds %s", e.Name())
		}
	}
	if mode := permissions(data); mode != "700" {
		t.Errorf("the data folder: %s, want mode 700", mode)
	}
	for _, line := range r.output() {
		if strings.Contains(line, "open to other users") {
			t.Errorf("the host warned: %s", line)
		}
	}
}

// permissions are path's permission bits in octal, or why there are none.
func permissions(path string) string {
	info, err := os.Stat(path)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%o", info.Mode().Perm())
}

// A data folder has one name however it is written (relative, with a
// trailing slash, through a symbolic link), and another folder another;
// WebKit's folders follow GLib's XDG rules.
func TestWebDataDirs(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if err := os.Mkdir(data, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(data, filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	id := instanceID(data)
	for _, same := range []string{"data", "data/", "./link", filepath.Join(dir, "link")} {
		if got := instanceID(same); got != id {
			t.Errorf("%s names %s, %s names %s", same, got, data, id)
		}
	}
	// A folder not made yet, under a link, is named as it will be.
	early := instanceID(filepath.Join(dir, "link", "new", "folder"))
	if err := os.MkdirAll(filepath.Join(data, "new", "folder"), 0o700); err != nil {
		t.Fatal(err)
	}
	if made := instanceID(filepath.Join(data, "new", "folder")); early != made {
		t.Errorf("a folder's name changed once it was made: %s, then %s", early, made)
	}
	if instanceID(filepath.Join(dir, "other")) == id {
		t.Error("two data folders have one name")
	}
	name := webDataName(data)
	for _, tc := range []struct {
		env         map[string]string
		data, cache string
	}{
		{map[string]string{"HOME": "/home/a"}, "/home/a/.local/share/" + name, "/home/a/.cache/" + name},
		{map[string]string{"HOME": "/home/a", "XDG_DATA_HOME": "/x/data", "XDG_CACHE_HOME": "/x/cache"}, "/x/data/" + name, "/x/cache/" + name},
	} {
		data, cache := webDataDirs(func(k string) string { return tc.env[k] }, name)
		if data != tc.data || cache != tc.cache {
			t.Errorf("%v: %s %s, want %s %s", tc.env, data, cache, tc.data, tc.cache)
		}
	}
}

// What WebKit left in the data folder before it had folders of its own
// moves to the window's web data folder (with the stored sign-in), or goes
// where that folder has its own; Lanchat's files stay.
func TestOldWebDataLeavesTheDataFolder(t *testing.T) {
	data, web := t.TempDir(), t.TempDir()
	for _, dir := range []string{"localstorage", "mediakeys", "storage", "tls"} {
		if err := os.Mkdir(filepath.Join(data, dir), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for _, file := range []string{"localstorage/wails_wails_0.localstorage", "hsts-storage.sqlite", "lanchat.db", "tls/authority.pem"} {
		if err := os.WriteFile(filepath.Join(data, file), []byte(file), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(web, "storage"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := moveOldWebData(data, web); err != nil {
		t.Fatal(err)
	}
	var left []string
	entries, _ := os.ReadDir(data)
	for _, e := range entries {
		left = append(left, e.Name())
	}
	if strings.Join(left, " ") != "lanchat.db tls" {
		t.Errorf("the data folder holds %v, want lanchat.db and tls", left)
	}
	if got, err := os.ReadFile(filepath.Join(web, "localstorage", "wails_wails_0.localstorage")); err != nil || string(got) != "localstorage/wails_wails_0.localstorage" {
		t.Errorf("the stored sign-in did not move: %q %v", got, err)
	}
	for _, name := range []string{"hsts-storage.sqlite", "mediakeys", "storage"} {
		if _, err := os.Stat(filepath.Join(web, name)); err != nil {
			t.Error(err)
		}
	}
}
