package mattermost

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"lanchat/backend/archive"
)

// maxLine bounds one line of import.jsonl: a post with all its replies is
// one line, and this is what the reader holds in memory at most per line.
const maxLine = 64 << 20

// lines reads import.jsonl line by line, knowing each line's number and
// where it starts, for the second pass to come back to it.
type lines struct {
	name string // the file's name in the archive, for errors
	r    *bufio.Reader
	buf  []byte
	// num, off and size describe the line last read.
	num       int
	off, size int64
}

func newLines(name string, r io.Reader) *lines {
	return &lines{name: name, r: bufio.NewReaderSize(r, 1<<16)}
}

// next reads the next line, without its newline; io.EOF after the last.
func (l *lines) next() ([]byte, error) {
	l.off += l.size
	l.buf = l.buf[:0]
	for {
		chunk, err := l.r.ReadSlice('\n')
		l.buf = append(l.buf, chunk...)
		if len(l.buf) > maxLine {
			return nil, archive.Errorf(l.record(l.num+1), "is longer than %d bytes", maxLine)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		if len(l.buf) == 0 {
			return nil, io.EOF
		}
		l.num++
		l.size = int64(len(l.buf))
		return bytes.TrimRight(l.buf, "\r\n"), nil
	}
}

func (l *lines) record(num int) string { return fmt.Sprintf("%s line %d", l.name, num) }

// decodeLine reads one line's record, refusing what is not one JSON
// object, or more than one.
func decodeLine(b []byte, record string) (line, error) {
	var ln line
	d := json.NewDecoder(bytes.NewReader(b))
	if err := d.Decode(&ln); err != nil {
		var syntax *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.Is(err, io.ErrUnexpectedEOF):
			return ln, archive.Errorf(record, "is cut short (truncated JSON)")
		case errors.As(err, &syntax):
			return ln, archive.Errorf(record, "is not valid JSON: %v (at byte %d)", err, syntax.Offset)
		case errors.As(err, &typ):
			return ln, archive.Errorf(record, "has a %s where %s wants %s", typ.Value, typ.Field, typ.Type)
		}
		return ln, archive.Errorf(record, "is not valid JSON: %v", err)
	}
	if d.More() {
		return ln, archive.Errorf(record, "holds more than one JSON value")
	}
	return ln, nil
}
