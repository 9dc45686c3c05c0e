package domain

import (
	"strings"
	"time"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// Presence thresholds, as in Zulip: a report older than OfflineAfter means
// offline; users unseen for two weeks are left out of realm-wide maps.
const (
	OfflineAfter    = 140 * time.Second
	presenceHorizon = 14 * 24 * time.Hour
)

// ClientPresence is one client's entry in a presence object (spec 2.6).
type ClientPresence struct {
	Client    string `json:"client"`
	Status    string `json:"status"`
	Timestamp int64  `json:"timestamp"`
	Pushable  *bool  `json:"pushable,omitempty"`
}

// presenceObject is a user's presence: each client plus "aggregated", the
// most recent report (offline when it is too old).
func presenceObject(reports []store.Presence, now time.Time) map[string]ClientPresence {
	out := map[string]ClientPresence{}
	var newest store.Presence
	pushable := false
	for _, p := range reports {
		out[p.Client] = ClientPresence{Client: p.Client, Status: p.Status, Timestamp: p.Timestamp, Pushable: &pushable}
		if p.Timestamp > newest.Timestamp || (p.Timestamp == newest.Timestamp && p.Status == "active") {
			newest = p
		}
	}
	agg := ClientPresence{Client: newest.Client, Status: newest.Status, Timestamp: newest.Timestamp}
	if now.Sub(time.Unix(newest.Timestamp, 0)) > OfflineAfter {
		agg.Status = "offline"
	}
	out["aggregated"] = agg
	return out
}

// PresenceUpdate is POST /users/me/presence.
type PresenceUpdate struct {
	Status       string
	Client       string
	PingOnly     bool
	SlimPresence bool
	// LastUpdateID, when given, asks only for presence reported after it
	// (level 263), in the slim form.
	LastUpdateID *int64
	// HistoryLimitDays, when given, limits the answer to presence reported
	// in the last so many days (level 288); otherwise two weeks.
	HistoryLimitDays *int64
}

// presenceSince is the horizon of a presence answer: days ago when given,
// else two weeks.
func presenceSince(now time.Time, days *int64) (time.Time, error) {
	if days == nil {
		return now.Add(-presenceHorizon), nil
	}
	if *days < 0 {
		return time.Time{}, InvalidArgument("history_limit_days", "must not be negative")
	}
	return now.Add(-time.Duration(*days) * 24 * time.Hour), nil
}

// UpdatePresence records the actor's client report and, unless ping only,
// returns everyone's presence. Others hear of it when the user's state
// changes or they come back after being offline.
func (s *Service) UpdatePresence(actor store.User, u PresenceUpdate) (map[string]any, error) {
	// Zulip refuses bots before looking at the request.
	if actor.IsBot() {
		return nil, ErrBotRequest
	}
	if u.Status != "active" && u.Status != "idle" {
		return nil, BadRequest("Invalid status: %s", u.Status)
	}
	u.Client = clientName(u.Client)
	now := s.now()
	since, err := presenceSince(now, u.HistoryLimitDays)
	if err != nil {
		return nil, err
	}
	err = s.update(func(tx *store.Tx) (func(), error) {
		before, err := tx.UserPresence(actor.ID)
		if err != nil {
			return nil, err
		}
		prev := presenceObject(before, now)["aggregated"]
		report := store.Presence{UserID: actor.ID, Client: u.Client, Status: u.Status, Timestamp: now.Unix()}
		if err := tx.PutPresence(&report); err != nil {
			return nil, err
		}
		if len(before) > 0 && prev.Status == u.Status {
			return nil, nil // nothing others need to hear
		}
		users, err := activeUserIDs(tx)
		if err != nil {
			return nil, err
		}
		pushable := false
		e := events.Event{"type": "presence", "user_id": actor.ID, "email": actor.Email,
			"server_timestamp": float64(now.UnixMilli()) / 1000,
			"presence":         map[string]ClientPresence{u.Client: {Client: u.Client, Status: u.Status, Timestamp: report.Timestamp, Pushable: &pushable}}}
		return func() { s.events.Publish(e, users) }, nil
	})
	if err != nil {
		return nil, internal("update presence", err)
	}
	res := map[string]any{"server_timestamp": float64(now.UnixMilli()) / 1000}
	if !u.PingOnly {
		var all map[string]any
		err := s.store.View(func(tx *store.Tx) error {
			var err error
			all, err = s.realmPresence(tx, u.SlimPresence || u.LastUpdateID != nil, u.LastUpdateID, since)
			return err
		})
		if err != nil {
			return nil, internal("realm presence", err)
		}
		res["presences"], res["presence_last_update_id"] = all["presences"], all["presence_last_update_id"]
	}
	return res, nil
}

// RealmPresence is everyone's presence: legacy maps keyed by email, or
// with slim presence {user_id: {active_timestamp, idle_timestamp}}. GET
// /realm/presence answers only these two fields (no update ID: Zulip gives
// that to POST /users/me/presence and register).
func (s *Service) RealmPresence(slim bool) (map[string]any, error) {
	var all map[string]any
	err := s.store.View(func(tx *store.Tx) error {
		var err error
		all, err = s.realmPresence(tx, slim, nil, s.now().Add(-presenceHorizon))
		return err
	})
	if err != nil {
		return nil, internal("realm presence", err)
	}
	return map[string]any{"presences": all["presences"], "server_timestamp": all["server_timestamp"]}, nil
}

// realmPresence is the presence of everyone seen since a time, or, after a
// last update ID, of those who reported since; its
// presence_last_update_id is the newest update ID it holds (Zulip's: the
// one given when nothing is newer, -1 when there is nothing at all).
func (s *Service) realmPresence(tx *store.Tx, slim bool, after *int64, since time.Time) (map[string]any, error) {
	now := s.now()
	reports, err := tx.AllPresence()
	if err != nil {
		return nil, err
	}
	byUser := map[int64][]store.Presence{}
	newest := map[int64]int64{}
	for _, p := range reports {
		if time.Unix(p.Timestamp, 0).After(since) {
			byUser[p.UserID] = append(byUser[p.UserID], p)
			newest[p.UserID] = max(newest[p.UserID], p.UpdateID)
		}
	}
	lastUpdateID := int64(-1)
	if after != nil {
		lastUpdateID = *after
	}
	presences := map[string]any{}
	for uid, list := range byUser {
		u, err := tx.User(uid)
		if err != nil || u.IsBot() || !u.IsActive || (after != nil && newest[uid] <= *after) {
			continue
		}
		lastUpdateID = max(lastUpdateID, newest[uid])
		if slim {
			var active, idle int64
			for _, p := range list {
				idle = max(idle, p.Timestamp)
				if p.Status == "active" {
					active = max(active, p.Timestamp)
				}
			}
			presences[itoa(uid)] = map[string]int64{"active_timestamp": active, "idle_timestamp": idle}
		} else {
			presences[u.Email] = presenceObject(list, now)
		}
	}
	return map[string]any{"presences": presences, "server_timestamp": float64(now.UnixMilli()) / 1000,
		"presence_last_update_id": lastUpdateID}, nil
}

// UserPresence is GET /users/{email or id}/presence.
func (s *Service) UserPresence(ref string) (map[string]ClientPresence, error) {
	var out map[string]ClientPresence
	err := s.store.View(func(tx *store.Tx) error {
		u, err := userByRef(tx, strings.TrimSpace(ref))
		if err != nil || !u.IsActive {
			return BadRequest("No such user")
		}
		if u.IsBot() {
			return BadRequest("Presence is not supported for bot users.")
		}
		reports, err := tx.UserPresence(u.ID)
		if err != nil {
			return err
		}
		if len(reports) == 0 {
			return BadRequest("No presence data for %s", u.Email)
		}
		out = presenceObject(reports, s.now())
		return nil
	})
	return out, internal("user presence", err)
}
