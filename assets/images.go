// Package assets holds the data Lanchat ships inside its binaries: emoji
// tables and default images.
package assets

import (
	"embed"
	"io/fs"
)

//go:embed images
var images embed.FS

// Images are the default images (organization icon and logo), by file name.
var Images, _ = fs.Sub(images, "images")
