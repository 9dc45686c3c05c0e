package archive

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// MaxRecord bounds one JSON record a reader decodes from an export (a
// person, a channel, a message): far above any real one (Slack's messages
// stop at 40,000 characters), and what decoding one holds in memory at
// most, a few times over. Without it a 3 MB zip whose users.json held a
// 400 MB name took 3 GB to import.
const MaxRecord = 8 << 20

// errTooLarge is what a value's reader answers past its limit.
var errTooLarge = errors.New("value too large")

// Decoder reads an archive file's JSON one value at a time, reading at
// most limit bytes of the file for each: a value that needs more is
// refused, naming the file's record and the limit, before more of it is
// held. json.Decoder alone reads a value whole, however large.
type Decoder struct {
	dec   *json.Decoder
	in    *valueReader
	limit int64
}

// NewDecoder decodes r's values, each at most limit bytes.
func NewDecoder(r io.Reader, limit int64) *Decoder {
	in := &valueReader{r: r}
	return &Decoder{dec: json.NewDecoder(in), in: in, limit: limit}
}

// valueReader gives a decoder at most left bytes more.
type valueReader struct {
	r    io.Reader
	left int64
}

func (v *valueReader) Read(p []byte) (int, error) {
	if v.left <= 0 {
		return 0, errTooLarge
	}
	if int64(len(p)) > v.left {
		p = p[:v.left]
	}
	n, err := v.r.Read(p)
	v.left -= int64(n)
	return n, err
}

// Decode reads the next value into v; record names it in errors. Other
// errors are json.Decoder's, for the caller to word.
func (d *Decoder) Decode(v any, record string) error {
	d.in.left = d.limit
	return d.tooLarge(d.dec.Decode(v), record)
}

// Token reads the next token (an array's brackets around the records).
func (d *Decoder) Token(record string) (json.Token, error) {
	d.in.left = d.limit
	t, err := d.dec.Token()
	return t, d.tooLarge(err, record)
}

// More tells whether the current array has another element.
func (d *Decoder) More() bool {
	d.in.left = d.limit
	return d.dec.More()
}

func (d *Decoder) tooLarge(err error, record string) error {
	if errors.Is(err, errTooLarge) {
		return Errorf(record, "is larger than the %s a record of an export may have: refused", sizeText(d.limit))
	}
	return err
}

// sizeText is a limit in MiB, as people read it.
func sizeText(n int64) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
