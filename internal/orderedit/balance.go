package orderedit

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/metrics"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm/clause"
)

// LinkBalance makes a payment link for what order id owes after an edit
// (balanceDue of a partially_paid order), valid for the link TTL. A link
// for the same amount still open is answered again instead of a new one
// (the gateway keeps one link per reference, so a retry after a lost answer
// gets the same link); any other open link is closed. Errors: NOT_FOUND,
// CONFLICT (the order owes nothing; its balance changed while the gateway
// made the link, which is cancelled), SERVICE_UNAVAILABLE (the gateway did
// not make the link). A keyed request retried after its process died
// answers with the link row it recorded under its key (making it at the
// gateway if the first run died before that), as it is now.
func (s *Service) LinkBalance(ctx context.Context, id uuid.UUID, by audit.Actor) (*BalanceLink, error) {
	var o models.Order
	var l models.OrderPaymentLink
	if ref, ok := idempotency.RecordedChange(ctx); ok {
		db := s.db.WithContext(ctx)
		if err := db.Take(&l, "id = ? AND order_id = ?", ref, id).Error; err != nil {
			return nil, translate(err)
		}
		if err := db.Take(&o, "id = ?", id).Error; err != nil {
			return nil, translate(err)
		}
		if l.LinkID != nil || l.Status != models.LinkOpen {
			return &BalanceLink{l, o.Currency}, nil
		}
		return s.makeBalanceLink(ctx, &o, l)
	}
	err := s.units.Run(ctx, func(u *uow.Unit) error {
		tx := u.Tx()
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(&o, "id = ?", id).Error; err != nil {
			return err
		}
		if o.PaymentStatus != models.PaymentPartiallyPaid || o.BalanceDue <= 0 || o.Status == models.OrderCancelled {
			return apperr.Conflictf("the order owes no balance: its payment is %s", o.PaymentStatus).
				WithDetails(map[string]any{"paymentStatus": o.PaymentStatus, "balanceDue": o.BalanceDue})
		}
		q := tx.Where("order_id = ? AND status = ? AND amount = ? AND expires_at > now()", o.ID, models.LinkOpen, o.BalanceDue).
			Order("created_at DESC").Limit(1).Find(&l)
		if q.Error != nil {
			return fmt.Errorf("orderedit.link: %w", q.Error)
		}
		if q.RowsAffected == 1 {
			return idempotency.RecordChange(u, l.ID.String())
		}
		// An open link for another amount, or expired, is closed: one link
		// at a time asks for the balance.
		if err := order.StageCloseLinks(u, &o); err != nil {
			return err
		}
		// Its time as Postgres keeps it: a retry's answer reads it back.
		l = models.OrderPaymentLink{ID: uuid.New(), OrderID: o.ID, Amount: o.BalanceDue, Status: models.LinkOpen,
			ExpiresAt: time.Now().UTC().Add(s.set.LinkTTL).Truncate(time.Second), AdminID: adminRef(by.AdminID),
			CreatedAt: time.Now().UTC().Truncate(time.Microsecond)}
		if err := u.Create(&l); err != nil {
			return fmt.Errorf("orderedit.link: %w", err)
		}
		if err := idempotency.RecordChange(u, l.ID.String()); err != nil {
			return err
		}
		return audit.Stage(u, by.Audit, o.ID.String())
	})
	if err != nil {
		return nil, translate(err)
	}
	if l.LinkID != nil {
		return &BalanceLink{l, o.Currency}, nil
	}
	return s.makeBalanceLink(ctx, &o, l)
}

