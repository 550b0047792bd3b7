package customer

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

// ResetTokenTTL is how long an emailed password reset token works, counted
// from when the email is sent.
const ResetTokenTTL = time.Hour

// EmailPasswordReset is the customer_emails kind of a password reset
// email; its ref is the request's own id, so every request is one email.
const EmailPasswordReset = "password_reset"

// ErrBadResetToken is the one answer to a wrong, used, expired or
// superseded reset token, and to the token of an account deactivated since.
var ErrBadResetToken = apperr.New(apperr.Validation, "the password reset token is invalid, used or expired").
	WithDetails(map[string]any{"field": "token", "issue": "is invalid, used or expired"})

// WithEmailQueue makes s ask the worker to send a password reset email
// right after the request commits. Without it (or when the queue fails) the
// email goes out with the scheduler's next sweep.
func (s *Service) WithEmailQueue(q tasks.Enqueuer, log *slog.Logger) *Service {
	s.queue, s.log = q, log
	return s
}

// RequestPasswordReset writes the reset email of the active account with
// email, if there is one, to the email outbox (NewPasswordResetMailer sends
// it and makes its token), and nudges the worker. An unknown email costs
// the same statement and the same nudge (a run that finds nothing to send),
// so the answer does not tell by its timing whether an account exists.
func (s *Service) RequestPasswordReset(ctx context.Context, email string) error {
	ref := uuid.NewString()
	err := s.db.WithContext(ctx).Exec(`INSERT INTO customer_emails (kind, ref, customer_id)
		SELECT ?, ?, id FROM customers WHERE email = ? AND NOT is_guest AND is_active`,
		EmailPasswordReset, ref, NormalizeEmail(email)).Error
	if err != nil {
		return database.Translate(fmt.Errorf("customer.reset_request: %w", err), "customer")
	}
	if s.queue == nil {
		return nil
	}
	task, opts := tasks.NewPasswordResetEmailsTask(ref)
	if err := tasks.Enqueue(ctx, s.queue, task, opts...); err != nil && s.log != nil {
		s.log.WarnContext(ctx, "password reset email nudge failed; the sweep will send it", "err", err)
	}
	return nil
}

// ResetPassword spends token and sets newPassword on its account, which is
// then signed in with a fresh token. The token is spent by one conditional
// update, so it works once however many requests race with it; every other
// reset token of the account is spent with it, and every access token
// issued before ends (the token version moves on). The reset proves the
// mailbox, so the email becomes verified. Errors: VALIDATION_ERROR (a
// wrong, used or expired token, or a deactivated account).
func (s *Service) ResetPassword(ctx context.Context, token, newPassword string) (*Session, error) {
	hash, err := password.Hash(newPassword)
	if err != nil {
		return nil, err
	}
	var c models.Customer
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var owner struct{ ID uuid.UUID }
		err := tx.Raw(`UPDATE password_reset_tokens t SET used_at = ?
			FROM customers c
			WHERE t.customer_id = c.id AND t.token_hash = ? AND t.used_at IS NULL AND t.expires_at > ?
			  AND c.is_active AND NOT c.is_guest
			RETURNING c.id`, s.now(), hashToken(token), s.now()).Scan(&owner).Error
		if err != nil {
			return fmt.Errorf("customer.reset_spend: %w", err)
		}
		if owner.ID == uuid.Nil {
			return ErrBadResetToken
		}
		return s.replacePassword(tx, owner.ID, nil, hash, true, &c)
	})
	if err != nil {
		return nil, database.Translate(err, "customer")
	}
	return s.signIn(&c)
}

// errPasswordRaced answers a password change that lost a race with another
// change or a reset of the same account: the caller's token has just ended.
var errPasswordRaced = ErrUnauthenticated

// replacePassword sets hash as customer id's password in tx, moves its
// token version on (every access token issued before ends), spends its
// unused reset tokens and reads the row back into out. With seenVersion
// set, the change applies only if the version is still that one (a change
// checked against the current password must not undo a reset that came
// in between). verified marks the email verified (a reset proves it).
func (s *Service) replacePassword(tx *gorm.DB, id uuid.UUID, seenVersion *int, hash string, verified bool, out *models.Customer) error {
	q := tx.Model(&models.Customer{}).Where("id = ?", id)
	if seenVersion != nil {
		q = q.Where("token_version = ?", *seenVersion)
	}
	set := map[string]any{"password_hash": hash, "token_version": gorm.Expr("token_version + 1"), "updated_at": s.now()}
	if verified {
		set["email_verified"] = true
	}
	res := q.Updates(set)
	if res.Error != nil {
		return fmt.Errorf("customer.password_replace: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return errPasswordRaced
	}
	if err := tx.Exec(`UPDATE password_reset_tokens SET used_at = ? WHERE customer_id = ? AND used_at IS NULL`, s.now(), id).Error; err != nil {
		return fmt.Errorf("customer.reset_spend_others: %w", err)
	}
	if err := tx.Take(out, "id = ?", id).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return errPasswordRaced
		}
		return fmt.Errorf("customer.password_reload: %w", err)
	}
	return nil
}
