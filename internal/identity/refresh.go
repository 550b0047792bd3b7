package identity

import (
	"context"
	"errors"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/password"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

var errRefreshInvalid = apperr.New(apperr.Unauthorized, "refresh token is invalid or expired; log in again")

// Refresh rotates a session's refresh token and signs a new access token.
//
// The session row is locked FOR UPDATE while the presented secret is checked
// against the stored Argon2id hash and replaced, so of concurrent refreshes
// with one token the first rotates and the others see a stale secret. A
// presented secret that does not match is a reused (or forged) token
// (RFC 6819 5.2.2.3): the session is deleted, with every token it issued,
// and auth.refresh_reuse is audited in the same transaction.
// Errors: UNAUTHORIZED.
func (s *Service) Refresh(ctx context.Context, refreshToken string, client ClientInfo) (*LoginResult, error) {
	sid, secret, ok := splitRefreshToken(refreshToken)
	if !ok {
		return nil, errRefreshInvalid
	}
	var res *LoginResult
	var refused bool
	var ended uuid.UUID // the admin whose session a refused refresh deleted
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var sess models.AdminSession
		err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", sid).Take(&sess).Error
		if database.IsNotFound(err) {
			refused = true
			return nil
		}
		if err != nil {
			return err
		}
		now := s.now()
		if _, err := password.Verify(secret, sess.RefreshTokenHash); err != nil {
			if !errors.Is(err, password.ErrMismatch) {
				return err
			}
			refused, ended = true, sess.AdminID
			if err := tx.Delete(&sess).Error; err != nil {
				return err
			}
			return record(ctx, tx, sess.AdminID, ActionRefreshReuse, sess.ID.String(), map[string]any{"deviceId": sess.DeviceID}, client)
		}
		var a models.Admin
		if err := tx.Take(&a, "id = ?", sess.AdminID).Error; err != nil {
			return err
		}
		if !sess.ExpiresAt.After(now) || !sess.RefreshExpiresAt.After(now) || !a.IsActive {
			refused, ended = true, sess.AdminID
			return tx.Delete(&sess).Error
		}
		res, err = s.rotate(ctx, tx, &a, &sess, client, now)
		return err
	})
	if err != nil {
		return nil, database.Translate(err, "session")
	}
	if ended != uuid.Nil {
		s.stamps.Changed(ctx, ended)
	}
	if refused {
		return nil, errRefreshInvalid
	}
	return res, nil
}

// rotate gives the locked session sess a new refresh secret and returns the
// new tokens. The refresh token never outlives its session.
func (s *Service) rotate(ctx context.Context, tx *gorm.DB, a *models.Admin, sess *models.AdminSession, client ClientInfo, now time.Time) (*LoginResult, error) {
	refresh, secret, err := newRefreshToken(sess.ID)
	if err != nil {
		return nil, err
	}
	hash, err := password.Hash(secret)
	if err != nil {
		return nil, err
	}
	refreshExpires := now.Add(s.set.RefreshTTL)
	if refreshExpires.After(sess.ExpiresAt) {
		refreshExpires = sess.ExpiresAt
	}
	client = client.normalized()
	err = tx.Model(sess).Updates(map[string]any{
		"refresh_token_hash": hash, "refresh_expires_at": refreshExpires, "last_used_at": now,
		"ip_address": nonEmpty(client.IP), "user_agent": nonEmpty(client.UserAgent),
	}).Error
	if err != nil {
		return nil, err
	}
	tok, err := s.tokens(a, sess.ID, refresh, refreshExpires, now)
	if err != nil {
		return nil, err
	}
	if err := record(ctx, tx, a.ID, ActionRefresh, sess.ID.String(), nil, client); err != nil {
		return nil, err
	}
	return &LoginResult{Admin: a, Tokens: tok}, nil
}
