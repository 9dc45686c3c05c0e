package store

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Messages are the one record read by the thousand per request, so they
// are stored in a compact binary form instead of JSON: history decodes
// several times faster. The form is a version byte, then every field in
// declaration order: integers as varints, strings and lists prefixed by
// their length. A new field means a new version byte and a migration.
const messageFormatV1 = 0x01

// Flag bits of a message's boolean fields.
const (
	messageIsMe byte = 1 << iota
	messageHasLink
	messageHasImage
	messageHasAttachment
)

func encodeMessage(m Message) []byte {
	b := make([]byte, 0, 64+len(m.Topic)+len(m.Content)+len(m.Rendered)+len(m.Client))
	b = append(b, messageFormatV1)
	b = binary.AppendVarint(b, m.ID)
	b = binary.AppendVarint(b, m.SenderID)
	b = binary.AppendVarint(b, m.RecipientID)
	b = binary.AppendVarint(b, m.StreamID)
	b = appendString(b, m.Topic)
	b = binary.AppendUvarint(b, uint64(len(m.PrivateUserIDs)))
	for _, id := range m.PrivateUserIDs {
		b = binary.AppendVarint(b, id)
	}
	b = appendString(b, m.Content)
	b = appendString(b, m.Rendered)
	b = binary.AppendVarint(b, m.Timestamp)
	b = appendString(b, m.Client)
	var bits byte
	for _, f := range []struct {
		set bool
		bit byte
	}{{m.IsMe, messageIsMe}, {m.HasLink, messageHasLink}, {m.HasImage, messageHasImage}, {m.HasAttachment, messageHasAttachment}} {
		if f.set {
			bits |= f.bit
		}
	}
	b = append(b, bits)
	b = binary.AppendVarint(b, m.LastEditTimestamp)
	b = binary.AppendUvarint(b, uint64(len(m.Edits)))
	for _, e := range m.Edits {
		b = binary.AppendVarint(b, e.Timestamp)
		b = binary.AppendVarint(b, e.UserID)
		b = appendString(b, e.PrevContent)
		b = appendString(b, e.PrevRendered)
		b = appendString(b, e.PrevTopic)
		b = binary.AppendVarint(b, e.PrevStreamID)
	}
	b = binary.AppendUvarint(b, uint64(len(m.Reactions)))
	for _, r := range m.Reactions {
		b = appendString(b, r.EmojiName)
		b = appendString(b, r.EmojiCode)
		b = appendString(b, r.ReactionType)
		b = binary.AppendVarint(b, r.UserID)
	}
	b = binary.AppendUvarint(b, uint64(len(m.Submessages)))
	for _, s := range m.Submessages {
		b = binary.AppendVarint(b, s.ID)
		b = binary.AppendVarint(b, s.SenderID)
		b = appendString(b, s.MsgType)
		b = appendString(b, s.Content)
	}
	return b
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

var errCorruptMessage = errors.New("corrupt message record")

// messageReader decodes fields in order; the first malformed one sets err
// and every later read returns zero values.
type messageReader struct {
	b   []byte
	err error
}

func (r *messageReader) fail() {
	if r.err == nil {
		r.err = errCorruptMessage
	}
	r.b = nil
}

func (r *messageReader) varint() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return v
}

// count reads a list length, bounded by the bytes left (every element
// takes at least one), so a corrupt length cannot allocate wildly.
func (r *messageReader) count() int {
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > uint64(len(r.b)-n) {
		r.fail()
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *messageReader) str() string {
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > uint64(len(r.b)-n) {
		r.fail()
		return ""
	}
	s := string(r.b[n : n+int(v)])
	r.b = r.b[n+int(v):]
	return s
}

func (r *messageReader) bits() byte {
	if len(r.b) == 0 {
		r.fail()
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

// list reads a counted list, nil when empty (as JSON's omitempty left it).
func list[T any](r *messageReader, read func() T) []T {
	n := r.count()
	if n == 0 {
		return nil
	}
	out := make([]T, n)
	for i := range out {
		out[i] = read()
	}
	return out
}

func decodeMessage(data []byte) (Message, error) {
	if len(data) == 0 || data[0] != messageFormatV1 {
		return Message{}, fmt.Errorf("decode message: %w (unknown format)", errCorruptMessage)
	}
	r := &messageReader{b: data[1:]}
	m := Message{ID: r.varint(), SenderID: r.varint(), RecipientID: r.varint(), StreamID: r.varint(), Topic: r.str()}
	m.PrivateUserIDs = list(r, r.varint)
	m.Content, m.Rendered, m.Timestamp, m.Client = r.str(), r.str(), r.varint(), r.str()
	bits := r.bits()
	if bits&^(messageIsMe|messageHasLink|messageHasImage|messageHasAttachment) != 0 {
		r.fail() // a bit this build never sets
	}
	m.IsMe, m.HasLink = bits&messageIsMe != 0, bits&messageHasLink != 0
	m.HasImage, m.HasAttachment = bits&messageHasImage != 0, bits&messageHasAttachment != 0
	m.LastEditTimestamp = r.varint()
	m.Edits = list(r, func() Edit {
		return Edit{Timestamp: r.varint(), UserID: r.varint(), PrevContent: r.str(), PrevRendered: r.str(), PrevTopic: r.str(), PrevStreamID: r.varint()}
	})
	m.Reactions = list(r, func() Reaction {
		return Reaction{EmojiName: r.str(), EmojiCode: r.str(), ReactionType: r.str(), UserID: r.varint()}
	})
	m.Submessages = list(r, func() Submessage {
		return Submessage{ID: r.varint(), SenderID: r.varint(), MsgType: r.str(), Content: r.str()}
	})
	if r.err == nil && len(r.b) != 0 {
		r.err = errCorruptMessage // trailing bytes: not a record this build wrote
	}
	if r.err != nil {
		return Message{}, fmt.Errorf("decode message: %w", r.err)
	}
	return m, nil
}

// messageHead is what per-user state needs of a message: where it went.
type messageHead struct {
	ID, SenderID, RecipientID int64
}

// decodeMessageHead reads only the leading fields of a record, so flag
// lookups by ID need not decode content.
func decodeMessageHead(data []byte) (messageHead, error) {
	if len(data) == 0 || data[0] != messageFormatV1 {
		return messageHead{}, fmt.Errorf("decode message: %w (unknown format)", errCorruptMessage)
	}
	r := &messageReader{b: data[1:]}
	h := messageHead{ID: r.varint(), SenderID: r.varint(), RecipientID: r.varint()}
	if r.err != nil {
		return messageHead{}, fmt.Errorf("decode message: %w", r.err)
	}
	return h, nil
}

func headOf(m Message) messageHead { return messageHead{m.ID, m.SenderID, m.RecipientID} }
