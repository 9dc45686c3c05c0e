package app

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/runtime"
)

// showWindow is the one place Lanchat touches Wails. The window's page is
// served in-process by the same handler as the LAN (origin wails://wails),
// and App's exported methods are bound for the host panel. It returns when
// the window is closed or ctx ends (SIGINT, SIGTERM).
func showWindow(ctx context.Context, a *App, handler http.Handler) error {
	if ctx.Err() != nil {
		return nil // asked to quit before the window opened
	}
	// The program name is where WebKitGTK keeps the window's web data.
	// Left as "lanchat" it was $XDG_DATA_HOME/lanchat: the default data
	// folder, which then held WebKit's files beside the organization's.
	// Made first and private: the local storage holds the API key.
	name := webDataName(a.dataDir)
	data, cache := webDataDirs(os.Getenv, name)
	for _, dir := range []string{data, cache} {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return err
		}
		os.Chmod(dir, 0o700)
	}
	if err := moveOldWebData(a.dataDir, data); err != nil {
		fmt.Fprintln(a.stderr, "WebKit's files from an earlier version stay in the data folder:", err)
	}
	setProgramName(name)
	ended := make(chan struct{})
	defer close(ended)
	return wails.Run(&options.App{
		Title:       "Lanchat",
		Width:       1280,
		Height:      800,
		MinWidth:    760,
		MinHeight:   480,
		AssetServer: &assetserver.Options{Handler: handler},
		OnStartup: func(wctx context.Context) {
			a.ctx = wctx
			a.saveDialog = func(name string) (string, error) {
				return runtime.SaveFileDialog(wctx, runtime.SaveDialogOptions{Title: "Back up Lanchat", DefaultFilename: name,
					Filters: []runtime.FileFilter{{DisplayName: "Lanchat backup (*.tar.gz)", Pattern: "*.tar.gz"}}})
			}
			a.openDialog = func(title string) (string, error) {
				return runtime.OpenFileDialog(wctx, runtime.OpenDialogOptions{Title: title,
					Filters: []runtime.FileFilter{{DisplayName: "Export archive (*.zip, *.tar.gz)", Pattern: "*.zip;*.tar.gz;*.tgz"}}})
			}
			a.emit = func(name string, data any) { runtime.EventsEmit(wctx, name, data) }
			a.focus = func() { presentWindow("") }
			a.setTitle = func(title string) { runtime.WindowSetTitle(wctx, title) }
			go func() {
				select {
				case <-ctx.Done(): // SIGINT or SIGTERM closes the window
				case <-ended:
					return
				}
				// Wails starts OnStartup before GTK's main loop, and
				// runtime.Quit (gtk_main_quit) does nothing while no loop
				// runs: a signal during start-up was lost. Ask until the
				// loop has ended, closing any dialog, whose own loop would
				// hold it until answered.
				for {
					cancelDialogs()
					runtime.Quit(wctx)
					select {
					case <-ended:
						return
					case <-time.After(100 * time.Millisecond):
					}
				}
			}()
		},
		Bind: []any{a},
	})
}
