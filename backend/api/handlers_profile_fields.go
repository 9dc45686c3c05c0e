package api

import "lanchat/backend/domain"

// listProfileFields answers GET /realm/profile_fields.
func listProfileFields(c *call) (J, error) {
	list, err := c.api.svc.ProfileFields()
	if err != nil {
		return nil, err
	}
	return J{"custom_fields": list}, nil
}

// profileFieldChange reads the optional fields of POST and PATCH
// /realm/profile_fields(/{id}); field_data is JSON, kept as sent.
func profileFieldChange(c *call) domain.ProfileFieldChange {
	var ch domain.ProfileFieldChange
	optional := func(name string) *string {
		if v, ok := c.p.raw(name); ok {
			return &v
		}
		return nil
	}
	ch.Name, ch.Hint = optional("name"), optional("hint")
	if v, ok := c.p.typed("field_data"); ok {
		ch.FieldData = &v
	}
	for name, dst := range map[string]**bool{"display_in_profile_summary": &ch.DisplayInProfileSummary, "required": &ch.Required} {
		if c.p.has(name) {
			v := c.p.optBool(name, false)
			*dst = &v
		}
	}
	return ch
}

func addProfileField(c *call) (J, error) {
	ch := profileFieldChange(c)
	ch.Type = int(c.p.int("field_type"))
	if err := c.p.err(); err != nil {
		return nil, err
	}
	id, err := c.api.svc.AddProfileField(c.user, ch)
	if err != nil {
		return nil, err
	}
	return J{"id": id}, nil
}

func updateProfileField(c *call) (J, error) {
	id := c.p.pathInt("field_id")
	ch := profileFieldChange(c)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.UpdateProfileField(c.user, id, ch)
}

func deleteProfileField(c *call) (J, error) {
	id := c.p.pathInt("field_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.DeleteProfileField(c.user, id)
}

func reorderProfileFields(c *call) (J, error) {
	var order []int64
	c.p.json("order", &order)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.ReorderProfileFields(c.user, order)
}

// setProfileData answers PATCH /users/me/profile_data: data is a JSON list
// of {"id", "value"}.
func setProfileData(c *call) (J, error) {
	var data []domain.ProfileDataChange
	c.p.json("data", &data)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.SetProfileData(c.user, data)
}

// clearProfileData answers DELETE /users/me/profile_data: data is a JSON
// list of field IDs.
func clearProfileData(c *call) (J, error) {
	var ids []int64
	c.p.json("data", &ids)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.ClearProfileData(c.user, ids)
}
