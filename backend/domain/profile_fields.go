package domain

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// Zulip's custom profile field types, by their numbers.
const (
	fieldShortText       = 1
	fieldLongText        = 2
	fieldSelect          = 3
	fieldDate            = 4
	fieldURL             = 5
	fieldUser            = 6
	fieldExternalAccount = 7
	fieldPronouns        = 8
)

// ProfileFieldTypes is register's custom_profile_field_types.
var ProfileFieldTypes = map[string]map[string]any{
	"SHORT_TEXT":       {"id": fieldShortText, "name": "Short text"},
	"LONG_TEXT":        {"id": fieldLongText, "name": "Long text"},
	"SELECT":           {"id": fieldSelect, "name": "List of options"},
	"DATE":             {"id": fieldDate, "name": "Date picker"},
	"URL":              {"id": fieldURL, "name": "Link"},
	"USER":             {"id": fieldUser, "name": "Person picker"},
	"EXTERNAL_ACCOUNT": {"id": fieldExternalAccount, "name": "External account"},
	"PRONOUNS":         {"id": fieldPronouns, "name": "Pronouns"},
}

// externalAccounts are the external account subtypes with Zulip's names
// and profile URL patterns; "custom" brings its own pattern.
var externalAccounts = map[string]struct{ name, hint, urlPattern string }{
	"github":  {"GitHub", "Enter your GitHub username", "https://github.com/%(username)s"},
	"twitter": {"X (Twitter)", "Enter your X (Twitter) username", "https://x.com/%(username)s"},
}

// Limits as in Zulip (a Link value's is what Django's URLValidator, Zulip's
// check_url, takes; an external account's URL pattern's is Zulip's form's),
// but for field_data, on which Zulip sets none: every client receives it in
// register, so Lanchat leaves room for a few hundred options.
const (
	maxProfileFieldName   = 40
	maxProfileFieldHint   = 80
	maxShortProfileValue  = 50
	maxLongProfileValue   = 500
	maxURLProfileValue    = 2048
	maxProfileURLPattern  = 1024
	maxProfileFieldData   = 50000
	maxProfileSummaryRows = 2
)

// ProfileFieldObject is a field as GET /realm/profile_fields, register's
// custom_profile_fields and their events show it.
type ProfileFieldObject struct {
	ID                      int64  `json:"id"`
	Type                    int    `json:"type"`
	Order                   int64  `json:"order"`
	Name                    string `json:"name"`
	Hint                    string `json:"hint"`
	FieldData               string `json:"field_data"`
	DisplayInProfileSummary bool   `json:"display_in_profile_summary,omitempty"` // only when true, as in Zulip
	Required                bool   `json:"required"`
	EditableByUser          bool   `json:"editable_by_user"` // level 296
}

func profileFieldObjects(list []store.ProfileField) []ProfileFieldObject {
	out := make([]ProfileFieldObject, len(list))
	for i, f := range list {
		out[i] = ProfileFieldObject{ID: f.ID, Type: f.Type, Order: f.Order, Name: f.Name, Hint: f.Hint, FieldData: f.FieldData,
			DisplayInProfileSummary: f.DisplayInProfileSummary, Required: f.Required, EditableByUser: !f.NotEditableByUser}
	}
	return out
}

// profileFieldState is register's custom_profile_fields and
// custom_profile_field_types.
func profileFieldState(tx *store.Tx, state map[string]any) error {
	fields, err := tx.ProfileFields()
	state["custom_profile_fields"], state["custom_profile_field_types"] = profileFieldObjects(fields), ProfileFieldTypes
	return err
}

// ProfileFields lists the organization's custom profile fields.
func (s *Service) ProfileFields() ([]ProfileFieldObject, error) {
	var list []ProfileFieldObject
	err := s.store.View(func(tx *store.Tx) error {
		fields, err := tx.ProfileFields()
		list = profileFieldObjects(fields)
		return err
	})
	return list, internal("list profile fields", err)
}

// ProfileFieldChange is what POST /realm/profile_fields sets, or PATCH
// /realm/profile_fields/{id} changes: a nil field is left as it is (level
// 252).
type ProfileFieldChange struct {
	Type                    int // on creation only
	Name, Hint, FieldData   *string
	DisplayInProfileSummary *bool
	Required                *bool
	EditableByUser          *bool
}

