package teamimport

import (
	"context"
	"time"

	"lanchat/backend/archive"
)

// reportEvery spaces progress reports within a phase.
const reportEvery = 250 * time.Millisecond

// progressSink passes records on to the importer, counting them for
// progress reports and stopping the reader once ctx is done.
type progressSink struct {
	archive.Sink
	ctx    context.Context
	a      *archive.Archive
	report func(archive.Progress)
	p      archive.Progress
	last   time.Time
}

func newProgressSink(ctx context.Context, sink archive.Sink, a *archive.Archive, report func(archive.Progress)) *progressSink {
	return &progressSink{Sink: sink, ctx: ctx, a: a, report: report,
		p: archive.Progress{TotalBytes: a.Size, Started: time.Now()}}
}

// record counts one record of a phase, reporting when the phase changes
// or a while has passed.
func (s *progressSink) record(phase string) error {
	if err := s.ctx.Err(); err != nil {
		return err
	}
	s.p.Records++
	if phase != s.p.Phase || time.Since(s.last) >= reportEvery {
		s.phase(phase)
	}
	return nil
}

// phase reports the start of a phase.
func (s *progressSink) phase(phase string) {
	s.p.Phase = phase
	s.last = time.Now()
	if s.report == nil {
		return
	}
	s.p.Bytes = s.a.BytesRead()
	if phase == "done" {
		// The whole archive is dealt with, though no reader reads every
		// byte of it (a zip's names in its local headers, files the format
		// does not use).
		s.p.Bytes = s.p.TotalBytes
	}
	s.report(s.p)
}

func (s *progressSink) Realm(r archive.Realm) error {
	if err := s.record("realm"); err != nil {
		return err
	}
	return s.Sink.Realm(r)
}

func (s *progressSink) User(u archive.User) error {
	if err := s.record("users"); err != nil {
		return err
	}
	return s.Sink.User(u)
}

func (s *progressSink) Stream(st archive.Stream) error {
	if err := s.record("streams"); err != nil {
		return err
	}
	return s.Sink.Stream(st)
}

func (s *progressSink) UserGroup(g archive.UserGroup) error {
	if err := s.record("user groups"); err != nil {
		return err
	}
	return s.Sink.UserGroup(g)
}

func (s *progressSink) Linkifier(l archive.Linkifier) error {
	if err := s.record("linkifiers"); err != nil {
		return err
	}
	return s.Sink.Linkifier(l)
}

func (s *progressSink) Emoji(e archive.Emoji) error {
	if err := s.record("emoji"); err != nil {
		return err
	}
	return s.Sink.Emoji(e)
}

func (s *progressSink) File(f archive.File) (string, error) {
	if err := s.record("files"); err != nil {
		return "", err
	}
	return s.Sink.File(f)
}

func (s *progressSink) Message(m archive.Message) error {
	if err := s.record("messages"); err != nil {
		return err
	}
	return s.Sink.Message(m)
}
