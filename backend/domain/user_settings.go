package domain

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"lanchat/backend/events"
	"lanchat/backend/store"

	"golang.org/x/crypto/bcrypt"
)

// defaultUserSettings are Zulip's defaults for the display and notification
// settings clients read at start-up.
func defaultUserSettings(u store.User) map[string]any {
	return map[string]any{
		"twenty_four_hour_time": false,
		// Whether Enter sends in the compose box (else Ctrl+Enter does and
		// Enter starts a new line). Zulip's default is false; Lanchat's web
		// compose box has always sent on Enter, so its accounts start so.
		"enter_sends":                         true,
		"send_private_typing_notifications":   true,
		"send_stream_typing_notifications":    true,
		"send_read_receipts":                  true,
		"pm_content_in_desktop_notifications": true,
		"emojiset":                            "text",
		"timezone":                            u.Timezone,
		"default_language":                    "en",
		"color_scheme":                        1,
		"display_emoji_reaction_users":        true,
		"starred_message_counts":              true,
		"fluid_layout_width":                  false,
		"left_side_userlist":                  false,
		"enable_desktop_notifications":        true,
		"enable_sounds":                       true,
		"enable_stream_desktop_notifications": false,
		"enable_stream_audible_notifications": false,
		"enable_stream_push_notifications":    false,
		"enable_stream_email_notifications":   false,
		"wildcard_mentions_notify":            true,
		"enable_offline_push_notifications":   false,
		"enable_online_push_notifications":    false,
		// Followed topics notify as Zulip's do by default (level 189).
		"enable_followed_topic_desktop_notifications":    true,
		"enable_followed_topic_email_notifications":      true,
		"enable_followed_topic_push_notifications":       true,
		"enable_followed_topic_audible_notifications":    true,
		"enable_followed_topic_wildcard_mentions_notify": true,
		"receives_typing_notifications":                  true,
		"web_font_size_px":                               14,
		"web_line_height_percent":                        122,
		"presence_enabled":                               true,
		"web_mark_read_on_scroll_policy":                 1,
		"demote_inactive_streams":                        1,
		"user_list_style":                                2,
		"email_address_visibility":                       1,
		"web_stream_unreads_count_display_policy":        2, // level 210: unmuted channels and topics
		// Which topics are followed and unmuted on their own (level 214; 1
		// participate, 2 send, 3 start, 4 never), and when mentioned (235).
		"automatically_follow_topics_policy":                  defaultAutoFollowPolicy,
		"automatically_unmute_topics_in_muted_streams_policy": defaultAutoUnmutePolicy,
		"automatically_follow_topics_where_mentioned":         true,
		"web_home_view":                     "inbox", // level 219
		"web_escape_navigates_to_home_view": true,
		"desktop_icon_count_display":        1,          // level 227's four options
		"web_navigate_to_sent_message":      true,       // level 268
		"web_channel_default_view":          1,          // level 269: top topic
		"web_animate_image_previews":        "on_hover", // level 275
		"hide_ai_features":                  false,      // level 350
		"web_suggest_update_timezone":       true,       // level 329
		"allow_private_data_export":         false,      // level 293
	}
}

// userSettings are a person's user_settings: the defaults with their own
// changes over them.
func userSettings(u store.User) map[string]any {
	out := defaultUserSettings(u)
	for k, v := range u.Settings {
		out[k] = v
	}
	return out
}

// settingChoices are the numbered settings a person may change, with the
// values Zulip defines for each (color_scheme: 1 automatic, 2 dark, 3 light).
var settingChoices = map[string][]int{
	"color_scheme":                                        {1, 2, 3},
	"web_mark_read_on_scroll_policy":                      {1, 2, 3},
	"demote_inactive_streams":                             {1, 2, 3},
	"user_list_style":                                     {1, 2, 3},
	"email_address_visibility":                            {1, 2, 3, 4, 5},
	"web_stream_unreads_count_display_policy":             {1, 2, 3},
	"automatically_follow_topics_policy":                  {1, 2, 3, 4},
	"automatically_unmute_topics_in_muted_streams_policy": {1, 2, 3, 4},
	"desktop_icon_count_display":                          {1, 2, 3, 4},
	"web_channel_default_view":                            {1, 2},
}

// settingSizes are the settings that take any whole number in a range:
// the web UI's font size in pixels and line height in percent (level 245;
// Zulip documents no bounds, these keep a page readable).
var settingSizes = map[string][2]int{
	"web_font_size_px":        {8, 64},
	"web_line_height_percent": {100, 300},
}

// settingWords are the settings chosen among words: emojiset names Zulip's
// emoji styles (Lanchat serves no image sets; the choice tells clients
// which one to draw).
var settingWords = map[string][]string{
	"emojiset":                   {"google", "google-blob", "twitter", "text"},
	"web_home_view":              {"recent_topics", "inbox", "all_messages"},
	"web_animate_image_previews": {"always", "on_hover", "never"},
}

