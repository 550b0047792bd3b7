// Package identity owns administrator accounts and their sign-in: accounts
// (creation, listing, roles, deactivation; Accounts), password and
// second-factor login, stateful sessions with rotating refresh tokens, the
// per-request check that the access token's session still exists (Service),
// and the security emails sent to administrators (Mailer).
package identity

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/password"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Settings are the admin authentication settings from the configuration.
type Settings struct {
	JWTSecret      []byte
	AccessTokenTTL time.Duration
	RefreshTTL     time.Duration
	SessionTTL     time.Duration
	// Issuer labels TOTP secrets and QR codes (APP_NAME); "Shop" when empty.
	Issuer string
	// MaxTwoFactorFailures wrong login-step codes of one admin within
	// TwoFactorLockout lock the second factor for TwoFactorLockout
	// (defaults DefaultMaxTwoFactorFailures, DefaultTwoFactorLockout).
	MaxTwoFactorFailures int
	TwoFactorLockout     time.Duration
}

// Service authenticates administrators.
type Service struct {
	db  *gorm.DB
	set Settings
	now func() time.Time
	// queue, when set, is nudged after an admin email is written.
	queue tasks.Enqueuer
	log   *slog.Logger
	// stamps, when set, let Authenticate reuse the sessions it checked.
	stamps *Stamps
}

// New returns a Service on db.
func New(db *gorm.DB, set Settings) *Service {
	return &Service{db: db, set: set, now: func() time.Time { return time.Now().UTC() }}
}

// WithStamps lets s reuse the sessions it checked while their admin's stamp
// is unchanged, and makes s replace the stamp after every change that ends
// a session (see Stamps). Without it every request asks Postgres.
func (s *Service) WithStamps(st *Stamps) *Service {
	s.stamps = st
	return s
}

// Principal is the authenticated administrator of a request.
type Principal struct {
	AdminID   uuid.UUID
	Email     string
	Name      string
	Role      string
	SessionID uuid.UUID
}

// Tokens is what a successful login or refresh hands out.
type Tokens struct {
	AccessToken  string
	RefreshToken string
	ExpiresIn    int // seconds
	SessionID    uuid.UUID
	// RefreshExpiresAt bounds the refresh cookie's lifetime.
	RefreshExpiresAt time.Time
}

// errInvalidCredentials is the one answer for an unknown email, a wrong
// password and a deactivated account, so none of them can be told apart.
var errInvalidCredentials = apperr.New(apperr.Unauthorized, "invalid email or password")

// ErrUnauthenticated is returned for a missing, invalid or ended session.
var ErrUnauthenticated = apperr.New(apperr.Unauthorized, "authentication required")

// OpenSession creates a session for a and returns its tokens. The refresh
// token's secret part is stored only as an Argon2id hash.
// Errors: SERVICE_UNAVAILABLE when the database is unreachable.
func (s *Service) OpenSession(ctx context.Context, a *models.Admin, client ClientInfo) (*Tokens, error) {
	var tok *Tokens
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		tok, err = s.openSession(tx, a, client)
		return err
	})
	if err != nil {
		return nil, database.Translate(err, "session")
	}
	return tok, nil
}

// openSession inserts a session row in tx, drops the admin's expired
// sessions, stamps the login time and signs the access token.
func (s *Service) openSession(tx *gorm.DB, a *models.Admin, client ClientInfo) (*Tokens, error) {
	now := s.now()
	sid := uuid.New()
	refresh, secret, err := newRefreshToken(sid)
	if err != nil {
		return nil, err
	}
	hash, err := password.Hash(secret)
	if err != nil {
		return nil, err
	}
	client = client.normalized()
	sess := models.AdminSession{
		ID: sid, AdminID: a.ID, RefreshTokenHash: hash, DeviceID: client.DeviceID,
		UserAgent: nonEmpty(client.UserAgent), IPAddress: nonEmpty(client.IP),
		CreatedAt: now, LastUsedAt: now,
		ExpiresAt:        now.Add(s.set.SessionTTL),
		RefreshExpiresAt: now.Add(minDuration(s.set.RefreshTTL, s.set.SessionTTL)),
	}
	if err := tx.Where("admin_id = ? AND expires_at <= ?", a.ID, now).Delete(&models.AdminSession{}).Error; err != nil {
		return nil, fmt.Errorf("identity.open_session: %w", err)
	}
	if err := tx.Create(&sess).Error; err != nil {
		return nil, fmt.Errorf("identity.open_session: %w", err)
	}
	if err := tx.Model(a).Update("last_login_at", now).Error; err != nil {
		return nil, fmt.Errorf("identity.open_session: %w", err)
	}
	return s.tokens(a, sid, refresh, sess.RefreshExpiresAt, now)
}