// AddProfileField creates a custom profile field (administrators only).
func (s *Service) AddProfileField(actor store.User, ch ProfileFieldChange) (int64, error) {
	if !isAdmin(actor) {
		return 0, ErrNotAdmin
	}
	if _, known := typeName(ch.Type); !known {
		return 0, BadRequest("Invalid field type.")
	}
	f := store.ProfileField{Type: ch.Type}
	err := s.update(func(tx *store.Tx) (func(), error) {
		if err := applyProfileFieldChange(tx, &f, ch); err != nil {
			return nil, err
		}
		if err := tx.CreateProfileField(&f); err != nil {
			return nil, err
		}
		return s.profileFieldsEvent(tx)
	})
	return f.ID, internal("add profile field", err)
}

// UpdateProfileField changes what ch names of a field (administrators only).
func (s *Service) UpdateProfileField(actor store.User, id int64, ch ProfileFieldChange) error {
	if !isAdmin(actor) {
		return ErrNotAdmin
	}
	return internal("update profile field", s.update(func(tx *store.Tx) (func(), error) {
		f, err := tx.ProfileField(id)
		if err != nil {
			return nil, BadRequest("Field id %d not found.", id)
		}
		if err := applyProfileFieldChange(tx, &f, ch); err != nil {
			return nil, err
		}
		if err := tx.PutProfileField(f); err != nil {
			return nil, err
		}
		return s.profileFieldsEvent(tx)
	}))
}

// DeleteProfileField removes a field and everyone's value for it
// (administrators only).
func (s *Service) DeleteProfileField(actor store.User, id int64) error {
	if !isAdmin(actor) {
		return ErrNotAdmin
	}
	return internal("delete profile field", s.update(func(tx *store.Tx) (func(), error) {
		if _, err := tx.ProfileField(id); err != nil {
			return nil, BadRequest("Field id %d not found.", id)
		}
		if err := tx.DeleteProfileField(id); err != nil {
			return nil, err
		}
		return s.profileFieldsEvent(tx)
	}))
}

// ReorderProfileFields is PATCH /realm/profile_fields: order names every
// field once (administrators only).
func (s *Service) ReorderProfileFields(actor store.User, order []int64) error {
	if !isAdmin(actor) {
		return ErrNotAdmin
	}
	return internal("reorder profile fields", s.update(func(tx *store.Tx) (func(), error) {
		all, err := tx.ProfileFields()
		if err != nil {
			return nil, err
		}
		ids := make([]int64, len(all))
		for i, f := range all {
			ids[i] = f.ID
		}
		if !slices.Equal(sortedUnique(order), sortedUnique(ids)) || len(order) != len(ids) {
			return nil, BadRequest("Invalid order mapping.")
		}
		for _, f := range all {
			f.Order = int64(slices.Index(order, f.ID)) + 1
			if err := tx.PutProfileField(f); err != nil {
				return nil, err
			}
		}
		return s.profileFieldsEvent(tx)
	}))
}

// profileFieldsEvent tells everyone the whole new set of fields.
func (s *Service) profileFieldsEvent(tx *store.Tx) (func(), error) {
	users, err := activeUserIDs(tx)
	if err != nil {
		return nil, err
	}
	fields, err := tx.ProfileFields()
	if err != nil {
		return nil, err
	}
	e := events.Event{"type": "custom_profile_fields", "fields": profileFieldObjects(fields)}
	return func() { s.events.Publish(e, users) }, nil
}

func typeName(t int) (string, bool) {
	for name, info := range ProfileFieldTypes {
		if info["id"] == t {
			return name, true
		}
	}
	return "", false
}

// applyProfileFieldChange validates ch against f's type and the other
// fields, and applies it to f.
func applyProfileFieldChange(tx *store.Tx, f *store.ProfileField, ch ProfileFieldChange) error {
	if ch.FieldData != nil {
		data, name, hint, err := validateFieldData(f.Type, *ch.FieldData)
		if err != nil {
			return err
		}
		f.FieldData = data
		// An external account of a known service takes its name and hint.
		if name != "" {
			f.Name, f.Hint = name, hint
		}
	} else if f.ID == 0 && (f.Type == fieldSelect || f.Type == fieldExternalAccount) {
		return BadRequest("field_data is required for this field type.")
	}
	if ch.Name != nil && !(f.Type == fieldExternalAccount && isKnownExternalAccount(f.FieldData)) {
		f.Name = strings.TrimSpace(*ch.Name)
	}
	if ch.Hint != nil && !(f.Type == fieldExternalAccount && isKnownExternalAccount(f.FieldData)) {
		f.Hint = strings.TrimSpace(*ch.Hint)
	}
	if ch.EditableByUser != nil {
		f.NotEditableByUser = !*ch.EditableByUser
	}
	if ch.Required != nil {
		f.Required = *ch.Required
	}
	if ch.DisplayInProfileSummary != nil {
		f.DisplayInProfileSummary = *ch.DisplayInProfileSummary
	}
	if f.Name == "" {
		return BadRequest("Label cannot be blank.")
	}
	if err := checkLength("name", f.Name, maxProfileFieldName); err != nil {
		return err
	}
	if err := checkLength("hint", f.Hint, maxProfileFieldHint); err != nil {
		return err
	}
	if f.DisplayInProfileSummary && (f.Type == fieldLongText || f.Type == fieldUser) {
		return BadRequest("Field type not supported for display in profile summary.")
	}
	others, err := tx.ProfileFields()
	if err != nil {
		return err
	}
	summary := 0
	for _, o := range others {
		if o.ID == f.ID {
			continue
		}
		if strings.EqualFold(o.Name, f.Name) {
			return BadRequest("A field with that label already exists.")
		}
		if o.DisplayInProfileSummary {
			summary++
		}
	}
	if f.DisplayInProfileSummary && summary >= maxProfileSummaryRows {
		return BadRequest("Only %d custom profile fields can be displayed in the profile summary.", maxProfileSummaryRows)
	}
	return nil
}

