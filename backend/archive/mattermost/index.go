package mattermost

import (
	"bytes"
	"errors"
	"io"
	"strconv"
	"strings"

	"lanchat/backend/archive"
)

// index is what the first pass over import.jsonl keeps: every record but
// the posts whole (there are few), and of the posts only where each one
// is and when it was written, so the second pass can send them in time
// order without holding their content.
type index struct {
	file     string // import.jsonl's name in the archive
	teams    []team
	teamSet  map[string]bool
	channels []channel
	// channelSet holds "team/name" of every channel.
	channelSet map[string]bool
	users      []userLine
	userSet    map[string]int // by username: the index in users
	emails     map[string]int // lowercased email → line
	emoji      []emojiLine
	emojiSet   map[string]bool
	files      []fileRef
	fileSet    map[string]bool // by path
	posts      entries
}

type userLine struct {
	num int
	u   user
	bot bool
	// owner is a bot's owner's username.
	owner string
}

type emojiLine struct {
	num int
	e   emoji
}

// fileRef is an attachment, given to the sink before any message.
type fileRef struct {
	num     int // the line of the first post that has it
	path    string
	owner   string
	created int64 // Unix milliseconds
}

// entry is one post or reply: where its line is, and which reply of the
// line's post it is (-1 for the post itself).
type entry struct {
	at    int64 // create_at, Unix milliseconds
	off   int64
	size  int32
	num   int32
	reply int32
}

// scan is the first pass: it reads every line, checks what each names,
// and indexes the posts.
func scan(name string, r io.Reader) (*index, error) {
	ix := &index{
		file: name, teamSet: map[string]bool{}, channelSet: map[string]bool{},
		userSet: map[string]int{}, emails: map[string]int{},
		emojiSet: map[string]bool{}, fileSet: map[string]bool{},
	}
	ls := newLines(name, r)
	versioned := false
	for {
		b, err := ls.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		if ls.num == 1 {
			// Some editors and tools open a UTF-8 file with a byte order mark.
			b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
		}
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		record := ls.record(ls.num)
		ln, err := decodeLine(b, record)
		if err != nil {
			return nil, err
		}
		record += " (" + ln.Type + ")"
		if !versioned {
			if ln.Type != "version" {
				return nil, archive.Errorf(record, "comes before the version line that must open a Mattermost bulk export")
			}
			if ln.Version == nil || *ln.Version != 1 {
				return nil, archive.Errorf(record, "is not version 1 of Mattermost's bulk export format")
			}
			versioned = true
			continue
		}
		if err := ix.add(ln, ls, record); err != nil {
			return nil, err
		}
	}
	if !versioned {
		return nil, archive.Errorf(name, "is empty: no version line, so not a Mattermost bulk export")
	}
	if len(ix.teams) == 0 {
		return nil, archive.Errorf(name, "has no team")
	}
	return ix, nil
}

// missing is the error for a record lacking a field it cannot do without.
func missing(record, field string) error {
	return archive.Errorf(record, "has no %s", field)
}

func (ix *index) add(ln line, ls *lines, record string) error {
	switch ln.Type {
	case "version":
		return archive.Errorf(record, "repeats the version line")
	case "team":
		if ln.Team == nil || ln.Team.Name == "" {
			return missing(record, "team name")
		}
		if ix.teamSet[ln.Team.Name] {
			return archive.Errorf(record, "repeats team %q", ln.Team.Name)
		}
		ix.teamSet[ln.Team.Name] = true
		ix.teams = append(ix.teams, *ln.Team)
	case "channel":
		c := ln.Channel
		if c == nil || c.Name == "" {
			return missing(record, "channel name")
		}
		if !ix.teamSet[c.Team] {
			return archive.Errorf(record, "is in team %q, not in the export", c.Team)
		}
		if c.Type != "O" && c.Type != "P" {
			return archive.Errorf(record, "has type %q: neither O (public) nor P (private)", c.Type)
		}
		key := c.Team + "/" + c.Name
		if ix.channelSet[key] {
			return archive.Errorf(record, "repeats channel %q of team %q", c.Name, c.Team)
		}
		ix.channelSet[key] = true
		ix.channels = append(ix.channels, *c)
	case "user":
		if ln.User == nil {
			return missing(record, "user")
		}
		return ix.addUser(userLine{num: ls.num, u: *ln.User}, record)
	case "bot":
		b := ln.Bot
		if b == nil {
			return missing(record, "bot")
		}
		u := user{Username: b.Username, Nickname: b.DisplayName, DeleteAt: b.DeleteAt, ProfileImage: b.ProfileImage}
		return ix.addUser(userLine{num: ls.num, u: u, bot: true, owner: b.Owner}, record)
	case "emoji":
		e := ln.Emoji
		if e == nil || e.Name == "" || e.Image == "" {
			return missing(record, "emoji name or image")
		}
		if ix.emojiSet[e.Name] {
			return archive.Errorf(record, "repeats emoji %q", e.Name)
		}
		if err := archive.CheckName(e.Image); err != nil {
			return archive.Errorf(record, "has image %s", err)
		}
		ix.emojiSet[e.Name] = true
		ix.emoji = append(ix.emoji, emojiLine{num: ls.num, e: *e})
	case "post", "direct_post":
		p := ln.Post
		if ln.Type == "direct_post" {
			p = ln.DirectPost
		}
		if p == nil {
			return missing(record, ln.Type)
		}
		return ix.addPost(p, ls, record, ln.Type == "direct_post")
	case "direct_channel":
		// A direct conversation is known by its posts' members; its
		// line only says who is in it, which must be someone.
		if ln.DirectChannel == nil {
			return missing(record, "direct_channel")
		}
		return ix.knownUsers(ln.DirectChannel.Members, record, "a member")
	}
	// Other kinds (schemes, roles, the exporter's info) have no place in
	// Lanchat.
	return nil
}

