package markdown

import "strings"

// fakeLookup is a small organization: three people (one deactivated, two
// sharing a name), a group, a visible stream and a custom emoji.
type fakeLookup struct{}

var people = []User{{12, "Full Name", true}, {13, "Ada Admin", true}, {14, "Gone Person", false}, {15, "Twin", true}, {16, "Twin", true}}

func (fakeLookup) UserByName(name string) (User, bool) {
	var found []User
	for _, u := range people {
		if strings.EqualFold(u.FullName, name) {
			found = append(found, u)
		}
	}
	if len(found) != 1 {
		return User{}, false
	}
	return found[0], true
}

func (fakeLookup) UserByID(id int64) (User, bool) {
	for _, u := range people {
		if u.ID == id {
			return u, true
		}
	}
	return User{}, false
}

func (fakeLookup) GroupByName(name string) (Group, bool) {
	if strings.EqualFold(name, "grp") || strings.EqualFold(name, "dev team") {
		return Group{7, strings.ToLower(name)}, true
	}
	return Group{}, false
}

func (fakeLookup) StreamByName(name string) (Stream, bool) {
	switch strings.ToLower(name) {
	case "verona":
		return Stream{5, "Verona"}, true
	case "denmark two":
		return Stream{6, "Denmark Two"}, true
	case "a.b (c)":
		return Stream{8, "a.b (c)"}, true
	}
	return Stream{}, false // unknown, or hidden from the sender
}

// LatestInTopic: the fake organization's topics have no messages.
func (fakeLookup) LatestInTopic(int64, string) (int64, bool) { return 0, false }

func (fakeLookup) CustomEmoji(name string) (CustomEmoji, bool) {
	switch name {
	case "party_parrot":
		return CustomEmoji{"3", "party_parrot", "/user_avatars/1/emoji/images/3.gif"}, true
	case "smile_custom", "heart":
		return CustomEmoji{"4", name, "/user_avatars/1/emoji/images/4.png"}, true
	}
	return CustomEmoji{}, false
}

// ImageDimensions knows one upload's size.
func (fakeLookup) ImageDimensions(uploadPath string) (ImageSize, bool) {
	if uploadPath == "/user_uploads/1/ab/c/sized.png" {
		return ImageSize{640, 480}, true
	}
	return ImageSize{}, false
}
