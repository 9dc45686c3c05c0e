package domain

import (
	"encoding/base64"
	"regexp"
	"slices"
	"strings"

	"lanchat/backend/store"
)

// Device kinds, with Zulip's numbers.
const (
	PushDeviceAPNs = 1
	PushDeviceFCM  = 2
)

// apnsAppID is the form Zulip accepts for an APNs token's app ID.
var apnsAppID = regexp.MustCompile(`^[.a-zA-Z0-9-]+$`)

// validatePushToken is Zulip's validate_token: a token of 1 to 4096
// characters, an APNs one decodable as base64 (the way Python decodes it,
// ignoring characters outside the alphabet).
func validatePushToken(token string, kind int) error {
	if token == "" || len(token) > 4096 {
		return BadRequest("Empty or invalid length token")
	}
	if kind == PushDeviceAPNs {
		kept := strings.Map(func(r rune) rune {
			if r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '+' || r == '/' || r == '=' {
				return r
			}
			return -1
		}, token)
		if _, err := base64.StdEncoding.DecodeString(kept); err != nil {
			return BadRequest("Invalid APNS token")
		}
	}
	return nil
}

// AddPushDevice is POST /users/me/apns_device_token (with appID) and
// /users/me/android_gcm_reg_id: the device is recorded, as a Zulip server
// without push notifications configured records it, and nothing is pushed
// (Lanchat reaches no push service: server_settings says
// push_notifications_enabled false). Registering a device again is no
// error. Bots are refused, as in Zulip.
func (s *Service) AddPushDevice(actor store.User, kind int, token, appID string) error {
	if actor.IsBot() {
		return ErrBotRequest
	}
	if kind == PushDeviceAPNs && !apnsAppID.MatchString(appID) {
		return BadRequest("appid has invalid format")
	}
	if err := validatePushToken(token, kind); err != nil {
		return err
	}
	return internal("add push device", s.store.Update(func(tx *store.Tx) error {
		u, err := tx.User(actor.ID)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(u.PushDevices, func(d store.PushDevice) bool { return d.Kind == kind && d.Token == token }) {
			return nil
		}
		u.PushDevices = append(u.PushDevices, store.PushDevice{Kind: kind, Token: token, AppID: appID})
		return tx.PutUser(u)
	}))
}

// RemovePushDevice is DELETE on the same paths: the device is forgotten;
// one never registered answers Zulip's "Token does not exist".
func (s *Service) RemovePushDevice(actor store.User, kind int, token string) error {
	if actor.IsBot() {
		return ErrBotRequest
	}
	if err := validatePushToken(token, kind); err != nil {
		return err
	}
	return internal("remove push device", s.store.Update(func(tx *store.Tx) error {
		u, err := tx.User(actor.ID)
		if err != nil {
			return err
		}
		kept := slices.DeleteFunc(slices.Clone(u.PushDevices), func(d store.PushDevice) bool { return d.Kind == kind && d.Token == token })
		if len(kept) == len(u.PushDevices) {
			return BadRequest("Token does not exist")
		}
		u.PushDevices = kept
		return tx.PutUser(u)
	}))
}

// SendTestPushNotification is POST /mobile_push/test_notification (levels
// 217, 234): with a token, that device of the actor's must be registered
// (Zulip's INVALID_PUSH_DEVICE_TOKEN, "Device not recognized"); then it
// answers success and nothing is pushed, as a Zulip server without push
// notifications configured drops the notification.
func (s *Service) SendTestPushNotification(actor store.User, token *string) error {
	if actor.IsBot() {
		return ErrBotRequest
	}
	return internal("test push notification", s.store.View(func(tx *store.Tx) error {
		u, err := tx.User(actor.ID)
		if err != nil {
			return err
		}
		if token != nil && !slices.ContainsFunc(u.PushDevices, func(d store.PushDevice) bool { return d.Token == *token }) {
			return errorf(CodeInvalidPushDeviceToken, "Device not recognized")
		}
		return nil
	}))
}
