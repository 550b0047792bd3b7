// Package reconcile finds and repairs what drifted in the database: stale
// checkouts still holding stock, stock counters that no longer match the
// reservations and orders behind them, orphaned rows, stale analytics
// rollups, gateway refunds whose outcome was never learnt, refunds of
// duplicate payments left unanswered, and balance payment links closed here
// but not yet at the gateway. Every step reports what it found and what it fixed; the report is
// the reconcile job's result.
//
// Each step runs in its own short transactions, so a failure in one leaves
// the repairs of the others in place, and running reconcile again finds
// nothing more to do.
package reconcile

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/gocommerce/shop/internal/analytics"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/orderedit"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Service runs reconcile.
type Service struct {
	db     *gorm.DB
	stats  *analytics.Service
	settle Settlers
	log    *slog.Logger
	now    func() time.Time
	// shipments are the shipments step's thresholds.
	shipments ShipmentThresholds
}

// New returns the service.
func New(db *gorm.DB, stats *analytics.Service, settle Settlers, log *slog.Logger) *Service {
	return &Service{db: db, stats: stats, settle: settle, log: log, now: func() time.Time { return time.Now().UTC() }}
}

// Report is what one reconcile run found and fixed.
type Report struct {
	StartedAt  time.Time `json:"startedAt"`
	FinishedAt time.Time `json:"finishedAt"`
	// ExpiredSessions is the pending checkouts past expiry that still held
	// stock; they were expired and their reservations released.
	ExpiredSessions int `json:"expiredSessions"`
	// Reserved and Committed list each variant whose counter did not match
	// the pending reservations / the unshipped orders, with both values.
	Reserved  []Drift `json:"reserved"`
	Committed []Drift `json:"committed"`
	// Inventory lists each variant whose on-hand counter did not match the
	// sum of its levels at the locations that sell.
	Inventory []Drift `json:"inventory"`
	// Orphans counts rows removed or released because nothing uses them.
	Orphans Orphans `json:"orphans"`
	// Problems are inconsistencies found but left for a person.
	Problems []Problem `json:"problems"`
	// RollupDays is how many days of analytics were recomputed.
	RollupDays int `json:"rollupDays"`
	// Refunds counts the pending gateway refunds settled, and those still
	// without an answer.
	Refunds order.RefundSettlement `json:"refunds"`
	// DuplicatePayments counts the refunds of payments for already paid
	// carts retried.
	DuplicatePayments checkout.DuplicateRefunds `json:"duplicatePayments"`
	// PaymentLinks counts the balance payment links, closed when their
	// order's balance changed, cancelled at the gateway, and those it still
	// did not answer for.
	PaymentLinks orderedit.LinkClosing `json:"paymentLinks"`
	// Found counts every inconsistency; Fixed those repaired.
	Found int `json:"found"`
	Fixed int `json:"fixed"`
}

// Drift is a stock counter that disagreed with its source.
type Drift struct {
	VariantID uuid.UUID `json:"variantId"`
	SKU       string    `json:"sku"`
	Was       int       `json:"was"`
	Now       int       `json:"now"`
	Fixed     bool      `json:"fixed"`
}

// Orphans counts the orphaned rows dealt with.
type Orphans struct {
	// Reservations of checkout sessions that are no longer pending.
	Reservations int64 `json:"reservations"`
	// CartLocks held by sessions that are no longer pending.
	CartLocks int64 `json:"cartLocks"`
	// CartItems of archived products in unlocked carts.
	CartItems int64 `json:"cartItems"`
	// ClaimTokens used or expired.
	ClaimTokens int64 `json:"claimTokens"`
	// AdminSessions past their expiry, and pending 2FA logins past theirs.
	AdminSessions   int64 `json:"adminSessions"`
	LoginChallenges int64 `json:"loginChallenges"`
	// BulkJobs are bulk inventory job records older than 30 days.
	BulkJobs int64 `json:"bulkJobs"`
}

func (o Orphans) total() int64 {
	return o.Reservations + o.CartLocks + o.CartItems + o.ClaimTokens + o.AdminSessions + o.LoginChallenges + o.BulkJobs
}

// Problem is an inconsistency reconcile does not repair by itself.
type Problem struct {
	Kind   string `json:"kind"`
	Entity string `json:"entity"`
	Detail string `json:"detail"`
}

// Run performs every step and returns the report. A step that fails stops
// the run with its error (the repairs made so far stay).
func (s *Service) Run(ctx context.Context) (*Report, error) {
	r := &Report{StartedAt: s.now(), Reserved: []Drift{}, Committed: []Drift{}, Inventory: []Drift{}, Problems: []Problem{}}
	steps := []struct {
		name string
		run  func(context.Context, *Report) error
	}{
		{"expire_sessions", s.expireSessions},
		{"orphan_reservations", s.orphanReservations},
		{"stock_counters", s.stockCounters},
		{"stock_levels", s.stockLevels},
		{"orphans", s.orphans},
		{"consistency", s.consistency},
		{"returns", s.returns},
		{"tax_documents", s.taxDocuments},
		{"gst_portal", s.gstPortal},
		{"rollups", s.rollups},
		{"settle_refunds", s.settleRefunds},
		{"refund_duplicates", s.refundDuplicates},
		{"close_payment_links", s.closeLinks},
		{"shipments", s.shipmentsStep},
	}
	for _, st := range steps {
		if err := st.run(ctx, r); err != nil {
			return r, fmt.Errorf("reconcile.%s: %w", st.name, err)
		}
	}
	for _, d := range append(append(append([]Drift(nil), r.Reserved...), r.Committed...), r.Inventory...) {
		r.Found++
		if d.Fixed {
			r.Fixed++
		}
	}
	orphans := int(r.Orphans.total())
	settled := r.Refunds.Processed + r.Refunds.Failed + r.DuplicatePayments.Refunded + r.DuplicatePayments.Refused + r.PaymentLinks.Closed
	r.Found += r.ExpiredSessions + orphans + len(r.Problems) + settled + r.Refunds.Pending + r.DuplicatePayments.Pending + r.PaymentLinks.Pending
	r.Fixed += r.ExpiredSessions + orphans + settled
	r.FinishedAt = s.now()
	s.log.InfoContext(ctx, "reconcile finished", "found", r.Found, "fixed", r.Fixed,
		"duration", r.FinishedAt.Sub(r.StartedAt).String())
	return r, nil
}

func (s *Service) rollups(ctx context.Context, r *Report) error {
	n, err := s.stats.RollupAll(ctx, s.now())
	r.RollupDays = n
	return err
}

// Enqueue queues a reconcile job for the worker and returns its id.
// Errors: SERVICE_UNAVAILABLE when the queue cannot be reached.
func Enqueue(ctx context.Context, q tasks.Enqueuer) (string, error) {
	id := uuid.NewString()
	task, opts := tasks.NewReconcileTask(id)
	if _, err := tasks.Submit(ctx, q, task, opts...); err != nil {
		return "", apperr.Wrap(apperr.Unavailable, "the job queue is unavailable; nothing was queued", err)
	}
	return id, nil
}
