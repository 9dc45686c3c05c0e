//go:build !desktop

package app

// Without the desktop build tag wails.Run opens no window (it returns an
// error and the app does not run), so there is no web view to place, no
// window to bring forward and no dialog to close.

func setProgramName(name string) {}

func presentWindow(startupID string) {}

func cancelDialogs() {}
