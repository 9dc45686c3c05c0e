// Package domain holds Lanchat's actions: each validates its input, checks the
// actor's permission, writes one store transaction and reports what changed.
// HTTP handlers stay thin by calling exactly one action each.
package domain

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"lanchat/backend/events"
	"lanchat/backend/store"
	"lanchat/markdown"
)

// Version is Lanchat's own release, reported as chat_version.
const Version = "0.1.0"

// The Zulip release and API feature level we answer like. Clients gate
// behaviour on the level, so we claim only one whose fields we emit.
const (
	ZulipVersion      = "10.0"
	ZulipFeatureLevel = 371
)

// Config is what the host decides about the organization.
type Config struct {
	// Dev enables the development-only login endpoint.
	Dev bool
	// DataDir holds the database and the files users upload.
	DataDir string
	// Events bounds the live event queues; zero means events.DefaultSettings.
	Events events.Settings
	// MaxEmojiFileSize bounds custom emoji images (MAX_EMOJI_FILE_SIZE);
	// zero means DefaultMaxEmojiFileSize.
	MaxEmojiFileSize int64
	// MaxUploadSize bounds uploaded files; zero means DefaultMaxUploadSize.
	MaxUploadSize int64
	// UploadQuota bounds each user's uploads together; zero means
	// DefaultUploadQuota, negative no limit.
	UploadQuota int64
}

// Service runs actions against one store.
type Service struct {
	store  *store.Store
	cfg    Config
	now    func() time.Time
	events *events.Registry
	// published orders writes against registrations: an action holds it
	// shared from commit to publish, a registration exclusively while it
	// creates its queue and reads the initial state, so no event falls
	// between the two or lands in both.
	published sync.RWMutex
	// order has message events published in message ID order.
	order messageOrder
	// md renders messages; linkifiers is its compiled set, swapped whole
	// when an administrator changes one.
	md         *markdown.Renderer
	linkifiers atomic.Pointer[markdown.Linkifiers]
	alertWords alertWordCache
	accounts   accountCache
	// setupToken guards first-run setup; made once, on first need.
	setupOnce  sync.Once
	setupToken string
	// uploadKey signs temporary upload URLs; made at start.
	uploadKey []byte
	// tusLock serializes the steps of resumable uploads.
	tusLock sync.Mutex
	// phones notifies people's phones (nil: none); phoneTopics names
	// whose phone listens where.
	phones      PhoneNotifier
	phoneTopics phoneTopics
	// scheduledWake has RunScheduledMessages look again at once.
	scheduledWake chan struct{}
}

// New returns a Service over an open store.
func New(st *store.Store, cfg Config) *Service {
	if cfg.Events == (events.Settings{}) {
		cfg.Events = events.DefaultSettings
	}
	s := &Service{store: st, cfg: cfg, now: time.Now, events: events.NewRegistry(cfg.Events), md: markdown.New(),
		uploadKey: []byte(randomHex(32)), scheduledWake: make(chan struct{}, 1)}
	if err := st.View(s.reloadLinkifiers); err != nil {
		slog.Error("load linkifiers", "err", err)
	}
	if err := st.View(s.alertWords.load); err != nil {
		slog.Error("load alert words", "err", err)
	}
	return s
}

// RunEventQueues collects idle event queues, sends waiting readers their
// heartbeats and forgets the records of ended queues until ctx ends.
func (s *Service) RunEventQueues(ctx context.Context) {
	go s.forgetEndedQueuesEvery(ctx, max(s.cfg.Events.IdleTimeout/10, 10*time.Millisecond))
	s.events.Run(ctx)
}

// CloseEventQueues removes every event queue, ending the long-polls and
// WebSockets that wait on them: the service is being replaced by an
// import's.
func (s *Service) CloseEventQueues() { s.events.Close() }

// StopEventQueues answers every long-poll waiting on a queue and lets none
// wait again: the server is stopping. The queues' records stay, for the
// next start to restore them; those of queues that ended go now.
func (s *Service) StopEventQueues() {
	s.events.Stop()
	s.forgetEndedQueues()
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

// SetClock replaces the Service's clock, for tests of time rules (presence
// going offline, session expiry).
func (s *Service) SetClock(now func() time.Time) { s.now = now }
