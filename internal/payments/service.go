// Package payments applies verified gateway events to checkout sessions: a
// captured payment becomes exactly one order, a failed one releases the
// session's stock and cart, an authorized one is recorded (docs/WEBHOOKS.md
// "What the worker does"; docs/DECISIONS.md "Payments and webhooks"). One cart
// pays once: a capture for a session whose purchase another session already
// turned into an order is refunded through the provider (duplicate.go). The
// worker calls it; every method re-reads and locks the session, so running an
// event twice changes nothing.
package payments

import (
	"context"
	"log/slog"

	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/tasks"
	"gorm.io/gorm"
)

// Settings are the parts of the configuration the service needs.
type Settings struct {
	// Provider is the configured payment provider (PAYMENT_PROVIDER): the
	// gateway whose order ids the webhooks carry.
	Provider string
	// StoreState decides the GST split (STORE_STATE).
	StoreState string
	// LowStockThreshold applies to variants without their own (LOW_STOCK_THRESHOLD).
	LowStockThreshold int
}

// Service applies gateway events.
type Service struct {
	db       *gorm.DB
	queue    tasks.Enqueuer
	provider gateway.Provider
	log      *slog.Logger
	set      Settings
}

// New returns the service. provider refunds duplicate payments.
func New(db *gorm.DB, q tasks.Enqueuer, provider gateway.Provider, log *slog.Logger, s Settings) *Service {
	return &Service{db: db, queue: q, provider: provider, log: log, set: s}
}

// Handle applies a verified event. Events it does not handle are ignored.
// An error means the event should be retried; outcomes that retrying cannot
// change (no session, amount mismatch, stock gone) are not errors.
func (s *Service) Handle(ctx context.Context, ev gateway.Event) error {
	switch ev.Name {
	case gateway.PaymentCaptured, gateway.OrderPaid:
		_, err := s.Capture(ctx, ev.Payment)
		return err
	case gateway.PaymentFailed:
		return s.Fail(ctx, ev.Payment)
	case gateway.PaymentAuthorized:
		return s.Authorize(ctx, ev.Payment)
	}
	return nil
}
