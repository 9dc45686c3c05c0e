//go:build desktop

package app

/*
#cgo pkg-config: gtk+-3.0
#include <stdlib.h>
#include <string.h>
#include <gtk/gtk.h>

// presentWindows runs on GTK's main loop: it brings the app's visible
// windows forward and gives them the focus. A launcher's startup ID
// carries the time of the person's click, which focus-stealing prevention
// asks for; without one GTK uses the last time the person used the app.
static gboolean presentWindows(gpointer data) {
	char *startupID = data;
	GList *windows = gtk_window_list_toplevels();
	for (GList *w = windows; w != NULL; w = w->next) {
		GtkWindow *window = GTK_WINDOW(w->data);
		if (gtk_window_get_window_type(window) != GTK_WINDOW_TOPLEVEL || !gtk_widget_get_visible(GTK_WIDGET(window))) {
			continue;
		}
		if (startupID != NULL) {
			gtk_window_set_startup_id(window, startupID);
		}
		gtk_window_present(window);
	}
	g_list_free(windows);
	free(startupID);
	return G_SOURCE_REMOVE;
}

static void presentWindowsLater(const char *startupID) {
	g_idle_add(presentWindows, startupID != NULL ? strdup(startupID) : NULL);
}

static void setProgramName(const char *name) { g_set_prgname(name); }

// cancelDialogs runs on GTK's main loop, or a dialog's loop inside it: it
// answers every open dialog as if its window were closed.
static gboolean cancelDialogs(gpointer data) {
	GList *windows = gtk_window_list_toplevels();
	for (GList *w = windows; w != NULL; w = w->next) {
		if (GTK_IS_DIALOG(w->data)) {
			gtk_dialog_response(GTK_DIALOG(w->data), GTK_RESPONSE_DELETE_EVENT);
		}
	}
	g_list_free(windows);
	return G_SOURCE_REMOVE;
}

static void cancelDialogsLater(void) { g_idle_add(cancelDialogs, NULL); }
*/
import "C"

import "unsafe"

// presentWindow brings the window forward and focuses it, from any
// goroutine. Wails' WindowShow only maps a hidden window and its
// WindowUnminimise only deiconifies: neither raises a window that is
// already open behind others, which gtk_window_present does.
func presentWindow(startupID string) {
	var id *C.char
	if startupID != "" {
		id = C.CString(startupID)
		defer C.free(unsafe.Pointer(id))
	}
	C.presentWindowsLater(id)
}

// setProgramName names the program before GTK starts. WebKitGTK keeps the
// window's web data in $XDG_DATA_HOME/NAME and $XDG_CACHE_HOME/NAME, the
// program name read when Wails creates the web view: Wails' own
// ProgramName option, set after that, comes too late. The window's
// WM_CLASS follows the name.
func setProgramName(name string) {
	cname := C.CString(name)
	defer C.free(unsafe.Pointer(cname))
	C.setProgramName(cname)
}

// cancelDialogs closes the open dialogs (a file chooser, a message), from
// any goroutine, as if a person had closed them. Wails runs each with
// gtk_dialog_run, a main loop of its own: while one is open, GTK's main
// loop cannot end, so the app could not quit.
func cancelDialogs() { C.cancelDialogsLater() }
