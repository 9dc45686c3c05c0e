//go:build desktop

package app

/*
#cgo pkg-config: gtk+-3.0
#include <stdlib.h>
#include <gtk/gtk.h>

static void setProgramName(const char *name) { g_set_prgname(name); }
*/
import "C"

import "unsafe"

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
