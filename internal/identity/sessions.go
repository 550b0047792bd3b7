package identity

import (
	"context"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
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
// A keyed request retried after its process died answers as the revoke
// did (it records the session under the key). Errors: NOT_FOUND.
func (s *Service) RevokeSession(ctx context.Context, adminID, sid uuid.UUID) error {
	if _, ok := idempotency.RecordedChange(ctx); ok {
		return nil
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Where("id = ? AND admin_id = ?", sid, adminID).Delete(&models.AdminSession{})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return apperr.Missing("session")
		}
		return idempotency.RecordChange(uow.Within(ctx, tx), sid.String())
	})
	if err != nil {
		return database.Translate(err, "session")
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
