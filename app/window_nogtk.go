//go:build !desktop

package app

// setProgramName has no web view to place: without the desktop build tag
// wails.Run opens no window (it returns an error and the app does not run).
func setProgramName(name string) {}
