package domain

import (
	"crypto/subtle"
	"unicode/utf8"

	"lanchat/backend/store"
)

// OrganizationSetup is what the first person fills in: the organization's
// name and their own account, which becomes its owner.
type OrganizationSetup struct {
	RealmName string
	Owner     NewUser
}

// MinPasswordLength is the shortest password a person may choose.
const MinPasswordLength = 8

// firstStream is the stream a new organization starts with; everyone who
// joins later is subscribed to it.
const firstStream = "general"

var (
	errBadSetupToken = errorf(CodeAuthenticationFailed, "Invalid setup token.")
	errAlreadySetUp  = BadRequest("This organization is already set up.")
)

// SetupNeeded tells whether the organization still waits for its owner:
// no active human account exists yet.
func (s *Service) SetupNeeded() (bool, error) {
	var needed bool
	err := s.store.View(func(tx *store.Tx) error {
		var err error
		needed, err = noPeopleYet(tx)
		return err
	})
	return needed, internal("read accounts", err)
}

func noPeopleYet(tx *store.Tx) (bool, error) {
	users, err := tx.Users()
	for _, u := range users {
		if u.IsActive && !u.IsBot() {
			return false, err
		}
	}
	return true, err
}

// SetupToken is the secret that proves the person setting up sits at the
// host (it is shown only in the host's log and window), or "" once set up:
// anyone on the LAN can reach the server before an owner exists.
func (s *Service) SetupToken() string {
	if needed, err := s.SetupNeeded(); err != nil || !needed {
		return ""
	}
	s.setupOnce.Do(func() { s.setupToken = randomString(32, apiKeyAlphabet) })
	return s.setupToken
}

// SetUpOrganization names the organization, creates its owner and its first
// stream, in one transaction, given the host's setup token.
func (s *Service) SetUpOrganization(token string, req OrganizationSetup) (store.User, error) {
	want := s.SetupToken()
	if want == "" {
		return store.User{}, errAlreadySetUp
	}
	if subtle.ConstantTimeCompare([]byte(token), []byte(want)) != 1 {
		return store.User{}, errBadSetupToken
	}
	name, err := ValidateRealmName(req.RealmName)
	if err != nil {
		return store.User{}, err
	}
	if utf8.RuneCountInString(req.Owner.Password) < MinPasswordLength {
		return store.User{}, BadRequest("The password must be at least %d characters long.", MinPasswordLength)
	}
	req.Owner.Role, req.Owner.BotType = store.RoleOwner, 0
	var owner store.User
	err = s.store.Update(func(tx *store.Tx) error {
		if empty, err := noPeopleYet(tx); err != nil || !empty {
			return cmpErr(err, errAlreadySetUp)
		}
		if err := ensureRealm(tx, name, s.now().Unix()); err != nil {
			return err
		}
		realm, err := tx.Realm()
		if err != nil {
			return err
		}
		st, err := s.createStream(tx, firstStream, "Everyone's stream", false, 0)
		if err != nil {
			return err
		}
		realm.Name, realm.DefaultStreamIDs = name, []int64{st.ID}
		if err := tx.PutRealm(realm); err != nil {
			return err
		}
		// createUser subscribes the owner to the default stream.
		owner, err = s.createUser(tx, req.Owner)
		return err
	})
	return owner, internal("set up organization", err)
}

// cmpErr is err when there is one, else the refusal.
func cmpErr(err, refusal error) error {
	if err != nil {
		return err
	}
	return refusal
}
