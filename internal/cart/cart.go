// Package cart keeps shoppers' carts: a customer's or a guest's (keyed by
// the X-Session-Id header), merged on sign-in; items, bundle selections and
// a discount code; totals recomputed from current prices on every read.
// Checkout prices a cart through the same functions (Lines, Price, Compute).
package cart

import (
	"regexp"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Bounds of a cart line and of a cart.
const (
	MinQuantity = 1
	MaxQuantity = 1000
	// MaxLines bounds the lines of one cart: every read re-prices every
	// line, so an unbounded cart is a way to make each request expensive.
	MaxLines = 100
)

// Owner is whose cart a request works on: the signed-in customer's when
// CustomerID is set (a SessionID too means "merge that guest cart in"),
// else the guest cart of SessionID.
type Owner struct {
	CustomerID *uuid.UUID
	// Group is the customer's pricing group.
	Group     *uuid.UUID
	SessionID string
}

// Service is the cart service.
type Service struct {
	db       *gorm.DB
	currency string
	autos    discount.AutomaticSource
	guard    Guard
	now      func() time.Time
}

// Guard refuses an edit of cart c (locked FOR UPDATE in tx) while a checkout
// holds it; the checkout owns the cart lock, so it supplies the guard
// (checkout.EnsureEditable). Errors: CONFLICT.
type Guard func(tx *gorm.DB, c *models.Cart, now time.Time) error

// AutomaticTTL bounds how old the automatic discounts a cart is shown with
// may be (checkout always re-reads them).
const AutomaticTTL = 2 * time.Second

// New returns the service on db; currency is STORE_CURRENCY; guard (nil:
// carts are always editable) is asked before every edit.
func New(db *gorm.DB, currency string, guard Guard) *Service {
	return &Service{db: db, currency: currency, guard: guard, autos: discount.NewRecent(AutomaticTTL), now: func() time.Time { return time.Now().UTC() }}
}

var sessionIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{8,128}$`)

// CheckSessionID validates a guest X-Session-Id: 8 to 128 characters of
// [A-Za-z0-9_-]. Errors: VALIDATION_ERROR.
func CheckSessionID(id string) error {
	if !sessionIDPattern.MatchString(id) {
		return apperr.Invalid("X-Session-Id", "must be 8 to 128 characters of A-Z, a-z, 0-9, _ and -")
	}
	return nil
}

// ErrNoOwner is the answer to a cart request with neither a customer token
// nor an X-Session-Id.
var ErrNoOwner = apperr.Invalid("X-Session-Id", "is required without a customer token")
