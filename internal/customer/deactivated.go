package customer

import (
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"gorm.io/gorm"
)

// ErrDeactivated answers a guest checkout or a registration with the email
// of a deactivated customer: deactivating a customer stops it buying, not
// only signing in (docs/DECISIONS.md, "Deactivated customers").
var ErrDeactivated = apperr.New(apperr.Forbidden, "the customer with this email is deactivated; contact the shop").
	WithDetails(map[string]any{"field": "email", "issue": "belongs to a deactivated customer"})

// RefuseDeactivated returns ErrDeactivated when a customer record with email,
// an account or a guest record, is deactivated. Errors: FORBIDDEN.
func RefuseDeactivated(tx *gorm.DB, email string) error {
	// One probe per partial unique index (accounts, guest records): a plain
	// "email = ?" matches neither index's predicate and would scan the table.
	var deactivated bool
	err := tx.Raw(`SELECT EXISTS (SELECT 1 FROM customers WHERE email = @email AND NOT is_guest AND NOT is_active)
		OR EXISTS (SELECT 1 FROM customers WHERE email = @email AND is_guest AND NOT is_active)`,
		map[string]any{"email": NormalizeEmail(email)}).Scan(&deactivated).Error
	if err != nil {
		return fmt.Errorf("customer.deactivated: %w", err)
	}
	if deactivated {
		return ErrDeactivated
	}
	return nil
}
