package identity

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"gorm.io/gorm"
)

// Defaults of the per-admin second-factor lockout (Settings): 10 wrong codes
// within 15 minutes lock the login step's second factor for 15 minutes.
const (
	DefaultMaxTwoFactorFailures = 10
	DefaultTwoFactorLockout     = 15 * time.Minute
)

// ActionTwoFactorLocked is the audit action of a lockout's start.
const ActionTwoFactorLocked = "auth.2fa_locked"

// errTwoFactorLocked is what a client is told during a lockout: nothing
// about the code, which was not even checked.
var errTwoFactorLocked = apperr.New(apperr.RateLimited,
	"too many wrong two-factor codes for this account; try again later")

// TwoFactorLockedError refuses a second factor while the admin's lockout
// lasts. It is a RATE_LIMITED error (errors.As finds the *apperr.Error);
// Until and Limit give the Retry-After and X-RateLimit-* headers.
type TwoFactorLockedError struct {
	Until time.Time
	// Limit is how many wrong codes a window allows.
	Limit int
}

func (e *TwoFactorLockedError) Error() string { return errTwoFactorLocked.Error() }

// Unwrap exposes the RATE_LIMITED error that is rendered.
func (e *TwoFactorLockedError) Unwrap() error { return errTwoFactorLocked }

func (s *Service) maxTwoFactorFailures() int {
	if s.set.MaxTwoFactorFailures > 0 {
		return s.set.MaxTwoFactorFailures
	}
	return DefaultMaxTwoFactorFailures
}

func (s *Service) twoFactorLockout() time.Duration {
	if s.set.TwoFactorLockout > 0 {
		return s.set.TwoFactorLockout
	}
	return DefaultTwoFactorLockout
}

// lockedOut returns the refusal when tf's lockout has not ended, else nil.
func (s *Service) lockedOut(tf *models.AdminTwoFactor) error {
	if tf.LockedUntil != nil && tf.LockedUntil.After(s.now()) {
		return &TwoFactorLockedError{Until: *tf.LockedUntil, Limit: s.maxTwoFactorFailures()}
	}
	return nil
}

// countTwoFactorFailure counts a wrong login-step code against the admin of
// tf, whose row the caller holds FOR UPDATE, so concurrent guesses on several
// challenges are counted one by one. A window starts at its first wrong code
// and lasts TwoFactorLockout; the failure that reaches the limit within it
// starts a lockout of the same length, audits auth.2fa_locked and writes the
// admin's lockout email in tx (one per lockout). It reports whether a
// lockout started.
func (s *Service) countTwoFactorFailure(ctx context.Context, tx *gorm.DB, tf *models.AdminTwoFactor, a *models.Admin, client ClientInfo) (bool, error) {
	now, window := s.now(), s.twoFactorLockout()
	if tf.FailuresSince == nil || !tf.FailuresSince.Add(window).After(now) {
		tf.FailedCodes, tf.FailuresSince = 0, &now
	}
	tf.FailedCodes++
	if tf.FailedCodes < s.maxTwoFactorFailures() {
		return false, tx.Exec(`UPDATE admin_two_factor SET failed_codes = ?, failures_since = ? WHERE admin_id = ?`,
			tf.FailedCodes, tf.FailuresSince, tf.AdminID).Error
	}
	until := now.Add(window)
	if err := tx.Exec(`UPDATE admin_two_factor SET failed_codes = 0, failures_since = NULL, locked_until = ? WHERE admin_id = ?`,
		until, tf.AdminID).Error; err != nil {
		return false, err
	}
	details, err := json.Marshal(lockoutDetails{Failures: tf.FailedCodes, Since: *tf.FailuresSince, LockedUntil: until})
	if err != nil {
		return false, err
	}
	email := models.AdminEmail{AdminID: a.ID, Kind: models.AdminEmailTwoFactorLockout,
		Ref: a.ID.String() + "@" + until.Format(time.RFC3339Nano), Details: details, CreatedAt: now}
	if err := tx.Create(&email).Error; err != nil {
		return false, err
	}
	meta := map[string]any{"failures": tf.FailedCodes, "lockedUntil": until.Format(time.RFC3339)}
	return true, record(ctx, tx, a.ID, ActionTwoFactorLocked, a.ID.String(), meta, client)
}

// lockoutDetails is what a lockout email says, kept with its row.
type lockoutDetails struct {
	Failures    int       `json:"failures"`
	Since       time.Time `json:"since"`
	LockedUntil time.Time `json:"lockedUntil"`
}

// WithEmailQueue makes s queue the sending of the admin emails it writes
// right after their commit. Without it (or when the queue fails) they go
// out with the scheduler's next admin-emails sweep.
func (s *Service) WithEmailQueue(q tasks.Enqueuer, log *slog.Logger) *Service {
	s.queue, s.log = q, log
	return s
}

// nudgeEmails asks the worker to send the admin emails now; a failure is
// only logged, the periodic sweep sends them anyway.
func (s *Service) nudgeEmails(ctx context.Context) {
	if s.queue == nil {
		return
	}
	task, opts := tasks.NewAdminEmailsTask(s.now())
	if err := tasks.Enqueue(ctx, s.queue, task, opts...); err != nil && s.log != nil {
		s.log.WarnContext(ctx, "admin email nudge failed; the sweep will send it", "err", fmt.Errorf("identity: %w", err))
	}
}
