package archivetest

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
)

// SlackPerson is a member of a generated Slack export.
type SlackPerson struct {
	ID, Name, Email string
	// CustomAvatar: the person uploaded a picture, which the export only
	// links on Slack's servers.
	CustomAvatar bool
}

// SlackExport is a small Slack workspace export, as a zip: users.json,
// channels.json with #general (everyone a member) and a day of it with
// messages messages, alternating between the first two people; the second
// message reacts :tada: from the first person and mentions them. It has at
// least two people and two messages.
func SlackExport(people []SlackPerson, messages int) ([]byte, error) {
	if len(people) < 2 || messages < 2 {
		return nil, fmt.Errorf("a Slack export needs two people and two messages")
	}
	var users []map[string]any
	var members []string
	for _, p := range people {
		profile := map[string]any{"email": p.Email, "real_name": p.Name}
		if p.CustomAvatar {
			profile["is_custom_image"] = true
			profile["image_512"] = "https://avatars.slack-edge.com/2020-09-13/" + p.ID + "_512.png"
		}
		users = append(users, map[string]any{"id": p.ID, "name": p.Name, "real_name": p.Name, "deleted": false, "is_bot": false,
			"tz": "Europe/Berlin", "profile": profile})
		members = append(members, p.ID)
	}
	channels := []map[string]any{{"id": "C1", "name": "general", "created": 1600000000, "creator": people[0].ID, "is_archived": false,
		"is_general": true, "members": members, "topic": map[string]any{"value": ""}, "purpose": map[string]any{"value": "Everyone"}}}
	day := make([]map[string]any, messages)
	for i := range day {
		day[i] = map[string]any{"type": "message", "user": people[i%2].ID, "text": fmt.Sprintf("Message %d", i), "ts": fmt.Sprintf("%d.000100", 1600000100+i)}
	}
	day[0]["text"] = "Welcome to the team"
	day[1]["text"] = "Glad to be here <@" + people[0].ID + ">"
	day[1]["reactions"] = []map[string]any{{"name": "tada", "users": []string{people[0].ID}, "count": 1}}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range []struct {
		name string
		v    any
	}{{"users.json", users}, {"channels.json", channels}, {"general/2020-09-13.json", day}} {
		w, err := zw.Create(f.name)
		if err != nil {
			return nil, err
		}
		if err := json.NewEncoder(w).Encode(f.v); err != nil {
			return nil, err
		}
	}
	err := zw.Close()
	return buf.Bytes(), err
}
