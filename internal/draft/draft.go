// Package draft owns draft orders: orders staff builds for a customer on the
// phone or in chat (docs/DECISIONS.md "Draft orders and payment links"). A
// draft keeps the inputs of a checkout (customer, lines, addresses,
// shipping, code) and is priced on every read by checkout's own code path
// (cart.DraftLines, cart.PriceLines, shipping.ChargeFor, checkout.QuoteOf),
// so its totals are the totals a storefront checkout of the same lines
// would charge; a line's price may be set by hand (with the pricing
// permission, recorded in the audit entry). A draft reserves nothing.
// Completed with a payment link, it opens a checkout session of its own
// (checkout.OpenLink) holding the stock for DRAFT_LINK_TTL, asks the gateway
// for the link and emails it through the outbox; the gateway's
// payment_link.paid event makes the order as a captured checkout does.
package draft

import (
	"log/slog"
	"time"

	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/tasks"
	"gorm.io/gorm"
)

// Settings configure draft orders.
type Settings struct {
	// LinkTTL is DRAFT_LINK_TTL.
	LinkTTL time.Duration
	// Currency is STORE_CURRENCY; StoreState (the default location's, as
	// checkout's) decides the GST split.
	Currency   string
	StoreState string
}

// Service keeps draft orders.
type Service struct {
	db       *gorm.DB
	units    uow.Runner
	checkout *checkout.Service
	links    gateway.LinkProvider
	autos    discount.AutomaticSource
	set      Settings
	log      *slog.Logger
	now      func() time.Time
	// messages sends the payment link by SMS or WhatsApp (WithMessages).
	messages LinkMessenger
}

// New returns the service. checkout opens the sessions of payment links and
// links makes the links at the gateway.
func New(db *gorm.DB, q tasks.Enqueuer, checkouts *checkout.Service, links gateway.LinkProvider, set Settings, log *slog.Logger) *Service {
	return &Service{db: db, units: uow.NewRunner(db, q, log), checkout: checkouts, links: links, autos: discount.Fresh,
		set: set, log: log, now: func() time.Time { return time.Now().UTC() }}
}