func isKnownExternalAccount(fieldData string) bool {
	var data struct{ Subtype string }
	_ = json.Unmarshal([]byte(fieldData), &data)
	_, known := externalAccounts[data.Subtype]
	return known
}

// validateFieldData checks a list's options or an external account's
// subtype; other types take none. It returns the data as stored, and the
// name and hint a known external account brings.
func validateFieldData(fieldType int, raw string) (data, name, hint string, err error) {
	if err := checkLength("field_data", raw, maxProfileFieldData); err != nil {
		return "", "", "", err
	}
	switch fieldType {
	case fieldSelect:
		var options map[string]struct {
			Text  *string `json:"text"`
			Order *string `json:"order"`
		}
		if json.Unmarshal([]byte(raw), &options) != nil {
			return "", "", "", InvalidArgument("field_data", "field_data is not a dict")
		}
		if len(options) == 0 {
			return "", "", "", BadRequest("Field must have at least one choice.")
		}
		texts := map[string]bool{}
		for key, o := range options {
			if key == "" || o.Text == nil || o.Order == nil || strings.TrimSpace(*o.Text) == "" {
				return "", "", "", InvalidArgument("field_data", fmt.Sprintf("option %q needs a text and an order", key))
			}
			if texts[*o.Text] {
				return "", "", "", BadRequest("Field must not have duplicate choices.")
			}
			texts[*o.Text] = true
		}
		return raw, "", "", nil
	case fieldExternalAccount:
		var account struct {
			Subtype    string `json:"subtype"`
			URLPattern string `json:"url_pattern"`
		}
		if json.Unmarshal([]byte(raw), &account) != nil {
			return "", "", "", InvalidArgument("field_data", "field_data is not a dict")
		}
		if known, ok := externalAccounts[account.Subtype]; ok {
			encoded, _ := json.Marshal(map[string]string{"subtype": account.Subtype})
			return string(encoded), known.name, known.hint, nil
		}
		if account.Subtype != "custom" {
			return "", "", "", BadRequest("Invalid external account type")
		}
		if err := checkLength("url_pattern", account.URLPattern, maxProfileURLPattern); err != nil {
			return "", "", "", err
		}
		if strings.Count(account.URLPattern, "%(username)s") != 1 || !isWebURL(strings.Replace(account.URLPattern, "%(username)s", "x", 1)) {
			return "", "", "", BadRequest("Malformed URL pattern.")
		}
		encoded, _ := json.Marshal(account)
		return string(encoded), "", "", nil
	}
	if raw != "" && raw != "{}" {
		return "", "", "", BadRequest("Field data is only used by list and external account fields.")
	}
	return "", "", "", nil
}

func isWebURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// ProfileDataChange is one value of PATCH /users/me/profile_data: a string,
// or for a person picker a list of user IDs. Null or empty clears it.
type ProfileDataChange struct {
	ID    int64           `json:"id"`
	Value json.RawMessage `json:"value"`
}

// errNotEditableByUser is Zulip's answer to someone changing their value of
// a field that is not editable_by_user.
var errNotEditableByUser = BadRequest("You are not allowed to change this field. Contact an administrator to update it.")

// SetProfileData sets the actor's values for the fields named; only
// administrators change their own value of a field not editable by users.
func (s *Service) SetProfileData(actor store.User, changes []ProfileDataChange) error {
	return internal("set profile data", s.update(func(tx *store.Tx) (func(), error) {
		for _, ch := range changes {
			if f, err := tx.ProfileField(ch.ID); err == nil && f.NotEditableByUser && !isAdmin(actor) {
				return nil, errNotEditableByUser
			}
		}
		out, err := s.setProfileValues(tx, actor, changes)
		return out.publish, err
	}))
}

