package domain

import (
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"

	"lanchat/backend/store"
)

// The realm settings naming the streams automated messages go to (levels
// 241, 242), with Zulip's names. Lanchat posts new stream and signup
// announcements; it has no Zulip feature updates to announce, so the third
// is kept for clients and nothing is sent there.
const (
	newStreamAnnouncements   = "new_stream_announcements_stream_id"
	signupAnnouncements      = "signup_announcements_stream_id"
	zulipUpdateAnnouncements = "zulip_update_announcements_stream_id"
)

// AnnouncementSettings are the announcement streams' settings, in the
// order PATCH /realm reads them.
var AnnouncementSettings = []string{newStreamAnnouncements, signupAnnouncements, zulipUpdateAnnouncements}

// announcementStreamID is a setting's value as clients see it: the stream,
// or -1 for none (also once the stream named is deleted).
func announcementStreamID(tx *store.Tx, r store.Realm, setting string) int64 {
	id, set := r.AnnouncementStreams[setting]
	if !set {
		return -1
	}
	if _, err := tx.Stream(id); err != nil {
		return -1
	}
	return id
}

// changeAnnouncementStreams applies PATCH /realm's announcement streams
// (-1 for none; otherwise a stream the actor can see, as Zulip's
// access_stream_by_id), noting each change in changed.
func changeAnnouncementStreams(tx *store.Tx, actor store.User, r *store.Realm, ch map[string]int64, changed map[string]any) error {
	for _, setting := range AnnouncementSettings {
		id, asked := ch[setting]
		if !asked {
			continue
		}
		if id != -1 {
			if _, err := visibleStreamByID(tx, actor, id); err != nil {
				return err
			}
		}
		if announcementStreamID(tx, *r, setting) == id {
			continue
		}
		if r.AnnouncementStreams == nil {
			r.AnnouncementStreams = map[string]int64{}
		}
		if id == -1 {
			delete(r.AnnouncementStreams, setting)
		} else {
			r.AnnouncementStreams[setting] = id
		}
		changed[setting] = id
	}
	return nil
}

// announce posts content to the stream an announcement setting names, if
// any, in topic. Zulip's Notification Bot says it; Lanchat has no system
// bot, so the person the news is about does (as for resolved topics). It
// runs after the change it announces has committed: an announcement that
// cannot be posted (the stream is closed to its sender) does not undo it.
func (s *Service) announce(sender store.User, setting, topic, content string) {
	var streamID int64 = -1
	err := s.store.View(func(tx *store.Tx) error {
		r, err := tx.Realm()
		streamID = announcementStreamID(tx, r, setting)
		return err
	})
	if err != nil || streamID == -1 {
		return
	}
	read := true
	_, err = s.SendMessage(sender, OutgoingMessage{Type: "stream", Stream: strconv.FormatInt(streamID, 10), Topic: topic,
		Content: content, Client: "Lanchat", ReadBySender: &read, Notice: true})
	if err != nil {
		slog.Warn("post announcement", "setting", setting, "sender", sender.ID, "err", err)
	}
}

// announceNewStreams is Zulip's new stream announcement, for the public
// streams a subscribe request created with announce=true (a private
// stream's name is not shown to everyone).
func (s *Service) announceNewStreams(actor store.User, created []store.Stream) {
	var links []string
	for _, st := range created {
		if !st.InviteOnly {
			links = append(links, fmt.Sprintf("#**%s**", st.Name))
		}
	}
	who := fmt.Sprintf("@_**%s|%d**", actor.FullName, actor.ID)
	switch len(links) {
	case 0:
		return
	case 1:
		s.announce(actor, newStreamAnnouncements, "new channels", fmt.Sprintf("%s created a new channel %s.", who, links[0]))
	default:
		s.announce(actor, newStreamAnnouncements, "new channels", fmt.Sprintf("%s created the following channels: %s.", who, strings.Join(links, ", ")))
	}
}

// announceSignup is Zulip's signup announcement for a person who joined.
func (s *Service) announceSignup(u store.User) {
	if u.IsBot() {
		return
	}
	s.announce(u, signupAnnouncements, "signups", fmt.Sprintf("@_**%s|%d** joined this organization.", u.FullName, u.ID))
}

// checkUniqueName refuses a person's name another account has when the
// organization requires unique names (level 246), ignoring case as Zulip
// does; exceptID is the account being renamed (0 for a new one).
func checkUniqueName(tx *store.Tx, name string, exceptID int64) error {
	r, err := tx.Realm()
	if errors.Is(err, store.ErrNotFound) || err == nil && !r.RequireUniqueNames {
		return nil
	}
	if err != nil {
		return err
	}
	users, err := tx.Users()
	if err != nil {
		return err
	}
	for _, u := range users {
		if u.ID != exceptID && strings.EqualFold(u.FullName, name) {
			return BadRequest("Unique names required in this organization.")
		}
	}
	return nil
}
