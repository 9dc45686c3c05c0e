package assets

import (
	"bytes"
	"image/color"
	"image/png"
	"testing"
)

// The :zulip: image is a 64 px PNG: a white Z on a green disc, transparent
// in the corners.
func TestZulipEmojiPNG(t *testing.T) {
	img, err := png.Decode(bytes.NewReader(ZulipEmojiPNG()))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 64 || b.Dy() != 64 {
		t.Fatalf("size %v", b)
	}
	white := color.RGBAModel.Convert(color.White)
	for _, p := range []struct {
		name string
		x, y int
		want func(color.RGBA) bool
	}{
		{"a corner", 1, 1, func(c color.RGBA) bool { return c.A == 0 }},
		{"the top bar", 32, 20, func(c color.RGBA) bool { return c == white }},
		{"the centre, on the diagonal", 32, 32, func(c color.RGBA) bool { return c == white }},
		{"the bottom bar", 32, 44, func(c color.RGBA) bool { return c == white }},
		{"beside the diagonal", 22, 28, func(c color.RGBA) bool { return c.G > c.R && c.A == 0xff }},
	} {
		if c := color.RGBAModel.Convert(img.At(p.x, p.y)).(color.RGBA); !p.want(c) {
			t.Errorf("%s (%d, %d): %v", p.name, p.x, p.y, c)
		}
	}
}