// setProfileValues sets or clears person's values, each checked against its
// field, and returns their realm_user update events.
func (s *Service) setProfileValues(tx *store.Tx, person store.User, changes []ProfileDataChange) (deliveries, error) {
	if person.IsBot() {
		return nil, ErrBotRequest // bots have no custom profile data
	}
	var out deliveries
	for _, ch := range changes {
		f, err := tx.ProfileField(ch.ID)
		if err != nil {
			return nil, BadRequest("Field id %d not found.", ch.ID)
		}
		value, err := validateProfileValue(tx, f, ch.Value)
		if err != nil {
			return nil, err
		}
		change := map[string]any{"id": f.ID, "value": nil}
		if value == "" {
			err = tx.DeleteProfileValue(person.ID, f.ID)
		} else {
			v := store.ProfileValue{FieldID: f.ID, Value: value}
			if f.Type == fieldShortText || f.Type == fieldLongText {
				v.Rendered = s.render(tx, person, value).HTML
			}
			change = profileDataEntry(v, map[string]any{"id": f.ID})
			err = tx.PutProfileValue(person.ID, v)
		}
		if err != nil {
			return nil, err
		}
		publish, err := s.realmUserEvent(tx, "update", map[string]any{"user_id": person.ID, "custom_profile_field": change})
		if err != nil {
			return nil, err
		}
		out = append(out, publish)
	}
	return out, nil
}

// ClearProfileData is DELETE /users/me/profile_data: the actor's values for
// the fields named go.
func (s *Service) ClearProfileData(actor store.User, fieldIDs []int64) error {
	changes := make([]ProfileDataChange, len(fieldIDs))
	for i, id := range fieldIDs {
		changes[i] = ProfileDataChange{ID: id}
	}
	return s.SetProfileData(actor, changes)
}

// validateProfileValue checks a value against its field's type and returns
// it as stored ("" to clear).
func validateProfileValue(tx *store.Tx, f store.ProfileField, raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if f.Type == fieldUser {
		var ids []int64
		if json.Unmarshal(raw, &ids) != nil {
			return "", InvalidArgument("value", fmt.Sprintf("%s is not a list of user IDs", f.Name))
		}
		if len(ids) == 0 {
			return "", nil
		}
		if len(sortedUnique(ids)) < len(ids) {
			return "", BadRequest("Duplicate user IDs in %s.", f.Name)
		}
		for _, id := range ids {
			if u, err := tx.User(id); err != nil || !u.IsActive {
				return "", BadRequest("Invalid user ID: %d", id)
			}
		}
		encoded, _ := json.Marshal(ids)
		return string(encoded), nil
	}
	var value string
	if json.Unmarshal(raw, &value) != nil {
		return "", InvalidArgument("value", fmt.Sprintf("%s is not a string", f.Name))
	}
	value = strings.TrimSpace(value)
	if value == "" {
		return "", nil
	}
	limit := maxShortProfileValue
	switch f.Type {
	case fieldLongText:
		limit = maxLongProfileValue
	case fieldURL:
		limit = maxURLProfileValue
	}
	if err := checkLength(f.Name, value, limit); err != nil {
		return "", err
	}
	switch f.Type {
	case fieldDate:
		if _, err := time.Parse(time.DateOnly, value); err != nil {
			return "", BadRequest("%s is not a date", f.Name)
		}
	case fieldURL:
		if !isWebURL(value) {
			return "", BadRequest("%s is not a URL", f.Name)
		}
	case fieldSelect:
		var options map[string]any
		_ = json.Unmarshal([]byte(f.FieldData), &options)
		if _, ok := options[value]; !ok {
			return "", BadRequest("'%s' is not a valid choice for '%s'.", value, f.Name)
		}
	}
	return value, nil
}

// profileDataEntry is a value as profile_data and realm_user events show
// it, added to entry.
func profileDataEntry(v store.ProfileValue, entry map[string]any) map[string]any {
	entry["value"] = v.Value
	if v.Rendered != "" {
		entry["rendered_value"] = v.Rendered
	}
	return entry
}

// addProfileData fills in the people's profile_data from everyone's
// values (bots have none).
func addProfileData(values map[int64]map[int64]store.ProfileValue, people []UserObject) {
	for i := range people {
		if people[i].ProfileData == nil {
			continue
		}
		for fieldID, v := range values[people[i].UserID] {
			people[i].ProfileData[strconv.FormatInt(fieldID, 10)] = profileDataEntry(v, map[string]any{})
		}
	}
}