// PreferenceNames are the user_settings PATCH /settings accepts besides
// name and password, in a fixed order (the order their events go out):
// every yes/no setting, the numbered ones, those chosen among words and the
// timezone.
func PreferenceNames() []string {
	var names []string
	for name, v := range defaultUserSettings(store.User{}) {
		if _, yesNo := v.(bool); yesNo || settingChoices[name] != nil || settingSizes[name] != [2]int{} || settingWords[name] != nil || name == "timezone" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

// Preference is one requested user_settings change, as sent.
type Preference struct {
	Name, Raw string
}

// parsePreference checks a requested value against its setting's kind.
func parsePreference(p Preference) (any, error) {
	switch def := defaultUserSettings(store.User{})[p.Name]; {
	case p.Name == "timezone":
		if _, err := time.LoadLocation(p.Raw); err != nil {
			return nil, InvalidArgument(p.Name, "unknown time zone")
		}
		return p.Raw, nil
	case settingWords[p.Name] != nil:
		if !slices.Contains(settingWords[p.Name], p.Raw) {
			return nil, InvalidArgument(p.Name, "not one of its choices")
		}
		return p.Raw, nil
	case settingChoices[p.Name] != nil:
		n, err := strconv.Atoi(p.Raw)
		for _, ok := range settingChoices[p.Name] {
			if err == nil && n == ok {
				return n, nil
			}
		}
		return nil, InvalidArgument(p.Name, "not one of its choices")
	case settingSizes[p.Name] != [2]int{}:
		bounds := settingSizes[p.Name]
		n, err := strconv.Atoi(p.Raw)
		if err != nil || n < bounds[0] || n > bounds[1] {
			return nil, InvalidArgument(p.Name, "must be a whole number from "+strconv.Itoa(bounds[0])+" to "+strconv.Itoa(bounds[1]))
		}
		return n, nil
	default:
		if _, yesNo := def.(bool); !yesNo {
			return nil, InvalidArgument(p.Name, "cannot be changed")
		}
		b, err := strconv.ParseBool(p.Raw)
		if err != nil {
			return nil, InvalidArgument(p.Name, "is not a boolean")
		}
		return b, nil
	}
}

// applyPreferences writes checked changes into u and returns the events
// that announce them: user_settings to the person, a new timezone to
// everyone (it shows on their user card), and export consent to
// administrators.
func (s *Service) applyPreferences(tx *store.Tx, u *store.User, names []string, values []any) (deliveries, error) {
	var out deliveries
	for i, name := range names {
		if name == "timezone" {
			u.Timezone = values[i].(string)
			publish, err := s.realmUserEvent(tx, "update", map[string]any{"user_id": u.ID, "timezone": u.Timezone})
			if err != nil {
				return nil, err
			}
			out = append(out, publish)
		} else {
			if name == "allow_private_data_export" {
				// Level 312: administrators see who consents to export.
				admins, err := userIDsWhere(tx, func(a store.User) bool { return a.IsActive && isAdmin(a) })
				if err != nil {
					return nil, err
				}
				out.add(s, events.Event{"type": "realm_export_consent", "user_id": u.ID, "consented": values[i]}, admins)
			}
			if u.Settings == nil {
				u.Settings = map[string]any{}
			}
			u.Settings[name] = values[i]
		}
		out.add(s, events.Event{"type": "user_settings", "op": "update", "property": name, "value": values[i]}, []int64{u.ID})
	}
	return out, nil
}

// SettingsChange is PATCH /settings for one's own account.
type SettingsChange struct {
	FullName    *string
	OldPassword string
	NewPassword *string
	// Session is the browser session making the change, if any: a new
	// password ends every other session of the account.
	Session     string
	Preferences []Preference
}

// UpdateOwnSettings changes the actor's name, password or user_settings
// (all or nothing); a new password needs the old one and signs out the
// account's other browsers, as in Zulip (the API key changes only on
// request: RegenerateAPIKey). Bots are refused, as in Zulip: their names are their
// owner's to change (PATCH /bots/{id}).
func (s *Service) UpdateOwnSettings(actor store.User, ch SettingsChange) error {
	if actor.IsBot() {
		return ErrBotRequest
	}
	if ch.FullName == nil && ch.NewPassword == nil && len(ch.Preferences) == 0 {
		return nil // nothing to change: a success, as in Zulip (the answer lists what was not understood)
	}
	var names []string
	var values []any
	for _, p := range ch.Preferences {
		v, err := parsePreference(p)
		if err != nil {
			return err
		}
		names, values = append(names, p.Name), append(values, v)
	}
	var hash string
	if ch.NewPassword != nil {
		if actor.PasswordHash == "" || bcrypt.CompareHashAndPassword([]byte(actor.PasswordHash), []byte(ch.OldPassword)) != nil {
			return BadRequest("Wrong password!")
		}
		if len(*ch.NewPassword) < 6 {
			return BadRequest("The password is too weak.")
		}
		h, err := hashPassword(*ch.NewPassword)
		if err != nil {
			return err
		}
		hash = h
	}
	return internal("update settings", s.update(func(tx *store.Tx) (func(), error) {
		u, err := tx.User(actor.ID)
		if err != nil {
			return nil, err
		}
		var publish func()
		if ch.FullName != nil {
			name := strings.TrimSpace(*ch.FullName)
			if err := validateFullName(name); err != nil {
				return nil, err
			}
			if err := checkUniqueName(tx, name, u.ID); err != nil {
				return nil, err
			}
			u.FullName = name
			if publish, err = s.realmUserEvent(tx, "update", map[string]any{"user_id": u.ID, "full_name": name}); err != nil {
				return nil, err
			}
		}
		if hash != "" {
			u.PasswordHash = hash
			if err := tx.DeleteUserSessions(u.ID, ch.Session); err != nil {
				return nil, err
			}
		}
		announce, err := s.applyPreferences(tx, &u, names, values)
		if err != nil {
			return nil, err
		}
		if publish != nil {
			announce = append(deliveries{publish}, announce...)
		}
		return announce.publish, tx.PutUser(u)
	}))
}
