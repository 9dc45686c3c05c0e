package domain

import (
	"image"
	_ "image/gif" // the formats whose size previews carry (level 276)
	_ "image/jpeg"
	_ "image/png"
	"os"
	"strings"
)

// imageSize reads an uploaded image's size in pixels from its header; zero
// for what is not a PNG, JPEG or GIF. WebP is not read: the standard
// library has no decoder for it and golang.org/x/image is no dependency.
func imageSize(file, contentType string) (width, height int) {
	if !strings.HasPrefix(contentType, "image/") {
		return 0, 0
	}
	f, err := os.Open(file)
	if err != nil {
		return 0, 0
	}
	defer f.Close()
	cfg, _, err := image.DecodeConfig(f)
	if err != nil {
		return 0, 0
	}
	return cfg.Width, cfg.Height
}
