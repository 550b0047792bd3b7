package customer

import (
	"errors"
	"fmt"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// GuestRecord returns the guest record of email, creating it, inside tx.
// There is at most one per email (a partial unique index); two checkouts
// creating it at once both end with the same row. The name and phone of an
// existing record are kept: each checkout session carries its own.
func GuestRecord(tx *gorm.DB, email, name, phone string) (*models.Customer, error) {
	email = NormalizeEmail(email)
	var c models.Customer
	err := tx.Take(&c, "email = ? AND is_guest", email).Error
	if err == nil {
		return &c, nil
	}
	if !errors.Is(err, gorm.ErrRecordNotFound) {
		return nil, fmt.Errorf("customer.guest: %w", err)
	}
	// ON CONFLICT DO NOTHING waits for a concurrent insert of the same email
	// to commit and then yields no row; the re-read finds the winner's.
	err = tx.Raw(`INSERT INTO customers (email, name, phone, is_guest, is_active)
		VALUES (?, ?, ?, true, true)
		ON CONFLICT (email) WHERE is_guest DO NOTHING
		RETURNING *`, email, name, phone).Scan(&c).Error
	if err != nil {
		return nil, database.Translate(err, "customer")
	}
	if c.ID != uuid.Nil {
		return &c, nil
	}
	if err := tx.Take(&c, "email = ? AND is_guest", email).Error; err != nil {
		return nil, fmt.Errorf("customer.guest: %w", err)
	}
	return &c, nil
}

// AccountExists reports whether a regular account has email.
func AccountExists(tx *gorm.DB, email string) (bool, error) {
	var n int64
	err := tx.Model(&models.Customer{}).Where("email = ? AND NOT is_guest", NormalizeEmail(email)).Count(&n).Error
	return n > 0, err
}