// makeBalanceLink makes link row l of order o at the gateway and records
// it. Errors: those of LinkBalance.
func (s *Service) makeBalanceLink(ctx context.Context, o *models.Order, l models.OrderPaymentLink) (*BalanceLink, error) {
	link, err := s.links.CreateLink(ctx, gateway.LinkRequest{Amount: l.Amount, Currency: o.Currency, Reference: l.ID.String(),
		Description: "Balance of order " + o.OrderNumber, Name: o.Name, Email: o.Email, Phone: o.Phone, ExpiresAt: l.ExpiresAt})
	if err != nil {
		s.log.WarnContext(ctx, "balance payment link not created", "order_id", o.ID, "err", err)
		return nil, apperr.Wrap(apperr.Unavailable, "the payment gateway is unavailable; try again", err)
	}
	var status string
	if err := s.db.WithContext(ctx).Raw(`UPDATE order_payment_links SET link_id = ?, url = ? WHERE id = ? RETURNING status`,
		link.ID, link.URL, l.ID).Scan(&status).Error; err != nil {
		return nil, fmt.Errorf("orderedit.link: %w", err)
	}
	l.LinkID, l.URL = &link.ID, &link.URL
	if status != models.LinkOpen {
		// The balance changed while the gateway made the link, which
		// closed the row: the link must not stay payable there.
		order.QueueLinkCancel(ctx, s.queue, s.log, l.ID.String())
		return nil, apperr.Conflictf("the order's balance changed while the link was made; ask again").
			WithDetails(map[string]any{"linkStatus": status})
	}
	return &BalanceLink{l, o.Currency}, nil
}

// BalanceLink is a balance's payment link and the currency it asks in.
type BalanceLink struct {
	models.OrderPaymentLink
	Currency string
}

// SettleLink records the payment of a balance link that the gateway's
// payment_link.paid event ev reports, and reports whether ev was for one
// (false: a draft order's link, for the checkout). In one transaction with
// the link and the order locked: the payment row, paid_total, the balance
// cleared, the payment status, a history note and order.paid. A link
// already paid is left as it is: the event came twice.
//
// Money is counted only when it pays an open link, made before the link
// expired (the payment's own time, not the event's: a webhook may arrive
// late), for exactly the link's amount, which is what the order owes. Any
// other payment of the link (closed when the balance changed, paid after
// it expired, in another currency or amount, beyond the balance, or of a
// cancelled order) changes no total: its payment row is recorded
// needs_review with a history note, an error log and
// payments_needs_review_total{reason="balance_link"}, for staff to refund
// or settle with the customer (docs/DECISIONS.md "Order edits").
func (s *Service) SettleLink(ctx context.Context, ev gateway.Event) (bool, error) {
	var found int64
	if err := s.db.WithContext(ctx).Model(&models.OrderPaymentLink{}).Where("link_id = ?", ev.LinkID).Count(&found).Error; err != nil {
		return false, fmt.Errorf("orderedit.settle: %w", err)
	}
	if found == 0 {
		return false, nil
	}
	var review string
	var orderID uuid.UUID
	err := s.units.Run(ctx, func(u *uow.Unit) error {
		review = ""
		tx := u.Tx()
		var l models.OrderPaymentLink
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(&l, "link_id = ?", ev.LinkID).Error; err != nil {
			return err
		}
		if l.Status == models.LinkPaid {
			return nil
		}
		var o models.Order
		if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(&o, "id = ?", l.OrderID).Error; err != nil {
			return err
		}
		orderID = o.ID
		amount := money.Amount(ev.Payment.Amount)
		if amount <= 0 {
			s.log.ErrorContext(ctx, "balance link paid with no amount: not recorded, review with the gateway",
				"order_id", o.ID, "link_id", ev.LinkID, "amount", ev.Payment.Amount, "currency", ev.Payment.Currency)
			return nil
		}
		if review = uncounted(&l, &o, ev, amount); review != "" {
			return s.stageReview(u, &l, &o, ev, amount, review)
		}
		now := time.Now().UTC()
		pay := models.Payment{ID: uuid.New(), OrderID: o.ID, Provider: s.set.Provider, PaymentIntentID: ev.LinkID,
			PaymentID: ev.Payment.ID, Amount: amount, Currency: o.Currency, Method: ev.Payment.Method, Status: models.PaymentCaptured, CreatedAt: now}
		if err := u.Create(&pay); err != nil {
			return fmt.Errorf("orderedit.settle: %w", err)
		}
		if err := u.Flush(); err != nil { // the payment row, which the link names
			return err
		}
		// Paid at once, so that closing the order's other links (the
		// balance changes, StageMoves) leaves this one paid.
		if err := tx.Exec(`UPDATE order_payment_links SET status = ?, payment_id = ? WHERE id = ?`, models.LinkPaid, pay.ID, l.ID).Error; err != nil {
			return fmt.Errorf("orderedit.settle: %w", err)
		}
		o.PaidTotal += amount
		o.BalanceDue -= amount
		if o.BalanceDue == 0 {
			o.PaymentStatus = models.PaymentPaid
			if o.RefundedTotal > 0 {
				o.PaymentStatus = models.PaymentPartiallyRefunded
			}
		}
		if err := order.StageNote(u, &o, fmt.Sprintf("payment of %s received by payment link %s", amount, ev.LinkID), uuid.Nil); err != nil {
			return err
		}
		if err := order.StageMoves(u, &o, nil, "", uuid.Nil, map[string]any{"paid_total": o.PaidTotal,
			"balance_due": o.BalanceDue, "payment_status": o.PaymentStatus}); err != nil {
			return err
		}
		order.StageRollup(u, &o)
		_, err := outbox.Stage(u, outbox.Draft{Type: outbox.OrderPaid, Data: order.PaidEvent{OrderID: o.ID, OrderNumber: o.OrderNumber,
			CustomerID: o.CustomerID, PaymentID: pay.ID, Method: "payment_link", Amount: amount, Currency: o.Currency,
			Reference: ev.LinkID, PaymentMethod: o.PaymentMethod, CollectedAt: now}})
		return err
	})
	if database.IsUnique(err) {
		return true, nil // this gateway payment is recorded already
	}
	if err == nil && review != "" {
		metrics.PaymentsNeedingReview.WithLabelValues("balance_link").Inc()
		s.log.ErrorContext(ctx, "balance link payment not counted; refund it or settle it with the customer",
			"order_id", orderID, "link_id", ev.LinkID, "payment_id", ev.Payment.ID, "amount", ev.Payment.Amount, "reason", review)
	}
	return true, err
}

