package customer

import (
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// GuestRecord returns the guest record of email, creating it, inside tx,
// or ErrDeactivated when the account or the guest record of email is
// deactivated (RefuseDeactivated's rule). There is at most one per email (a
// partial unique index); two checkouts creating it at once both end with the
// same row. The name and phone of an existing record are kept: each
// checkout session carries its own. The check, the read and the insert are
// one statement (a round trip costs a checkout more than the insert).
func GuestRecord(tx *gorm.DB, email, name, phone string) (*models.Customer, error) {
	email = NormalizeEmail(email)
	var row struct {
		AccountDeactivated bool
		models.Customer    `gorm:"embedded"`
	}
	// The insert runs only when the snapshot holds no record; ON CONFLICT
	// DO NOTHING waits for a concurrent insert of the same email to commit
	// and then yields no row, and the re-read below finds the winner's.
	err := tx.Raw(`WITH account AS (
			SELECT EXISTS (SELECT 1 FROM customers WHERE email = @email AND NOT is_guest AND NOT is_active) AS deactivated),
		found AS (SELECT * FROM customers WHERE email = @email AND is_guest),
		made AS (
			INSERT INTO customers (email, name, phone, is_guest, is_active)
			SELECT @email, @name, @phone, true, true FROM account
			WHERE NOT account.deactivated AND NOT EXISTS (SELECT 1 FROM found)
			ON CONFLICT (email) WHERE is_guest AND email <> '' DO NOTHING
			RETURNING *)
		SELECT account.deactivated AS account_deactivated, c.*
		FROM account LEFT JOIN (SELECT * FROM found UNION ALL SELECT * FROM made) c ON true`,
		map[string]any{"email": email, "name": name, "phone": phone}).Scan(&row).Error
	if err != nil {
		return nil, database.Translate(err, "customer")
	}
	c := row.Customer
	if row.AccountDeactivated || (c.ID != uuid.Nil && !c.IsActive) {
		return nil, ErrDeactivated
	}
	if c.ID != uuid.Nil {
		return &c, nil
	}
	if err := tx.Take(&c, "email = ? AND is_guest", email).Error; err != nil {
		return nil, fmt.Errorf("customer.guest: %w", err)
	}
	return &c, nil
}

// GuestRecordByPhone is GuestRecord for a buyer known by phone alone (a
// phone order): the guest record with no email and phone, normalised
// (NormalizePhone), creating it. A record with an email is never used for
// a phone: the email is who it is. Errors: VALIDATION_ERROR (phone empty),
// ErrDeactivated.
func GuestRecordByPhone(tx *gorm.DB, phone, name string) (*models.Customer, error) {
	phone = NormalizePhone(phone)
	if phone == "" {
		return nil, apperr.Invalid("phone", "is required without email")
	}
	var c models.Customer
	err := tx.Raw(`WITH found AS (SELECT * FROM customers WHERE phone = @phone AND email = '' AND is_guest),
		made AS (
			INSERT INTO customers (email, name, phone, is_guest, is_active)
			SELECT '', @name, @phone, true, true WHERE NOT EXISTS (SELECT 1 FROM found)
			ON CONFLICT (phone) WHERE is_guest AND email = '' DO NOTHING
			RETURNING *)
		SELECT * FROM found UNION ALL SELECT * FROM made`, map[string]any{"phone": phone, "name": name}).Scan(&c).Error
	if err != nil {
		return nil, database.Translate(err, "customer")
	}
	if c.ID == uuid.Nil {
		// A concurrent insert won: read it.
		if err := tx.Take(&c, "phone = ? AND email = '' AND is_guest", phone).Error; err != nil {
			return nil, fmt.Errorf("customer.guest_by_phone: %w", err)
		}
	}
	if !c.IsActive {
		return nil, ErrDeactivated
	}
	return &c, nil
}

// AccountExists reports whether a regular account has email.
func AccountExists(tx *gorm.DB, email string) (bool, error) {
	var n int64
	err := tx.Model(&models.Customer{}).Where("email = ? AND NOT is_guest", NormalizeEmail(email)).Count(&n).Error
	return n > 0, err
}
