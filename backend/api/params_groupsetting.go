package api

import (
	"bytes"
	"encoding/json"
	"errors"

	"lanchat/backend/domain"
)

// groupSettingParam is a group-setting value as clients send it: a group's
// ID, or {"direct_members": [...], "direct_subgroups": [...]} (either
// field may be left out; no other is taken).
type groupSettingParam domain.GroupSettingValue

func (v *groupSettingParam) UnmarshalJSON(b []byte) error {
	var id int64
	if json.Unmarshal(b, &id) == nil {
		*v = groupSettingParam{Group: id}
		return nil
	}
	var set struct {
		Members   []int64 `json:"direct_members"`
		Subgroups []int64 `json:"direct_subgroups"`
	}
	if err := strictJSON(b, &set); err != nil {
		return err
	}
	*v = groupSettingParam{Members: set.Members, Subgroups: set.Subgroups}
	return nil
}

// groupSettingChangeParam is an update of a group setting, Zulip 9.0's
// {"new": value, "old": expected current value}; "new" is required.
type groupSettingChangeParam domain.GroupSettingChange

func (c *groupSettingChangeParam) UnmarshalJSON(b []byte) error {
	var ch struct {
		New *groupSettingParam `json:"new"`
		Old *groupSettingParam `json:"old"`
	}
	if err := strictJSON(b, &ch); err != nil {
		return err
	}
	if ch.New == nil {
		return errors.New(`"new" is required`)
	}
	*c = groupSettingChangeParam{New: domain.GroupSettingValue(*ch.New)}
	if ch.Old != nil {
		old := domain.GroupSettingValue(*ch.Old)
		c.Old = &old
	}
	return nil
}

// strictJSON decodes one JSON object, refusing fields v does not have.
func strictJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// groupSettingChanges reads the named group settings of a change, each as
// {"new", "old"}: PATCH /realm's, PATCH /user_groups/{id}'s.
func groupSettingChanges(p *params, names []string) map[string]domain.GroupSettingChange {
	out := map[string]domain.GroupSettingChange{}
	for _, name := range names {
		var ch groupSettingChangeParam
		if p.optJSON(name, &ch) {
			out[name] = domain.GroupSettingChange(ch)
		}
	}
	return out
}

// groupSettingUpdateParam is a stream's group setting in PATCH
// /streams/{id}: Zulip 10.0's {"new", "old"}, or a plain group-setting
// value as Zulip 9.0 took it.
type groupSettingUpdateParam domain.GroupSettingChange

func (u *groupSettingUpdateParam) UnmarshalJSON(b []byte) error {
	var ch groupSettingChangeParam
	if ch.UnmarshalJSON(b) == nil {
		*u = groupSettingUpdateParam(ch)
		return nil
	}
	var v groupSettingParam
	if err := v.UnmarshalJSON(b); err != nil {
		return err
	}
	*u = groupSettingUpdateParam{New: domain.GroupSettingValue(v)}
	return nil
}

// streamGroupSettingChanges reads PATCH /streams/{id}'s group settings.
func streamGroupSettingChanges(p *params) map[string]domain.GroupSettingChange {
	out := map[string]domain.GroupSettingChange{}
	for _, name := range domain.StreamGroupSettingNames() {
		var u groupSettingUpdateParam
		if p.optJSON(name, &u) {
			out[name] = domain.GroupSettingChange(u)
		}
	}
	return out
}

// groupSettingValues reads the named group settings given to something
// being created: the streams POST /users/me/subscriptions creates, a new
// user group.
func groupSettingValues(p *params, names []string) map[string]domain.GroupSettingValue {
	out := map[string]domain.GroupSettingValue{}
	for _, name := range names {
		var v groupSettingParam
		if p.optJSON(name, &v) {
			out[name] = domain.GroupSettingValue(v)
		}
	}
	return out
}
