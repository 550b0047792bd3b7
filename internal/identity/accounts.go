package identity

import (
	"context"
	"net/mail"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/password"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
)

// MinPasswordLength is the shortest admin password accepted.
const MinPasswordLength = 12

// Accounts manages administrator accounts: creation (CLI and API), listing
// and updates.
type Accounts struct {
	db     *gorm.DB
	stamps *Stamps
}

// NewAccounts returns Accounts on db.
func NewAccounts(db *gorm.DB) *Accounts { return &Accounts{db: db} }

// WithStamps makes s replace an admin's stamp after every update, so the
// API processes check that admin's sessions in Postgres again (see Stamps).
func (s *Accounts) WithStamps(st *Stamps) *Accounts {
	s.stamps = st
	return s
}

// CreateInput is a new admin account.
type CreateInput struct {
	Email    string
	Name     string
	Password string
	Role     string
}

// Create adds an active admin with an Argon2id password hash.
// A keyed request retried after its process died answers with the admin it
// made (the change records its id, never the password, under the key).
// Errors: VALIDATION_ERROR (email, password, role), CONFLICT (email taken).
func (s *Accounts) Create(ctx context.Context, in CreateInput) (*models.Admin, error) {
	if ref, ok := idempotency.RecordedChange(ctx); ok {
		var a models.Admin
		if err := s.db.WithContext(ctx).Take(&a, "id = ?", ref).Error; err != nil {
			return nil, database.Translate(err, "admin")
		}
		return &a, nil
	}
	email, err := normalizeEmail(in.Email)
	if err != nil {
		return nil, err
	}
	if err := checkNewPassword(in.Password); err != nil {
		return nil, err
	}
	if !rbac.Role(in.Role).Valid() {
		return nil, apperr.Invalid("role", "must be one of: viewer, staff, admin, super_admin")
	}
	hash, err := password.Hash(in.Password)
	if err != nil {
		return nil, err
	}
	a := models.Admin{Email: email, Name: strings.TrimSpace(in.Name), PasswordHash: hash, Role: in.Role, IsActive: true}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(&a).Error; err != nil {
			return err
		}
		if err := idempotency.RecordChange(uow.Within(ctx, tx), a.ID.String()); err != nil {
			return err
		}
		// Read back, so that its times are as stored, as a retry reads them.
		return tx.Take(&a, "id = ?", a.ID).Error
	})
	if err != nil {
		if database.IsUnique(err) {
			return nil, apperr.Conflictf("an admin with this email already exists")
		}
		return nil, database.Translate(err, "admin")
	}
	return &a, nil
}

// normalizeEmail validates an email address and returns it trimmed and
// lower-cased. Errors: VALIDATION_ERROR on field "email".
func normalizeEmail(s string) (string, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Address != s || len(s) > 254 {
		return "", apperr.Invalid("email", "must be a valid email address")
	}
	return s, nil
}

// checkNewPassword enforces the admin password policy.
// Errors: VALIDATION_ERROR on field "password".
func checkNewPassword(pw string) error {
	if len(pw) < MinPasswordLength || len(pw) > password.MaxLength {
		return apperr.Invalid("password", "must be 12 to 256 characters")
	}
	return nil
}
