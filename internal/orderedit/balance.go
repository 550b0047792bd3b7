package orderedit

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/gateway"
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
// gets the same link). Errors: NOT_FOUND, CONFLICT (the order owes
// nothing), SERVICE_UNAVAILABLE (the gateway did not make the link).
func (s *Service) LinkBalance(ctx context.Context, id uuid.UUID, by audit.Actor) (*BalanceLink, error) {
	var o models.Order
	var l models.OrderPaymentLink
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
			return nil
		}
		l = models.OrderPaymentLink{ID: uuid.New(), OrderID: o.ID, Amount: o.BalanceDue, Status: models.LinkOpen,
			ExpiresAt: time.Now().UTC().Add(s.set.LinkTTL).Truncate(time.Second), AdminID: adminRef(by.AdminID), CreatedAt: time.Now().UTC()}
		if err := u.Create(&l); err != nil {
			return fmt.Errorf("orderedit.link: %w", err)
		}
		return audit.Stage(u, by.Audit, o.ID.String())
	})
	if err != nil {
		return nil, translate(err)
	}
	if l.LinkID != nil {
		return &BalanceLink{l, o.Currency}, nil
	}
	link, err := s.links.CreateLink(ctx, gateway.LinkRequest{Amount: l.Amount, Currency: o.Currency, Reference: l.ID.String(),
		Description: "Balance of order " + o.OrderNumber, Name: o.Name, Email: o.Email, Phone: o.Phone, ExpiresAt: l.ExpiresAt})
	if err != nil {
		s.log.WarnContext(ctx, "balance payment link not created", "order_id", o.ID, "err", err)
		return nil, apperr.Wrap(apperr.Unavailable, "the payment gateway is unavailable; try again", err)
	}
	if err := s.db.WithContext(ctx).Model(&l).Updates(map[string]any{"link_id": link.ID, "url": link.URL}).Error; err != nil {
		return nil, fmt.Errorf("orderedit.link: %w", err)
	}
	l.LinkID, l.URL = &link.ID, &link.URL
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
// cleared (a payment beyond it stays visible as paid above the total, for
// staff to refund), the payment status, a history note and order.paid. A
// link already paid is left as it is: the event came twice.
func (s *Service) SettleLink(ctx context.Context, ev gateway.Event) (bool, error) {
	var found int64
	if err := s.db.WithContext(ctx).Model(&models.OrderPaymentLink{}).Where("link_id = ?", ev.LinkID).Count(&found).Error; err != nil {
		return false, fmt.Errorf("orderedit.settle: %w", err)
	}
	if found == 0 {
		return false, nil
	}
	err := s.units.Run(ctx, func(u *uow.Unit) error {
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
		amount := money.Amount(ev.Payment.Amount)
		if ev.Payment.Currency != o.Currency || amount <= 0 {
			s.log.ErrorContext(ctx, "balance link paid in another currency or amount: not recorded, review with the gateway",
				"order_id", o.ID, "link_id", ev.LinkID, "amount", ev.Payment.Amount, "currency", ev.Payment.Currency)
			return nil
		}
		now := time.Now().UTC()
		pay := models.Payment{ID: uuid.New(), OrderID: o.ID, Provider: s.set.Provider, PaymentIntentID: ev.LinkID,
			PaymentID: ev.Payment.ID, Amount: amount, Currency: o.Currency, Method: ev.Payment.Method, Status: "captured", CreatedAt: now}
		if err := u.Create(&pay); err != nil {
			return fmt.Errorf("orderedit.settle: %w", err)
		}
		u.Update("order_payment_links", l.ID, `UPDATE order_payment_links SET status = ?, payment_id = ? WHERE id = ?`,
			models.LinkPaid, pay.ID, l.ID)
		o.PaidTotal += amount
		o.BalanceDue = max(o.BalanceDue-amount, 0)
		if o.BalanceDue == 0 && o.PaymentStatus == models.PaymentPartiallyPaid {
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
	return true, err
}
