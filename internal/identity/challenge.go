package identity

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Challenge is a pending two-step login: the twoFactorToken handed to the
// client and its lifetime in seconds.
type Challenge struct {
	Token     string
	ExpiresIn int
}

// ChallengeTTL is how long a twoFactorToken can complete its login.
const ChallengeTTL = 300 * time.Second

// MaxChallengeFailures is how many wrong codes end a challenge; the client
// must then log in with the password again (which is rate limited).
const MaxChallengeFailures = 5

var (
	errChallenge = apperr.New(apperr.Unauthorized, "two-factor login expired or invalid; log in again")
	errBadCode   = apperr.New(apperr.Unauthorized, "invalid two-factor code")
)

// createChallenge stores a new challenge for a in tx (and drops expired ones
// of anyone). The token is 32 random bytes; only its SHA-256 is stored.
func (s *Service) createChallenge(tx *gorm.DB, a *models.Admin, client ClientInfo) (*Challenge, error) {
	now := s.now()
	if err := tx.Where("expires_at <= ?", now).Delete(&models.AdminLoginChallenge{}).Error; err != nil {
		return nil, err
	}
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return nil, err
	}
	token := base64.RawURLEncoding.EncodeToString(b)
	row := models.AdminLoginChallenge{
		TokenHash: challengeHash(token), AdminID: a.ID, DeviceID: client.normalized().DeviceID,
		CreatedAt: now, ExpiresAt: now.Add(ChallengeTTL),
	}
	if err := tx.Create(&row).Error; err != nil {
		return nil, err
	}
	return &Challenge{Token: token, ExpiresIn: int(ChallengeTTL.Seconds())}, nil
}

func challengeHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// CompleteTwoFactorLogin finishes a two-step login with the twoFactorToken
// and a TOTP or backup code, and opens the session. The token is single-use:
// its row is locked while the code is checked and deleted on success, so of
// concurrent submits at most one succeeds. A wrong code counts against the
// token (the fifth ends it) and against the admin across all tokens: at
// MaxTwoFactorFailures within TwoFactorLockout the second factor is refused
// for TwoFactorLockout, whatever the token or code, and the admin is emailed
// (countTwoFactorFailure). The password step is never locked this way.
// Audited as auth.login, auth.2fa_failed or auth.2fa_locked.
// Errors: UNAUTHORIZED (unknown, used or expired token; wrong code),
// RATE_LIMITED (*TwoFactorLockedError: the admin's lockout lasts).
func (s *Service) CompleteTwoFactorLogin(ctx context.Context, token, code string, client ClientInfo) (*LoginResult, error) {
	if token == "" || len(token) > 100 {
		return nil, errChallenge
	}
	var res *LoginResult
	var refused error
	var lockoutStarted bool
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var ch models.AdminLoginChallenge
		err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("token_hash = ?", challengeHash(token)).Take(&ch).Error
		if database.IsNotFound(err) {
			refused = errChallenge
			return nil
		}
		if err != nil {
			return err
		}
		var a models.Admin
		if err := tx.Take(&a, "id = ?", ch.AdminID).Error; err != nil {
			return err
		}
		// Locked (after the challenge: lock order challenge → 2FA row), so
		// that the admin's failures are counted one guess at a time.
		tf, err := lockTwoFactor(tx, a.ID)
		if err != nil {
			return err
		}
		if !ch.ExpiresAt.After(s.now()) || !a.IsActive || tf == nil || !tf.Enabled {
			refused = errChallenge
			return tx.Delete(&ch).Error
		}
		if refused = s.lockedOut(tf); refused != nil {
			return nil
		}
		method, ok, err := s.verifyCode(tx, a.ID, tf.Secret, code, true)
		if err != nil {
			return err
		}
		if !ok {
			refused = errBadCode
			if err := s.failChallenge(ctx, tx, &ch, method, client); err != nil {
				return err
			}
			lockoutStarted, err = s.countTwoFactorFailure(ctx, tx, tf, &a, client)
			return err
		}
		if err := tx.Delete(&ch).Error; err != nil {
			return err
		}
		client.DeviceID = ch.DeviceID
		tok, err := s.openSession(tx, &a, client)
		if err != nil {
			return err
		}
		res = &LoginResult{Admin: &a, Tokens: tok}
		return record(ctx, tx, a.ID, ActionLogin, tok.SessionID.String(), map[string]any{"method": "password+" + method}, client)
	})
	if err != nil {
		return nil, database.Translate(err, "session")
	}
	if lockoutStarted {
		s.nudgeEmails(ctx)
	}
	if refused != nil {
		return nil, refused
	}
	return res, nil
}

// failChallenge counts a wrong code against ch, ending it at the limit, and
// audits the failure.
func (s *Service) failChallenge(ctx context.Context, tx *gorm.DB, ch *models.AdminLoginChallenge, method string, client ClientInfo) error {
	ch.FailedAttempts++
	var err error
	if ch.FailedAttempts >= MaxChallengeFailures {
		err = tx.Delete(ch).Error
	} else {
		err = tx.Model(ch).Update("failed_attempts", ch.FailedAttempts).Error
	}
	if err != nil {
		return err
	}
	meta := map[string]any{"method": method, "step": "login", "attemptsLeft": MaxChallengeFailures - ch.FailedAttempts}
	return record(ctx, tx, ch.AdminID, ActionTwoFactorFailed, ch.AdminID.String(), meta, client)
}
