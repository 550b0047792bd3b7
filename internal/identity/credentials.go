package identity

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/password"
	"github.com/gocommerce/shop/models"
)

// CheckPassword returns the active admin with email and password. A bcrypt or
// weak Argon2 hash is replaced by an Argon2id hash after the password matched.
// Errors: UNAUTHORIZED (one message for every failure).
func (s *Service) CheckPassword(ctx context.Context, email, pw string) (*models.Admin, error) {
	a, _, err := s.checkPassword(ctx, email, pw)
	return a, err
}

// Reasons a password check failed, kept in the audit log only: clients get
// one answer for all of them.
const (
	reasonUnknownEmail  = "unknown_email"
	reasonWrongPassword = "wrong_password"
	reasonInactive      = "inactive"
)

// checkPassword is CheckPassword that also tells why a check failed and
// returns the admin the email named, if any, for the audit entry. reason is
// empty when err is not a credentials failure.
func (s *Service) checkPassword(ctx context.Context, email, pw string) (a *models.Admin, reason string, err error) {
	if len(pw) > password.MaxLength {
		return nil, reasonWrongPassword, errInvalidCredentials
	}
	if email == "" || len(email) > 254 || truncate(email, 254) != email {
		password.DummyVerify(pw)
		return nil, reasonUnknownEmail, errInvalidCredentials
	}
	var row models.Admin
	err = s.db.WithContext(ctx).Where("email = ?", email).Take(&row).Error
	if database.IsNotFound(err) {
		password.DummyVerify(pw)
		return nil, reasonUnknownEmail, errInvalidCredentials
	}
	if err != nil {
		return nil, "", database.Translate(err, "admin")
	}
	rehash, err := password.Verify(pw, row.PasswordHash)
	if err != nil {
		return &row, reasonWrongPassword, errInvalidCredentials
	}
	if !row.IsActive {
		return &row, reasonInactive, errInvalidCredentials
	}
	if rehash {
		h, err := password.Hash(pw)
		if err != nil {
			return nil, "", err
		}
		if err := s.db.WithContext(ctx).Model(&row).Update("password_hash", h).Error; err != nil {
			return nil, "", fmt.Errorf("identity.rehash: %w", err)
		}
		row.PasswordHash = h
	}
	return &row, "", nil
}
