package identity

import (
	"context"
	"strings"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// LoginResult is the outcome of a login step: a new session (Tokens), or for
// an admin with two-factor authentication a Challenge to complete with
// CompleteTwoFactorLogin, in which case no session exists yet.
type LoginResult struct {
	Admin     *models.Admin
	Tokens    *Tokens
	Challenge *Challenge
}

// Login checks email and password. Without 2FA it opens a session; with 2FA
// it returns a Challenge and opens nothing. Every attempt is audited:
// auth.login (with the session), auth.2fa_challenge, or auth.login_failed
// with the email tried and why (never the password).
// Errors: UNAUTHORIZED (one message for an unknown email, a wrong password
// and a deactivated account), SERVICE_UNAVAILABLE.
func (s *Service) Login(ctx context.Context, email, pw string, client ClientInfo) (*LoginResult, error) {
	email = strings.TrimSpace(email)
	a, reason, err := s.checkPassword(ctx, email, pw)
	if err != nil {
		if reason == "" {
			return nil, err
		}
		var adminID uuid.UUID
		if a != nil {
			adminID = a.ID
		}
		meta := map[string]any{"email": truncate(email, 254), "reason": reason}
		if rerr := record(ctx, s.db, adminID, ActionLoginFailed, "", meta, client); rerr != nil {
			return nil, database.Translate(rerr, "audit entry")
		}
		return nil, err
	}
	res := &LoginResult{Admin: a}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		enabled, err := twoFactorEnabled(tx, a.ID)
		if err != nil {
			return err
		}
		if enabled {
			res.Challenge, err = s.createChallenge(tx, a, client)
			if err != nil {
				return err
			}
			return record(ctx, tx, a.ID, ActionTwoFactorPending, a.ID.String(), nil, client)
		}
		res.Tokens, err = s.openSession(tx, a, client)
		if err != nil {
			return err
		}
		return record(ctx, tx, a.ID, ActionLogin, res.Tokens.SessionID.String(), map[string]any{"method": "password"}, client)
	})
	if err != nil {
		return nil, database.Translate(err, "session")
	}
	return res, nil
}

// twoFactorEnabled reports whether admin has 2FA switched on.
func twoFactorEnabled(db *gorm.DB, adminID uuid.UUID) (bool, error) {
	var n int64
	err := db.Model(&models.AdminTwoFactor{}).Where("admin_id = ? AND enabled", adminID).Count(&n).Error
	return n > 0, err
}