// uncounted is why payment ev of link l must not count towards locked
// order o, "" when it counts.
func uncounted(l *models.OrderPaymentLink, o *models.Order, ev gateway.Event, amount money.Amount) string {
	paidAt := time.Unix(ev.Payment.CreatedAt, 0)
	if ev.Payment.CreatedAt <= 0 {
		paidAt = time.Unix(ev.CreatedAt, 0) // no time of its own: the event's
	}
	switch {
	case l.Status == models.LinkCancelled:
		return "the link was closed when the order's balance changed"
	case paidAt.After(l.ExpiresAt):
		return fmt.Sprintf("paid at %s, after the link expired at %s", paidAt.UTC().Format(time.RFC3339), l.ExpiresAt.UTC().Format(time.RFC3339))
	case !strings.EqualFold(ev.Payment.Currency, o.Currency):
		return fmt.Sprintf("paid in %s, the order is in %s", ev.Payment.Currency, o.Currency)
	case o.Status == models.OrderCancelled:
		return "the order is cancelled"
	case o.PaymentStatus != models.PaymentPartiallyPaid || amount > o.BalanceDue:
		return fmt.Sprintf("beyond what the order owes (%s)", o.BalanceDue)
	case amount != l.Amount:
		return fmt.Sprintf("the link asked %s", l.Amount)
	}
	return ""
}

// stageReview records payment ev of link l, which does not count (reason),
// on locked order o: its payment row needs_review, named by the link, and
// a history note. The order's totals are left as they are.
func (s *Service) stageReview(u *uow.Unit, l *models.OrderPaymentLink, o *models.Order, ev gateway.Event, amount money.Amount, reason string) error {
	pay := models.Payment{ID: uuid.New(), OrderID: o.ID, Provider: s.set.Provider, PaymentIntentID: ev.LinkID,
		PaymentID: ev.Payment.ID, Amount: amount, Currency: strings.ToUpper(ev.Payment.Currency), Method: ev.Payment.Method,
		Status: models.PaymentNeedsReview, CreatedAt: time.Now().UTC()}
	if err := u.Create(&pay); err != nil {
		return fmt.Errorf("orderedit.review: %w", err)
	}
	if l.PaymentID == nil {
		u.Update("order_payment_links", l.ID, `UPDATE order_payment_links SET payment_id = ? WHERE id = ?`, pay.ID, l.ID)
	}
	return order.StageNote(u, o, fmt.Sprintf("payment %s of %s %s by payment link %s not counted (%s): needs review, refund it or settle it with the customer",
		ev.Payment.ID, amount, pay.Currency, ev.LinkID, reason), uuid.Nil)
}
