package domain

import "lanchat/backend/store"

// ExportConsent is whether one person lets administrators export their
// private data (their allow_private_data_export setting).
type ExportConsent struct {
	UserID    int64 `json:"user_id"`
	Consented bool  `json:"consented"`
}

// ExportConsents answers GET /export/realm/consents (level 295) for
// administrators: every active person's consent.
func (s *Service) ExportConsents(actor store.User) ([]ExportConsent, error) {
	if !isAdmin(actor) {
		return nil, ErrAdminRequired
	}
	out := []ExportConsent{}
	err := s.store.View(func(tx *store.Tx) error {
		users, err := tx.Users()
		for _, u := range users {
			if u.IsActive && !u.IsBot() {
				consented, _ := userSettings(u)["allow_private_data_export"].(bool)
				out = append(out, ExportConsent{UserID: u.ID, Consented: consented})
			}
		}
		return err
	})
	return out, internal("export consents", err)
}
