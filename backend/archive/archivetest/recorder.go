// Package archivetest records what a reader hands its sink, for the
// readers' tests: every record, in order, with the order and references
// checked as the real importer checks them.
package archivetest

import (
	"fmt"
	"io"

	"lanchat/backend/archive"
)

// Recorder is an archive.Sink that keeps everything it is given. Files'
// content is read, and their URLs are /user_uploads/test/<ref>/<name>.
type Recorder struct {
	RealmRecord archive.Realm
	Users       []archive.User
	Streams     []archive.Stream
	UserGroups  []archive.UserGroup
	Linkifiers  []archive.Linkifier
	Emojis      []archive.Emoji
	Files       []archive.File
	FileContent map[string][]byte // by file Ref
	Messages    []archive.Message
	Skipped     []string // "record: reason"

	phase   int
	users   map[string]bool
	streams map[string]bool
}

// The phases in the order Sink promises.
const (
	phaseRealm = iota
	phaseUsers
	phaseStreams
	phaseGroups
	phaseLinkifiers
	phaseEmoji
	phaseFiles
	phaseMessages
)

func (r *Recorder) enter(phase int, what string) error {
	if phase < r.phase {
		return fmt.Errorf("archivetest: %s after a later kind of record", what)
	}
	r.phase = phase
	return nil
}

func (r *Recorder) user(ref, what string) error {
	if !r.users[ref] {
		return fmt.Errorf("archivetest: %s names user %q, not given before", what, ref)
	}
	return nil
}

func (r *Recorder) Realm(realm archive.Realm) error {
	r.RealmRecord = realm
	return r.enter(phaseRealm, "the realm")
}

func (r *Recorder) User(u archive.User) error {
	if err := r.enter(phaseUsers, "user "+u.Ref); err != nil {
		return err
	}
	if r.users == nil {
		r.users = map[string]bool{}
	}
	if r.users[u.Ref] {
		return fmt.Errorf("archivetest: user %q given twice", u.Ref)
	}
	r.users[u.Ref] = true
	r.Users = append(r.Users, u)
	return nil
}

func (r *Recorder) Stream(s archive.Stream) error {
	if err := r.enter(phaseStreams, "stream "+s.Ref); err != nil {
		return err
	}
	for _, m := range s.MemberRefs {
		if err := r.user(m, "stream "+s.Ref); err != nil {
			return err
		}
	}
	if r.streams == nil {
		r.streams = map[string]bool{}
	}
	r.streams[s.Ref] = true
	r.Streams = append(r.Streams, s)
	return nil
}

func (r *Recorder) UserGroup(g archive.UserGroup) error {
	r.UserGroups = append(r.UserGroups, g)
	return r.enter(phaseGroups, "user group "+g.Name)
}

func (r *Recorder) Linkifier(l archive.Linkifier) error {
	r.Linkifiers = append(r.Linkifiers, l)
	return r.enter(phaseLinkifiers, "linkifier "+l.Pattern)
}

func (r *Recorder) Emoji(e archive.Emoji) error {
	r.Emojis = append(r.Emojis, e)
	return r.enter(phaseEmoji, "emoji "+e.Name)
}

func (r *Recorder) File(f archive.File) (string, error) {
	if err := r.enter(phaseFiles, "file "+f.Ref); err != nil {
		return "", err
	}
	if f.Open != nil {
		rc, err := f.Open()
		if err != nil {
			return "", err
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return "", err
		}
		if r.FileContent == nil {
			r.FileContent = map[string][]byte{}
		}
		r.FileContent[f.Ref] = b
	}
	r.Files = append(r.Files, f)
	return "/user_uploads/test/" + f.Ref + "/" + f.Name, nil
}

func (r *Recorder) Message(m archive.Message) error {
	if err := r.enter(phaseMessages, "message "+m.Ref); err != nil {
		return err
	}
	if err := r.user(m.SenderRef, "message "+m.Ref); err != nil {
		return err
	}
	if m.StreamRef != "" && !r.streams[m.StreamRef] {
		return fmt.Errorf("archivetest: message %s names stream %q, not given before", m.Ref, m.StreamRef)
	}
	for _, p := range m.PrivateRefs {
		if err := r.user(p, "message "+m.Ref); err != nil {
			return err
		}
	}
	for _, re := range m.Reactions {
		if err := r.user(re.UserRef, "a reaction on message "+m.Ref); err != nil {
			return err
		}
	}
	r.Messages = append(r.Messages, m)
	return nil
}

func (r *Recorder) Skip(record, reason string) { r.Skipped = append(r.Skipped, record+": "+reason) }

var _ archive.Sink = (*Recorder)(nil)
