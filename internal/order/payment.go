package order

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// OfflinePayment is money received outside the gateway for an order: cash
// collected on delivery (by the courier or the store), UPI, a bank
// transfer or cash at the counter.
type OfflinePayment struct {
	// Method is one of models.OfflineMethods.
	Method    string
	Amount    money.Amount
	Reference string
	// CollectedAt is when the money was received; zero: now.
	CollectedAt time.Time
	// AdminID recorded it (uuid.Nil for none).
	AdminID uuid.UUID
	// RemittanceJob and RemittanceRow name the courier remittance row that
	// applies it; nil when staff record it one by one.
	RemittanceJob *string
	RemittanceRow *int
}

// PaidEvent is the data of order.paid (docs/WEBHOOKS.md).
type PaidEvent struct {
	OrderID       uuid.UUID    `json:"orderId"`
	OrderNumber   string       `json:"orderNumber"`
	CustomerID    uuid.UUID    `json:"customerId"`
	PaymentID     uuid.UUID    `json:"paymentId"`
	Method        string       `json:"method"`
	Amount        money.Amount `json:"amount"`
	Currency      string       `json:"currency"`
	Reference     string       `json:"reference"`
	PaymentMethod string       `json:"paymentMethod"`
	CollectedAt   time.Time    `json:"collectedAt"`
}

// Refusals of a recorded payment, for the remittance report's reasons.
var (
	// ErrAlreadyPaid: the order's payment is not pending.
	ErrAlreadyPaid = apperr.New(apperr.Conflict, "the order is already paid")
	// ErrCancelledUnpaid: a cancelled order takes no payment.
	ErrCancelledUnpaid = apperr.New(apperr.Conflict, "a cancelled order takes no payment")
)

// RecordPayment records p for order id (POST /admin/orders/{id}/payments):
// the order becomes paid (StageOfflinePayment), with the audit entry of by.
// Errors: NOT_FOUND, VALIDATION_ERROR (amount other than due, method),
// CONFLICT (already paid, cancelled). A keyed request retried after its
// process died answers with the payment it recorded (paymentMade) instead
// of the CONFLICT of an order already paid.
func (s *Service) RecordPayment(ctx context.Context, id uuid.UUID, p OfflinePayment, by audit.Actor) (*models.Order, *models.Payment, error) {
	if o, pay, ok, err := s.paymentMade(ctx, id); ok {
		return o, pay, err
	}
	var o models.Order
	var pay *models.Payment
	err := s.units.Run(ctx, func(u *uow.Unit) error {
		if err := lockOrder(u.Tx(), id, &o); err != nil {
			return err
		}
		var err error
		if pay, err = StageOfflinePayment(u, &o, p); err != nil {
			return err
		}
		if err := idempotency.RecordChange(u, pay.ID.String()); err != nil {
			return err
		}
		return audit.Stage(u, by.Audit, o.ID.String())
	})
	if err != nil {
		return nil, nil, translate(err)
	}
	return &o, pay, nil
}

// paymentMade returns the payment of order id that an earlier run of the
// keyed request ctx serves recorded before its process died, with the
// order as it is now (ok true). Errors: NOT_FOUND (the payment is gone).
func (s *Service) paymentMade(ctx context.Context, id uuid.UUID) (o *models.Order, pay *models.Payment, ok bool, err error) {
	ref, ok := idempotency.RecordedChange(ctx)
	if !ok {
		return nil, nil, false, nil
	}
	db := s.db.WithContext(ctx)
	var p models.Payment
	if err := db.Take(&p, "id = ? AND order_id = ?", ref, id).Error; err != nil {
		return nil, nil, true, translate(err)
	}
	var got models.Order
	if err := db.Take(&got, "id = ?", id).Error; err != nil {
		return nil, nil, true, translate(err)
	}
	return &got, &p, true, nil
}

// StageOfflinePayment stages in u payment p of the locked order o: its
// payments row (provider offline), the order paid in full (paid_total,
// payment_status, balance_due), a history note and order.paid. The amount
// must be what is due: an unpaid order's total, or the balance an edit left
// owed on a partially paid one (docs/DECISIONS.md "Order edits"). Errors:
// VALIDATION_ERROR (method, amount), CONFLICT (ErrAlreadyPaid,
// ErrCancelledUnpaid).
func StageOfflinePayment(u *uow.Unit, o *models.Order, p OfflinePayment) (*models.Payment, error) {
	if !slices.Contains(models.OfflineMethods, p.Method) {
		return nil, apperr.Invalid("method", "must be one of cod, upi, bank_transfer, cash")
	}
	due := o.Total - o.PaidTotal
	switch o.PaymentStatus {
	case models.PaymentPending:
	case models.PaymentPartiallyPaid:
		due = o.BalanceDue
	default:
		return nil, ErrAlreadyPaid.WithDetails(map[string]any{"paymentStatus": o.PaymentStatus})
	}
	if o.Status == models.OrderCancelled {
		return nil, ErrCancelledUnpaid.WithDetails(map[string]any{"status": o.Status})
	}
	if p.Amount != due {
		return nil, apperr.Invalid("amount", "must equal the amount due, "+due.String())
	}
	now := time.Now().UTC()
	collected := p.CollectedAt.UTC()
	if p.CollectedAt.IsZero() {
		collected = now
	}
	pay := &models.Payment{ID: uuid.New(), OrderID: o.ID, Provider: models.ProviderOffline, PaymentIntentID: o.PaymentIntentID,
		Amount: p.Amount, Currency: o.Currency, Method: p.Method, Status: "captured", CreatedAt: now,
		Reference: p.Reference, CollectedAt: &collected, AdminID: adminRef(p.AdminID),
		RemittanceJob: p.RemittanceJob, RemittanceRow: p.RemittanceRow}
	pay.PaymentID = "offline_" + pay.ID.String()
	if err := u.Create(pay); err != nil {
		return nil, fmt.Errorf("order.record_payment: %w", err)
	}
	o.PaidTotal += p.Amount
	o.BalanceDue = 0
	o.PaymentStatus = models.PaymentPaid
	if o.RefundedTotal > 0 {
		o.PaymentStatus = models.PaymentPartiallyRefunded
	}
	note := fmt.Sprintf("payment of %s received (%s)", p.Amount, p.Method)
	if p.Reference != "" {
		note += ", reference " + p.Reference
	}
	if err := StageNote(u, o, note, p.AdminID); err != nil {
		return nil, err
	}
	if err := StageMoves(u, o, nil, "", p.AdminID, map[string]any{"paid_total": o.PaidTotal, "payment_status": o.PaymentStatus,
		"balance_due": o.BalanceDue}); err != nil {
		return nil, err
	}
	StageRollup(u, o)
	_, err := outbox.Stage(u, outbox.Draft{Type: outbox.OrderPaid, Data: PaidEvent{OrderID: o.ID, OrderNumber: o.OrderNumber,
		CustomerID: o.CustomerID, PaymentID: pay.ID, Method: p.Method, Amount: p.Amount, Currency: o.Currency,
		Reference: p.Reference, PaymentMethod: o.PaymentMethod, CollectedAt: collected}})
	return pay, err
}
