// Package checkout turns a cart into a checkout session: re-priced, its
// discount re-checked, its stock reserved and the cart locked in one
// transaction, then a payment intent created with the payment provider. The
// order itself is made later from the session's snapshot when the gateway
// reports the payment captured. A scheduled sweep expires sessions that were
// never paid and returns their stock.
package checkout

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/payment"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Settings configure checkout.
type Settings struct {
	// TTL is how long a session holds stock (CHECKOUT_SESSION_TTL).
	TTL time.Duration
	// Currency is STORE_CURRENCY.
	Currency string
}

// StockCache is told which products' availability changed, so cached
// figures are dropped (browse.StockStore).
type StockCache interface {
	Forget(ctx context.Context, productIDs []uuid.UUID)
}

// Service runs checkouts.
type Service struct {
	db       *gorm.DB
	provider payment.Provider
	set      Settings
	log      *slog.Logger
	stock    StockCache
	now      func() time.Time
}

// New returns the service. stock may be nil.
func New(db *gorm.DB, provider payment.Provider, set Settings, stock StockCache, log *slog.Logger) *Service {
	return &Service{db: db, provider: provider, set: set, stock: stock, log: log, now: func() time.Time { return time.Now().UTC() }}
}

// forget drops the cached availability of the products of a session's
// snapshot.
func (s *Service) forget(ctx context.Context, lines []byte) {
	if s.stock == nil {
		return
	}
	var snap []models.CheckoutLine
	if json.Unmarshal(lines, &snap) != nil {
		return
	}
	ids := make([]uuid.UUID, len(snap))
	for i, l := range snap {
		ids[i] = l.ProductID
	}
	s.stock.Forget(ctx, ids)
}

// Guest is the buyer of a guest checkout.
type Guest struct {
	Email   string
	Name    string
	Phone   string
	Address models.Address
	// Password, when set, makes the checkout create a regular account.
	Password string
}

// Input is one checkout request: Customer (signed in, with the ids of two
// of its addresses) or Guest.
type Input struct {
	Customer          *models.Customer
	ShippingAddressID uuid.UUID
	BillingAddressID  uuid.UUID
	Guest             *Guest
	// ShippingMethodID is the shopper's shipping method, nil when none was
	// sent; ShippingCost is the cost the client sent, nil when none
	// (shipping.ChargeFor decides what is charged).
	ShippingMethodID *uuid.UUID
	ShippingCost     *money.Amount
}

// Result is a checkout's session. Created is false when a pending session of
// the unchanged cart was returned again.
type Result struct {
	Session *models.CheckoutSession
	Created bool
}
