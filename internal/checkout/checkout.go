// Package checkout owns the checkout session and its cart lock, from open to
// end. Open (create.go) turns a cart into a session: re-priced, its discount
// re-checked, its stock reserved and the cart locked in one transaction, then
// a payment intent created with the payment provider; a changed cart replaces
// its pending session. Verified gateway events (handle.go) complete it — a
// captured payment becomes exactly one order (order.Create) — fail it, or put
// it in review; a payment for a purchase already made is refunded
// (duplicate.go). A scheduled sweep (expire.go, also run by reconcile)
// expires sessions never paid and returns their stock. lock.go is the one
// place that sets and clears carts.locked_by (docs/WEBHOOKS.md "What the
// worker does"; docs/DECISIONS.md "Payments and webhooks"). Every event
// re-reads and locks the session, so running one twice changes nothing.
package checkout

import (
	"context"
	"encoding/json"
	"github.com/gocommerce/shop/internal/courier"
	"log/slog"
	"time"

	"github.com/gocommerce/shop/internal/cod"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Settings configure checkout.
type Settings struct {
	// TTL is how long a session holds stock (CHECKOUT_SESSION_TTL).
	TTL time.Duration
	// Currency is STORE_CURRENCY.
	Currency string
	// Provider is the configured payment provider (PAYMENT_PROVIDER): the
	// gateway whose order ids the webhooks carry.
	Provider string
	// StoreState decides the GST split (STORE_STATE).
	StoreState string
	// LowStockThreshold applies to variants without their own (LOW_STOCK_THRESHOLD).
	LowStockThreshold int
}

// StockCache is told which products' availability changed, so cached
// figures are dropped (browse.StockStore).
type StockCache interface {
	Forget(ctx context.Context, productIDs []uuid.UUID)
}

// Service runs checkouts.
type Service struct {
	db       *gorm.DB
	queue    tasks.Enqueuer
	provider gateway.Provider
	set      Settings
	log      *slog.Logger
	stock    StockCache
	now      func() time.Time
	// units opens the units of work of the changes that place an order.
	units uow.Runner
	// couriers refuses addresses the courier cannot serve; nil: none.
	couriers Deliverability
	// otps checks the codes of COD orders confirmed by OTP (WithOTPs).
	otps *cod.OTPs
}

// New returns the service. provider creates intents and refunds duplicate
// payments; q receives the events of completed checkouts; stock may be nil.
func New(db *gorm.DB, q tasks.Enqueuer, provider gateway.Provider, set Settings, stock StockCache, log *slog.Logger) *Service {
	return &Service{db: db, queue: q, provider: provider, set: set, stock: stock, log: log, now: func() time.Time { return time.Now().UTC() },
		units: uow.NewRunner(db, q, log)}
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
	// Buyer is the business buying, for a B2B tax invoice; its GSTIN is
	// validated by the caller (docs/DECISIONS.md "Tax documents").
	Buyer models.TaxBuyer
	// courier is the courier's answer for the shipping pincode, set by
	// the checkout itself (deliverable); nil without a courier.
	courier *courier.Serviceability
	// CODOTP is the code sent to the buyer's phone, for a COD checkout the
	// payment settings want confirmed by OTP.
	CODOTP string
}

// Result is a checkout's session. Created is false when a pending session of
// the unchanged cart was returned again.
type Result struct {
	Session *models.CheckoutSession
	Created bool
}
