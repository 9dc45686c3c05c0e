package assets

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"sync"
)

// ZulipEmojiPNG is the image of Zulip's one extra emoji, :zulip: (reaction
// type zulip_extra_emoji), which clients load from Zulip's static emoji
// path. Lanchat draws its own, a white Z on a green disc, 64 px square.
var ZulipEmojiPNG = sync.OnceValue(func() []byte {
	const size = 64
	disc := color.RGBA{0x2e, 0x9e, 0x6b, 0xff}
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	for y := range size {
		for x := range size {
			px, py := float64(x)+0.5, float64(y)+0.5
			switch {
			case math.Hypot(px-size/2, py-size/2) > size/2-1:
				// outside the disc: transparent
			case inZ(px, py):
				img.Set(x, y, color.White)
			default:
				img.Set(x, y, disc)
			}
		}
	}
	var buf bytes.Buffer
	png.Encode(&buf, img) // writing to memory cannot fail
	return buf.Bytes()
})

// inZ tells whether a point of the 64 px square lies on the Z: two bars
// joined by a diagonal from the top bar's right end to the bottom bar's
// left end.
func inZ(x, y float64) bool {
	const left, right, top, bottom, stroke = 19, 45, 17, 47, 7
	if x < left || x > right || y < top || y > bottom {
		return false
	}
	if y < top+stroke || y > bottom-stroke {
		return true
	}
	// The diagonal's centre line at this height, and the stroke across it.
	t := (y - (top + stroke)) / ((bottom - stroke) - (top + stroke))
	centre := right - stroke/2 - t*((right-stroke/2)-(left+stroke/2))
	return math.Abs(x-centre) < stroke/2+1
}
