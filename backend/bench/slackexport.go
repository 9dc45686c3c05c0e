package bench

import (
	"archive/zip"
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"lanchat/backend/safefile"
)

// SlackShape sizes a generated Slack export.
type SlackShape struct {
	Users, Channels, Messages, Days int
}

// DefaultSlackShape is a mid-sized team's two years.
func DefaultSlackShape(messages int) SlackShape {
	return SlackShape{Users: 300, Channels: 40, Messages: messages, Days: 730}
}

// slackStart is the generated history's first day.
var slackStart = time.Date(2022, 1, 1, 0, 0, 0, 0, time.UTC)

// GeneratedMessage is one message of a generated export.
type GeneratedMessage struct {
	Channel, Sender int
	TS              string
	Text            string
	ThreadTS        string // "" outside threads
	Reactors        []int  // users who reacted :+1:
}

// SlackUserEmail and SlackChannelName name a generated export's records.
func SlackUserEmail(i int) string   { return fmt.Sprintf("user%d@example.com", i) }
func SlackChannelName(i int) string { return fmt.Sprintf("channel-%d", i) }

// SlackMembers are a generated channel's members: everyone in channel 0,
// a tenth of the team (at least three) elsewhere.
func (s SlackShape) SlackMembers(channel int) []int {
	if channel == 0 {
		return span(s.Users)
	}
	n := max(3, s.Users/10)
	out := make([]int, n)
	for i := range out {
		out[i] = (channel*7 + i) % s.Users
	}
	return out
}

func span(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// EachSlackDay generates the export's messages a day at a time, in time
// order across channels (a tenth in threads, one in twenty with
// reactions); the same shape always gives the same messages.
func (s SlackShape) EachSlackDay(fn func(day string, msgs []GeneratedMessage) error) error {
	rng := rand.New(rand.NewPCG(16, 1))
	members := make([][]int, s.Channels)
	for c := range members {
		members[c] = s.SlackMembers(c)
	}
	lastTS := make([]string, s.Channels) // a channel's latest message, which a thread may answer
	done := 0
	for d := range s.Days {
		n := (s.Messages - done) / (s.Days - d)
		day := slackStart.AddDate(0, 0, d)
		msgs := make([]GeneratedMessage, n)
		for i := range msgs {
			c := rng.IntN(s.Channels)
			if rng.IntN(3) == 0 {
				c = 0 // the busy general channel
			}
			m := GeneratedMessage{Channel: c, Sender: members[c][rng.IntN(len(members[c]))],
				TS:   fmt.Sprintf("%d.%06d", day.Unix()+int64(i*86400/max(n, 1)), i),
				Text: fixtureContent(rng, done+i)}
			if lastTS[c] != "" && rng.IntN(10) == 0 {
				m.ThreadTS = lastTS[c]
			} else {
				lastTS[c] = m.TS
			}
			if rng.IntN(20) == 0 {
				m.Reactors = []int{members[c][rng.IntN(len(members[c]))]}
			}
			msgs[i] = m
		}
		done += n
		if err := fn(day.Format(time.DateOnly), msgs); err != nil {
			return err
		}
	}
	return nil
}

// WriteSlackExport writes the shape's export as a zip at path (whole or not
// at all), streaming: one day's messages are in memory at a time.
func WriteSlackExport(path string, s SlackShape) error {
	return safefile.Write(path, func(w io.Writer) error {
		buf := bufio.NewWriterSize(w, 1<<20)
		zw := zip.NewWriter(buf)
		put := func(name string, v any) error {
			f, err := zw.Create(name)
			if err != nil {
				return err
			}
			return json.NewEncoder(f).Encode(v)
		}
		type user struct {
			ID       string            `json:"id"`
			Name     string            `json:"name"`
			RealName string            `json:"real_name"`
			IsAdmin  bool              `json:"is_admin"`
			Profile  map[string]string `json:"profile"`
		}
		users := make([]user, s.Users)
		for i := range users {
			users[i] = user{ID: slackUserID(i), Name: fmt.Sprintf("user%d", i), RealName: fmt.Sprintf("User %d", i), IsAdmin: i == 0,
				Profile: map[string]string{"email": SlackUserEmail(i)}}
		}
		if err := put("users.json", users); err != nil {
			return err
		}
		type channel struct {
			ID        string   `json:"id"`
			Name      string   `json:"name"`
			Created   int64    `json:"created"`
			IsGeneral bool     `json:"is_general"`
			Members   []string `json:"members"`
		}
		channels := make([]channel, s.Channels)
		for c := range channels {
			var ids []string
			for _, u := range s.SlackMembers(c) {
				ids = append(ids, slackUserID(u))
			}
			channels[c] = channel{ID: fmt.Sprintf("C%06d", c), Name: SlackChannelName(c), Created: slackStart.Unix(), IsGeneral: c == 0, Members: ids}
		}
		if err := put("channels.json", channels); err != nil {
			return err
		}
		type reaction struct {
			Name  string   `json:"name"`
			Users []string `json:"users"`
		}
		type message struct {
			Type      string     `json:"type"`
			User      string     `json:"user"`
			Text      string     `json:"text"`
			TS        string     `json:"ts"`
			ThreadTS  string     `json:"thread_ts,omitempty"`
			Reactions []reaction `json:"reactions,omitempty"`
		}
		err := s.EachSlackDay(func(day string, msgs []GeneratedMessage) error {
			byChannel := make([][]message, s.Channels)
			for _, m := range msgs {
				out := message{Type: "message", User: slackUserID(m.Sender), Text: m.Text, TS: m.TS, ThreadTS: m.ThreadTS}
				for _, u := range m.Reactors {
					out.Reactions = append(out.Reactions, reaction{Name: "+1", Users: []string{slackUserID(u)}})
				}
				byChannel[m.Channel] = append(byChannel[m.Channel], out)
			}
			for c, list := range byChannel {
				if len(list) > 0 {
					if err := put(SlackChannelName(c)+"/"+day+".json", list); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		return buf.Flush()
	})
}

func slackUserID(i int) string { return fmt.Sprintf("U%06d", i) }
