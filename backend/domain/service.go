// Package domain holds Lanchat's actions: each validates its input, checks the
// actor's permission, writes one store transaction and reports what changed.
// HTTP handlers stay thin by calling exactly one action each.
package domain

import (
	"errors"
	"fmt"
	"time"

	"lanchat/backend/store"
)

// Version is Lanchat's own release, reported as chat_version.
const Version = "0.1.0"

// The Zulip release and API feature level we answer like. Clients gate
// behaviour on the level, so we claim only one whose fields we emit.
const (
	ZulipVersion      = "7.0"
	ZulipFeatureLevel = 185
)

// Config is what the host decides about the organization.
type Config struct {
	// Dev enables the development-only login endpoint.
	Dev bool
	// DataDir holds the database and the files users upload.
	DataDir string
}

// Service runs actions against one store.
type Service struct {
	store *store.Store
	cfg   Config
	now   func() time.Time
}

// New returns a Service over an open store.
func New(st *store.Store, cfg Config) *Service {
	return &Service{store: st, cfg: cfg, now: time.Now}
}

// internal wraps an unexpected store failure with the action's name so logs
// say where it happened; clients see only a generic 500.
func internal(action string, err error) error {
	if err == nil {
		return nil
	}
	var de *Error
	if errors.As(err, &de) {
		return err
	}
	return fmt.Errorf("%s: %w", action, err)
}
