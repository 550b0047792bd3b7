package customer

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/password"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// ErrBadToken is the one answer to a wrong, used or expired token, or a
// token presented with another email.
var ErrBadToken = apperr.New(apperr.Validation, "the claim token is invalid, used or expired").
	WithDetails(map[string]any{"field": "token", "issue": "is invalid, used or expired"})

// Claim redeems token for the guest record of email and sets newPassword:
// the record becomes a regular account with a verified email. The token is
// spent atomically (one conditional update), so it works once, and every
// other token of the guest dies with it. When a regular account with that
// email exists already, the guest's orders, checkout sessions, discount
// uses and addresses move into it, the account takes the new password and
// is marked verified (the token proves the mailbox), and the guest record
// is removed. Errors: VALIDATION_ERROR.
func (s *Claims) Claim(ctx context.Context, email, token, newPassword string) (*models.Customer, error) {
	hash, err := password.Hash(newPassword)
	if err != nil {
		return nil, err
	}
	var out models.Customer
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var guest struct{ ID uuid.UUID }
		err := tx.Raw(`UPDATE claim_tokens t SET used_at = now()
			FROM customers c
			WHERE t.customer_id = c.id AND t.token_hash = ? AND t.used_at IS NULL AND t.expires_at > ?
			  AND c.email = ? AND c.is_guest
			RETURNING c.id`, hashToken(token), s.now(), NormalizeEmail(email)).Scan(&guest).Error
		if err != nil {
			return fmt.Errorf("customer.claim_spend: %w", err)
		}
		if guest.ID == uuid.Nil {
			return ErrBadToken
		}
		if err := tx.Exec(`UPDATE claim_tokens SET used_at = now() WHERE customer_id = ? AND used_at IS NULL`, guest.ID).Error; err != nil {
			return fmt.Errorf("customer.claim_spend_others: %w", err)
		}
		target := guest.ID
		var account models.Customer
		if err := tx.Raw(`SELECT * FROM customers WHERE email = ? AND NOT is_guest FOR UPDATE`, NormalizeEmail(email)).
			Scan(&account).Error; err != nil {
			return fmt.Errorf("customer.claim_account: %w", err)
		}
		if account.ID != uuid.Nil {
			if err := moveInto(tx, guest.ID, account.ID); err != nil {
				return err
			}
			target = account.ID
		}
		if err := tx.Exec(`UPDATE customers SET password_hash = ?, is_guest = false, email_verified = true, updated_at = now() WHERE id = ?`,
			hash, target).Error; err != nil {
			return database.Translate(err, "customer")
		}
		return tx.Take(&out, "id = ?", target).Error
	})
	if err != nil {
		return nil, database.Translate(err, "customer")
	}
	return &out, nil
}

// moveInto hands everything of guest record from to account to, then
// removes the guest record.
func moveInto(tx *gorm.DB, from, to uuid.UUID) error {
	for _, table := range []string{"orders", "checkout_sessions", "discount_usages", "customer_addresses", "customer_emails"} {
		// table comes from the fixed list above, never from input.
		if err := tx.Exec("UPDATE "+table+" SET customer_id = ? WHERE customer_id = ?", to, from).Error; err != nil {
			return fmt.Errorf("customer.claim_move %s: %w", table, err)
		}
	}
	if err := tx.Exec(`DELETE FROM customers WHERE id = ?`, from).Error; err != nil {
		return fmt.Errorf("customer.claim_remove_guest: %w", err)
	}
	return nil
}
