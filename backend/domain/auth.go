package domain

import (
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"strings"

	"golang.org/x/crypto/bcrypt"

	"lanchat/backend/store"
)

const apiKeyAlphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// newAPIKey returns 32 random alphanumerics, as Zulip's keys are.
func newAPIKey() string {
	return randomString(32, apiKeyAlphabet)
}

// randomString draws n characters uniformly from alphabet using crypto/rand
// (rejection sampling avoids modulo bias).
func randomString(n int, alphabet string) string {
	var b strings.Builder
	buf := make([]byte, 1)
	limit := 256 - 256%len(alphabet)
	for b.Len() < n {
		rand.Read(buf)
		if int(buf[0]) < limit {
			b.WriteByte(alphabet[int(buf[0])%len(alphabet)])
		}
	}
	return b.String()
}

// MaxPasswordBytes is bcrypt's limit on what it hashes, and so the longest
// password (register's password_max_length, level 338).
const MaxPasswordBytes = 72

// hashPassword uses bcrypt, whose cost makes offline guessing slow.
func hashPassword(password string) (string, error) {
	if len(password) > MaxPasswordBytes {
		return "", BadRequest("The password is too long: at most %d bytes (%d letters without accents).", MaxPasswordBytes, MaxPasswordBytes)
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.DefaultCost)
	return string(h), err
}

// Authenticate resolves HTTP Basic credentials (email or bot email plus API
// key) to an active account. Keys are compared in constant time.
func (s *Service) Authenticate(email, apiKey string) (store.User, error) {
	version := s.store.AccountsVersion()
	u, cached := s.accounts.get(version, email)
	if !cached {
		err := s.store.View(func(tx *store.Tx) error {
			var err error
			u, err = tx.UserByEmail(email)
			return err
		})
		if errors.Is(err, store.ErrNotFound) {
			return store.User{}, ErrBadKey
		}
		if err != nil {
			return store.User{}, internal("authenticate", err)
		}
		s.accounts.put(version, email, u)
	}
	if subtle.ConstantTimeCompare([]byte(u.APIKey), []byte(apiKey)) != 1 {
		return store.User{}, ErrBadKey
	}
	if !u.IsActive {
		return store.User{}, ErrInactive
	}
	return u, nil
}

// CheckRouteAccess is the one rule for which routes an authenticated
// account may call at all, given what the route admits. Incoming-webhook
// bots may call only routes that admit them: in Zulip, the integration URLs
// and sending a message.
func CheckRouteAccess(u store.User, admitsIncomingWebhookBots bool) *Error {
	if u.BotType == store.BotIncomingWebhook && !admitsIncomingWebhookBots {
		return ErrWebhookBotAPI
	}
	return nil
}

// APIKeyLogin is the answer to a successful fetch_api_key.
type APIKeyLogin struct {
	APIKey string `json:"api_key"`
	Email  string `json:"email"`
	UserID int64  `json:"user_id"`
}

// FetchAPIKey checks an email and password and returns the account's key.
func (s *Service) FetchAPIKey(username, password string) (APIKeyLogin, error) {
	u, err := s.checkPassword(username, password)
	if err != nil {
		return APIKeyLogin{}, err
	}
	return APIKeyLogin{APIKey: u.APIKey, Email: u.Email, UserID: u.ID}, nil
}

var dummyHash, _ = bcrypt.GenerateFromPassword([]byte("not a password"), bcrypt.DefaultCost)

// DevFetchAPIKey logs in without a password, on development servers only.
func (s *Service) DevFetchAPIKey(username string) (APIKeyLogin, error) {
	if !s.cfg.Dev {
		return APIKeyLogin{}, BadRequest("Development environment not enabled.")
	}
	var u store.User
	err := s.store.View(func(tx *store.Tx) error {
		var err error
		u, err = tx.UserByEmail(username)
		return err
	})
	if errors.Is(err, store.ErrNotFound) {
		return APIKeyLogin{}, ErrLogin
	}
	if err != nil {
		return APIKeyLogin{}, internal("dev fetch api key", err)
	}
	if !u.IsActive {
		return APIKeyLogin{}, ErrInactive
	}
	return APIKeyLogin{APIKey: u.APIKey, Email: u.Email, UserID: u.ID}, nil
}

// AuthenticateKey resolves an API key alone (webhook URLs carry only the
// key) to an active account, comparing every key in constant time.
func (s *Service) AuthenticateKey(key string) (store.User, error) {
	var found store.User
	err := s.store.View(func(tx *store.Tx) error {
		users, err := tx.Users()
		for _, u := range users {
			if subtle.ConstantTimeCompare([]byte(u.APIKey), []byte(key)) == 1 {
				found = u
			}
		}
		return err
	})
	if err != nil {
		return store.User{}, internal("authenticate key", err)
	}
	if found.ID == 0 {
		return store.User{}, ErrBadKey
	}
	if !found.IsActive {
		return store.User{}, ErrInactive
	}
	return found, nil
}
