package domain

import (
	"errors"
	"time"

	"lanchat/backend/archive"
	"lanchat/backend/store"
)

// ImportStatus is how an import goes, for a progress bar and the summary
// at its end: the administrators' settings poll it, the desktop app's
// first launch is sent it.
type ImportStatus struct {
	// State is "none" (no import since the server started), "running",
	// "done" or "failed".
	State            string         `json:"state"`
	Format           string         `json:"format,omitempty"`
	Phase            string         `json:"phase,omitempty"`
	Records          int64          `json:"records"`
	Bytes            int64          `json:"bytes"`
	TotalBytes       int64          `json:"total_bytes"`
	RemainingSeconds int64          `json:"remaining_seconds"`
	Summary          *ImportSummary `json:"summary,omitempty"`
	// Error says why a failed import failed (naming the bad record).
	Error string `json:"error,omitempty"`
}

// ImportSummary is what an import wrote, and what it left out and why.
type ImportSummary struct {
	Users      int               `json:"users"`
	Streams    int               `json:"streams"`
	Messages   int               `json:"messages"`
	Reactions  int               `json:"reactions"`
	Files      int               `json:"files"`
	Emoji      int               `json:"emoji"`
	UserGroups int               `json:"user_groups"`
	Linkifiers int               `json:"linkifiers"`
	Skipped    []archive.Skipped `json:"skipped"`
	// Changed are the records whose values were fixed to follow the
	// API's rules.
	Changed []archive.Changed `json:"changed"`
}

// ImportRunning is the status of a running import at now.
func ImportRunning(format string, p archive.Progress, now time.Time) ImportStatus {
	return ImportStatus{State: "running", Format: format, Phase: p.Phase, Records: p.Records, Bytes: p.Bytes,
		TotalBytes: p.TotalBytes, RemainingSeconds: int64(p.Remaining(now).Round(time.Second) / time.Second)}
}

// ImportDone is the status of a finished import, with its summary.
func ImportDone(format string, s archive.Summary) ImportStatus {
	skipped, changed := s.Skipped, s.Changed
	if skipped == nil {
		skipped = []archive.Skipped{}
	}
	if changed == nil {
		changed = []archive.Changed{}
	}
	return ImportStatus{State: "done", Format: format, Phase: "done", Summary: &ImportSummary{Users: s.Users,
		Streams: s.Streams, Messages: s.Messages, Reactions: s.Reactions, Files: s.Files, Emoji: s.Emoji,
		UserGroups: s.UserGroups, Linkifiers: s.Linkifiers, Skipped: skipped, Changed: changed}}
}

// ImportingOwner is the owner who replaces an organization with an
// imported one, and the access they keep in it: their password and API
// key, and the browser session they started the import from.
type ImportingOwner struct {
	Email    string
	FullName string
	hash     string
	apiKey   string
	// token and session carry the browser's sign-in over ("" from an API
	// client, whose API key carries over instead).
	token   string
	session store.Session
}

// ErrHasMessages refuses an import over an organization that already has
// history: the import replaces the organization whole.
var ErrHasMessages = BadRequest("This organization already has messages: an import can only replace an organization that has none yet.")

// BeginImport checks that actor may replace the organization with an
// import, and returns the access they keep in the imported one. Only an
// owner may, and only while no message was ever kept (a new organization:
// nothing is lost by replacing it). session is the browser's sign-in the
// request came with ("" for none).
func (s *Service) BeginImport(actor store.User, session string) (ImportingOwner, error) {
	if !isOwner(actor) {
		return ImportingOwner{}, ErrNotOwner
	}
	if err := s.ReplaceableByImport(); err != nil {
		return ImportingOwner{}, err
	}
	o := ImportingOwner{Email: actor.Email, FullName: actor.FullName, hash: actor.PasswordHash, apiKey: actor.APIKey}
	err := s.store.View(func(tx *store.Tx) error {
		if session == "" {
			return nil
		}
		sess, err := tx.Session(session)
		switch {
		case errors.Is(err, store.ErrNotFound):
		case err != nil:
			return err
		case sess.UserID == actor.ID:
			o.token, o.session = session, sess
		}
		return nil
	})
	return o, internal("begin import", err)
}

// ReplaceableByImport refuses (ErrHasMessages) an organization that has
// kept a message: checked when an import starts, and again when it is
// swapped in, since people may have talked meanwhile.
func (s *Service) ReplaceableByImport() error {
	return internal("check for messages", s.store.View(func(tx *store.Tx) error {
		if tx.HasMessages() {
			return ErrHasMessages
		}
		return nil
	}))
}

// KeepImportingOwner gives the owner who imported this organization their
// access to it, on the host's authority (it runs on the imported store
// before it is served): the imported person with their email becomes an
// owner with their password and API key, or they join as an owner.
func (s *Service) KeepImportingOwner(o ImportingOwner) error {
	return internal("keep the importing owner", s.store.Update(func(tx *store.Tx) error {
		u, err := tx.UserByEmail(o.Email)
		switch {
		case errors.Is(err, store.ErrNotFound):
			if u, err = s.createUser(tx, NewUser{Email: o.Email, FullName: o.FullName, Role: store.RoleOwner}); err != nil {
				return err
			}
		case err != nil:
			return err
		case u.BotType != 0:
			return BadRequest("The import has a bot with your email %s: the owner who imports must be a person.", o.Email)
		}
		u.Role, u.IsActive, u.PasswordHash, u.APIKey = store.RoleOwner, true, o.hash, o.apiKey
		if err := tx.PutUser(u); err != nil {
			return err
		}
		if o.token == "" {
			return nil
		}
		o.session.UserID = u.ID
		return tx.PutSession(o.token, o.session)
	}))
}

// WatchImport is the status of the last import, status(), for an owner:
// the one who may start one.
func WatchImport(actor store.User, status func() ImportStatus) (ImportStatus, error) {
	if !isOwner(actor) {
		return ImportStatus{}, ErrNotOwner
	}
	return status(), nil
}
