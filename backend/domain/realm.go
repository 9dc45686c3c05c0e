package domain

import (
	"errors"
	"net/url"
	"slices"
	"strings"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// DefaultRealmName names an organization nobody has named yet.
const DefaultRealmName = "Lanchat"

// RealmInitialized tells whether the organization has been set up.
func (s *Service) RealmInitialized() (bool, error) {
	err := s.store.View(func(tx *store.Tx) error {
		_, err := tx.Realm()
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return err == nil, internal("read realm", err)
}

// EnsureRealm creates the organization record with the given name when the
// store has none yet; an existing organization is left as it is.
func (s *Service) EnsureRealm(name string) error {
	err := s.store.Update(func(tx *store.Tx) error {
		return ensureRealm(tx, name, s.now().Unix())
	})
	return internal("create realm", err)
}

func ensureRealm(tx *store.Tx, name string, now int64) error {
	if _, err := tx.Realm(); !errors.Is(err, store.ErrNotFound) {
		return err
	}
	return tx.PutRealm(store.Realm{Name: name, DateCreated: now, EmojiAddPolicy: "members"})
}

func (s *Service) realm() (store.Realm, error) {
	var r store.Realm
	err := s.store.View(func(tx *store.Tx) error {
		var err error
		r, err = tx.Realm()
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return store.Realm{Name: DefaultRealmName}, nil
	}
	return r, internal("read realm", err)
}

// ValidateRealmName trims an organization name and checks its length: the
// rule of the API (first-run setup, PATCH /realm), which imports given a
// name follow too.
func ValidateRealmName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || len([]rune(name)) > MaxRealmNameLength {
		return "", BadRequest("Organization name must be 1 to %d characters.", MaxRealmNameLength)
	}
	return name, nil
}

// MaxRealmNameLength is Zulip's limit on an organization's name.
const MaxRealmNameLength = 40

// MaxRealmDescriptionLength is Zulip's limit on an organization's
// description, which every client's register carries.
const MaxRealmDescriptionLength = 1000

// Paths of the organization's images, served by the API layer.
const (
	RealmIconPath = "/static/images/realm-icon.svg"
	RealmLogoPath = "/static/images/realm-logo.svg"
	// EmojiDataPath serves the emoji names by code, as Zulip's
	// server_emoji_data_url, to anyone (the mobile app fetches it without
	// credentials).
	EmojiDataPath = "/static/generated/emoji/emoji_api.json"
)

// ServerSettings answers GET /server_settings (spec 4.21) plus the version
// fields real Zulip clients require. realmURL is the organization's address.
func (s *Service) ServerSettings(realmURL string) (map[string]any, error) {
	r, err := s.realm()
	if err != nil {
		return nil, err
	}
	return map[string]any{
		"authentication_methods": map[string]bool{
			"password": true, "dev": s.cfg.Dev, "email": true, "ldap": false,
			"google": false, "github": false, "gitlab": false, "apple": false,
			"saml": false, "openid connect": false, "azuread": false, "remoteuser": false,
		},
		"external_authentication_methods": []any{},
		"chat_version":                    Version,
		"zulip_version":                   ZulipVersion,
		"zulip_feature_level":             ZulipFeatureLevel,
		"zulip_merge_base":                ZulipVersion,
		"push_notifications_enabled":      false,
		"is_incompatible":                 false,
		"email_auth_enabled":              true,
		"require_email_format_usernames":  true,
		"realm_uri":                       realmURL,
		"realm_url":                       realmURL,
		"realm_name":                      r.Name,
		"realm_icon":                      realmURL + RealmIconPath,
		"realm_logo":                      realmURL + RealmLogoPath,
		"realm_night_logo":                realmURL + RealmLogoPath,
		"realm_description":               r.Description,
		"realm_web_public_access_enabled": false,
	}, nil
}

// RealmChange is PATCH /realm: any of the settings below.
type RealmChange struct {
	Name        *string
	Description *string
	// EnableReadReceipts is enable_read_receipts.
	EnableReadReceipts *bool
	// GroupSettings change the organization's group settings by name.
	GroupSettings map[string]GroupSettingChange
	// JitsiServerURL is jitsi_server_url: a URL, or "default" for none.
	JitsiServerURL *string
	// GuestUserIndicator is enable_guest_user_indicator.
	GuestUserIndicator *bool
	// AnnouncementStreams are the announcement streams' settings asked
	// for, by name (AnnouncementSettings): a stream ID or -1 for none.
	AnnouncementStreams map[string]int64
	// RequireUniqueNames is require_unique_names.
	RequireUniqueNames *bool
	// GuestUserDMWarning is enable_guest_user_dm_warning (level 348).
	GuestUserDMWarning *bool
	// EditHistoryVisibility is message_edit_history_visibility_policy
	// (level 358): "all", "moves" or "none".
	EditHistoryVisibility *string
	// ModerationRequestChannelID is moderation_request_channel_id: a
	// private stream, or -1 for none (level 331).
	ModerationRequestChannelID *int64
}

// UpdateRealm changes organization settings (administrators only) and tells
// everyone each change.
func (s *Service) UpdateRealm(actor store.User, ch RealmChange) error {
	if !isAdmin(actor) {
		return ErrNotAdmin
	}
	return internal("update realm", s.update(func(tx *store.Tx) (func(), error) {
		r, err := tx.Realm()
		if err != nil {
			return nil, err
		}
		changed := map[string]any{}
		if ch.Name != nil {
			name, err := ValidateRealmName(*ch.Name)
			if err != nil {
				return nil, err
			}
			r.Name, changed["name"] = name, name
		}
		if ch.Description != nil {
			if err := checkLength("description", *ch.Description, MaxRealmDescriptionLength); err != nil {
				return nil, err
			}
			r.Description, changed["description"] = *ch.Description, *ch.Description
		}
		if ch.EnableReadReceipts != nil {
			r.EnableReadReceipts, changed["enable_read_receipts"] = *ch.EnableReadReceipts, *ch.EnableReadReceipts
		}
		settings, err := changeRealmGroupSettings(tx, &r, ch.GroupSettings)
		if err != nil {
			return nil, err
		}
		if ch.JitsiServerURL != nil {
			u, err := jitsiServerURL(*ch.JitsiServerURL)
			if err != nil {
				return nil, err
			}
			r.JitsiServerURL, changed["jitsi_server_url"] = u, optionalString(u)
		}
		if ch.GuestUserIndicator != nil {
			r.HideGuestUserIndicator, changed["enable_guest_user_indicator"] = !*ch.GuestUserIndicator, *ch.GuestUserIndicator
		}
		if err := changeAnnouncementStreams(tx, actor, &r, ch.AnnouncementStreams, changed); err != nil {
			return nil, err
		}
		if ch.RequireUniqueNames != nil {
			r.RequireUniqueNames, changed["require_unique_names"] = *ch.RequireUniqueNames, *ch.RequireUniqueNames
		}
		if ch.GuestUserDMWarning != nil {
			r.HideGuestUserDMWarning, changed["enable_guest_user_dm_warning"] = !*ch.GuestUserDMWarning, *ch.GuestUserDMWarning
		}
		if ch.EditHistoryVisibility != nil {
			policy := *ch.EditHistoryVisibility
			if !slices.Contains(editHistoryPolicies, policy) {
				return nil, InvalidArgument("message_edit_history_visibility_policy", "must be all, moves or none")
			}
			r.EditHistoryVisibility, changed["message_edit_history_visibility_policy"] = policy, policy
			if policy == editHistoryAll {
				r.EditHistoryVisibility = ""
			}
		}
		if ch.ModerationRequestChannelID != nil {
			id := *ch.ModerationRequestChannelID
			if id != -1 {
				st, err := tx.Stream(id)
				if err != nil || !st.InviteOnly {
					return nil, BadRequest("Moderation request channel must be private.")
				}
			}
			r.ModerationRequestChannelID, changed["moderation_request_channel_id"] = max(id, 0), id
		}
		if len(changed) == 0 && len(settings) == 0 {
			return nil, BadRequest("No new data supplied")
		}
		if err := tx.PutRealm(r); err != nil {
			return nil, err
		}
		users, err := activeUserIDs(tx)
		if err != nil {
			return nil, err
		}
		var out deliveries
		for property, value := range changed {
			out.add(s, events.Event{"type": "realm", "op": "update", "property": property, "value": value}, users)
		}
		for _, setting := range settings {
			out.add(s, events.Event{"type": "realm", "op": "update_dict", "property": "default", "data": setting}, users)
		}
		return out.publish, nil
	}))
}

// MaxJitsiServerURLLength is Zulip's limit on jitsi_server_url.
const MaxJitsiServerURLLength = 200

// jitsiServerURL checks PATCH /realm's jitsi_server_url: "default" (none,
// so no server on the internet is used) or an http(s) URL.
func jitsiServerURL(raw string) (string, error) {
	if raw == "default" {
		return "", nil
	}
	if err := checkLength("jitsi_server_url", raw, MaxJitsiServerURLLength); err != nil {
		return "", err
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", InvalidArgument("jitsi_server_url", "is not a URL")
	}
	return raw, nil
}

// moderationRequestChannel is register's realm_moderation_request_channel_id:
// -1 for none.
func moderationRequestChannel(r store.Realm) int64 {
	if r.ModerationRequestChannelID == 0 {
		return -1
	}
	return r.ModerationRequestChannelID
}

// optionalString is s, or null when empty.
func optionalString(s string) any {
	if s == "" {
		return nil
	}
	return s
}
