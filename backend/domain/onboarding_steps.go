package domain

import (
	"slices"

	"lanchat/backend/events"
	"lanchat/backend/store"
)

// oneTimeNotices are the onboarding steps of Zulip 9.0: notices its web
// app shows once (level 233; hotspots went at level 259).
var oneTimeNotices = []string{
	"visibility_policy_banner",
	"intro_inbox_view_modal",
	"intro_recent_view_modal",
	"first_stream_created_banner",
	"jump_to_conversation_banner",
	"non_interleaved_view_messages_fading",
	"interleaved_view_messages_fading",
}

// OnboardingStep is one notice a client may still show the person.
type OnboardingStep struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

// onboardingSteps are the notices u has not dismissed (register's
// onboarding_steps).
func onboardingSteps(u store.User) []OnboardingStep {
	out := []OnboardingStep{}
	for _, name := range oneTimeNotices {
		if !slices.Contains(u.OnboardingStepsSeen, name) {
			out = append(out, OnboardingStep{Type: "one_time_notice", Name: name})
		}
	}
	return out
}

// MarkOnboardingStepRead is POST /users/me/onboarding_steps: the person has
// seen the notice, which their clients then stop showing (an
// onboarding_steps event to them with those left). Bots are refused, as in
// Zulip.
func (s *Service) MarkOnboardingStepRead(actor store.User, step string) error {
	if actor.IsBot() {
		return ErrBotRequest
	}
	if !slices.Contains(oneTimeNotices, step) {
		return BadRequest("Unknown onboarding_step: %s", step)
	}
	return internal("mark onboarding step", s.update(func(tx *store.Tx) (func(), error) {
		u, err := tx.User(actor.ID)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(u.OnboardingStepsSeen, step) {
			u.OnboardingStepsSeen = append(u.OnboardingStepsSeen, step)
			if err := tx.PutUser(u); err != nil {
				return nil, err
			}
		}
		var out deliveries
		out.add(s, events.Event{"type": "onboarding_steps", "onboarding_steps": onboardingSteps(u)}, []int64{u.ID})
		return out.publish, nil
	}))
}