func (ix *index) addUser(ul userLine, record string) error {
	u := ul.u
	if u.Username == "" {
		return missing(record, "username")
	}
	if prev, ok := ix.userSet[u.Username]; ok {
		return archive.Errorf(record, "repeats username %q of line %d", u.Username, ix.users[prev].num)
	}
	if !ul.bot {
		if u.Email == "" {
			return missing(record, "email")
		}
		key := strings.ToLower(u.Email)
		if prev, ok := ix.emails[key]; ok {
			return archive.Errorf(record, "repeats email %q of line %d", u.Email, prev)
		}
		ix.emails[key] = ul.num
	}
	if u.ProfileImage != "" {
		if err := archive.CheckName(u.ProfileImage); err != nil {
			return archive.Errorf(record, "has profile image %s", err)
		}
	}
	ix.userSet[u.Username] = len(ix.users)
	ix.users = append(ix.users, ul)
	return nil
}

func (ix *index) knownUsers(names []string, record, what string) error {
	for _, n := range names {
		if _, ok := ix.userSet[n]; !ok {
			return archive.Errorf(record, "names %s %q, not a user of the export", what, n)
		}
	}
	return nil
}

// addPost checks a post and its replies and indexes them.
func (ix *index) addPost(p *post, ls *lines, record string, direct bool) error {
	if direct {
		if len(p.ChannelMembers) == 0 {
			return missing(record, "channel_members")
		}
		if err := ix.knownUsers(p.ChannelMembers, record, "a channel member"); err != nil {
			return err
		}
	} else if !ix.channelSet[p.Team+"/"+p.Channel] {
		return archive.Errorf(record, "is in channel %q of team %q, not in the export", p.Channel, p.Team)
	}
	if err := ix.checkPost(p, ls.num, record); err != nil {
		return err
	}
	ix.posts.add(entry{at: p.CreateAt, off: ls.off, size: int32(ls.size), num: int32(ls.num), reply: -1})
	for i := range p.Replies {
		r := &p.Replies[i]
		if err := ix.checkPost(r, ls.num, record+" reply "+strconv.Itoa(i+1)); err != nil {
			return err
		}
		ix.posts.add(entry{at: r.CreateAt, off: ls.off, size: int32(ls.size), num: int32(ls.num), reply: int32(i)})
	}
	return nil
}

// checkPost checks what one post or reply names, and notes its
// attachments.
func (ix *index) checkPost(p *post, num int, record string) error {
	if p.User == "" {
		return missing(record, "user")
	}
	if err := ix.knownUsers([]string{p.User}, record, "its author"); err != nil {
		return err
	}
	if p.CreateAt <= 0 {
		return missing(record, "create_at")
	}
	if err := ix.knownUsers(p.FlaggedBy, record, "in flagged_by"); err != nil {
		return err
	}
	for _, r := range p.Reactions {
		if err := ix.knownUsers([]string{r.User}, record, "a reaction's user"); err != nil {
			return err
		}
		if r.EmojiName == "" {
			return missing(record, "reaction's emoji_name")
		}
	}
	for _, a := range p.Attachments {
		if err := archive.CheckName(a.Path); err != nil {
			return archive.Errorf(record, "has attachment %s", err)
		}
		if !ix.fileSet[a.Path] {
			ix.fileSet[a.Path] = true
			ix.files = append(ix.files, fileRef{num: num, path: a.Path, owner: p.User, created: p.CreateAt})
		}
	}
	return nil
}
