package api

import "lanchat/backend/domain"

func updateOwnSettings(c *call) (J, error) {
	var ch domain.SettingsChange
	ch.FullName = c.p.strGiven("full_name")
	if c.p.has("new_password") {
		pw := c.p.optStr("new_password", "")
		ch.NewPassword = &pw
		ch.OldPassword = c.p.optStr("old_password", "")
	}
	for _, name := range domain.PreferenceNames() {
		if c.p.has(name) {
			ch.Preferences = append(ch.Preferences, domain.Preference{Name: name, Raw: c.p.optStr(name, "")})
		}
	}
	if err := c.p.err(); err != nil {
		return nil, err
	}
	ch.Session = sessionToken(c)
	return nil, c.api.svc.UpdateOwnSettings(c.user, ch)
}

func markOnboardingStepRead(c *call) (J, error) {
	step := c.p.str("onboarding_step")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.MarkOnboardingStepRead(c.user, step)
}
