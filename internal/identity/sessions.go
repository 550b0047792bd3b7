package identity

import (
	"context"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Logout ends session sid of the admin. Its access token is refused from
// the next request on, since every request checks that its session exists.
// Errors: SERVICE_UNAVAILABLE.
func (s *Service) Logout(ctx context.Context, adminID, sid uuid.UUID) error {
	err := s.db.WithContext(ctx).Where("id = ? AND admin_id = ?", sid, adminID).Delete(&models.AdminSession{}).Error
	if err != nil {
		return database.Translate(err, "session")
	}
	s.stamps.Changed(ctx, adminID)
	return nil
}

// LogoutAll ends every session of the admin and returns how many there were.
// Errors: SERVICE_UNAVAILABLE.
func (s *Service) LogoutAll(ctx context.Context, adminID uuid.UUID) (int64, error) {
	res := s.db.WithContext(ctx).Where("admin_id = ?", adminID).Delete(&models.AdminSession{})
	if res.Error != nil {
		return 0, database.Translate(res.Error, "session")
	}
	s.stamps.Changed(ctx, adminID)
	return res.RowsAffected, nil
}

// Sessions lists the admin's unexpired sessions, newest first.
// Errors: SERVICE_UNAVAILABLE.
func (s *Service) Sessions(ctx context.Context, adminID uuid.UUID) ([]models.AdminSession, error) {
	var rows []models.AdminSession
	err := s.db.WithContext(ctx).Where("admin_id = ? AND expires_at > ?", adminID, s.now()).
		Order("created_at DESC, id").Find(&rows).Error
	return rows, database.Translate(err, "session")
}

// RevokeSession ends one session of the admin. Another admin's session is
// reported as not found, so session ids cannot be probed.
// Errors: NOT_FOUND.
func (s *Service) RevokeSession(ctx context.Context, adminID, sid uuid.UUID) error {
	res := s.db.WithContext(ctx).Where("id = ? AND admin_id = ?", sid, adminID).Delete(&models.AdminSession{})
	if res.Error != nil {
		return database.Translate(res.Error, "session")
	}
	if res.RowsAffected == 0 {
		return apperr.Missing("session")
	}
	s.stamps.Changed(ctx, adminID)
	return nil
}

// Account is an administrator account with its 2FA state, as /auth/me and
// the admin users routes show it.
type Account struct {
	models.Admin
	TwoFactorEnabled bool
}

// Me returns the admin's account.
// Errors: UNAUTHORIZED when the account no longer exists.
func (s *Service) Me(ctx context.Context, adminID uuid.UUID) (*Account, error) {
	var a models.Admin
	err := s.db.WithContext(ctx).Take(&a, "id = ?", adminID).Error
	if database.IsNotFound(err) {
		return nil, ErrUnauthenticated
	}
	if err != nil {
		return nil, database.Translate(err, "admin")
	}
	on, err := twoFactorEnabled(s.db.WithContext(ctx), adminID)
	if err != nil {
		return nil, database.Translate(err, "admin")
	}
	return &Account{Admin: a, TwoFactorEnabled: on}, nil
}