// tokens signs the access token of session sid and bundles it with refresh.
func (s *Service) tokens(a *models.Admin, sid uuid.UUID, refresh string, refreshExpires, now time.Time) (*Tokens, error) {
	access, err := signAccessToken(s.set.JWTSecret, a.ID, a.Email, a.Role, sid, now, s.set.AccessTokenTTL)
	if err != nil {
		return nil, err
	}
	return &Tokens{AccessToken: access, RefreshToken: refresh, ExpiresIn: int(s.set.AccessTokenTTL.Seconds()),
		SessionID: sid, RefreshExpiresAt: refreshExpires}, nil
}

// Authenticate verifies an access token and that its session still exists,
// is unexpired and belongs to an active admin. An expired session found here
// is deleted. Role and email come from the database, not the token, so a role
// change or deactivation takes effect at once. With stamps, a session this
// process checked is reused while its admin's stamp is unchanged and for at
// most sessionRecheck: one Redis GET instead of a Postgres query.
// Errors: UNAUTHORIZED.
func (s *Service) Authenticate(ctx context.Context, raw string) (*Principal, error) {
	claims, err := parseAccessToken(s.set.JWTSecret, raw)
	if err != nil {
		return nil, ErrUnauthenticated
	}
	sid, err1 := uuid.Parse(claims.SessionID)
	adminID, err2 := uuid.Parse(claims.Subject)
	if err1 != nil || err2 != nil {
		return nil, ErrUnauthenticated
	}
	now := s.now()
	stamp := s.stamps.current(ctx, adminID)
	if e, ok := s.stamps.remembered(sid, adminID, stamp, now); ok {
		if e.lastUsedAt.Before(now.Add(-touchEvery)) {
			s.touch(ctx, sid)
		}
		p := e.principal
		return &p, nil
	}
	var row struct {
		ExpiresAt  time.Time
		LastUsedAt time.Time
		Email      string
		Name       string
		Role       string
		IsActive   bool
	}
	err = s.db.WithContext(ctx).Table("admin_sessions s").
		Select("s.expires_at, s.last_used_at, a.email, a.name, a.role, a.is_active").
		Joins("JOIN admins a ON a.id = s.admin_id").
		Where("s.id = ? AND s.admin_id = ?", sid, adminID).Take(&row).Error
	if database.IsNotFound(err) {
		return nil, ErrUnauthenticated
	}
	if err != nil {
		return nil, database.Translate(err, "session")
	}
	if !row.ExpiresAt.After(now) {
		s.db.WithContext(ctx).Delete(&models.AdminSession{}, "id = ?", sid)
		return nil, ErrUnauthenticated
	}
	if !row.IsActive {
		return nil, ErrUnauthenticated
	}
	p := Principal{AdminID: adminID, Email: row.Email, Name: row.Name, Role: row.Role, SessionID: sid}
	s.stamps.remember(sid, checkedSession{principal: p, expiresAt: row.ExpiresAt, lastUsedAt: row.LastUsedAt, stamp: stamp, checkedAt: now})
	if row.LastUsedAt.Before(now.Add(-touchEvery)) {
		s.touch(ctx, sid)
	}
	return &p, nil
}

// touchEvery bounds how often a session's last_used_at is written: once a
// minute is precise enough for the sessions list and spares a write per request.
const touchEvery = time.Minute

// touch records that session sid was just used. A failure only makes
// last_used_at stale, so it is not reported.
func (s *Service) touch(ctx context.Context, sid uuid.UUID) {
	now := s.now()
	err := s.db.WithContext(ctx).Model(&models.AdminSession{}).
		Where("id = ? AND last_used_at < ?", sid, now.Add(-touchEvery)).
		Update("last_used_at", now).Error
	if err == nil {
		s.stamps.touched(sid, now)
	}
}

// IsUnauthenticated reports whether err is an authentication failure.
func IsUnauthenticated(err error) bool {
	return errors.Is(err, ErrUnauthenticated) || apperr.CodeOf(err) == apperr.Unauthorized
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func minDuration(a, b time.Duration) time.Duration {
	if a < b {
		return a
	}
	return b
}
