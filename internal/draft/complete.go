package draft

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/gocommerce/shop/internal/analytics"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm/clause"
)

// Payment ways of completing a draft.
const (
	// PaymentByLink: the customer pays a payment link.
	PaymentByLink = "link"
	// PaymentCOD: the order is placed at once, cash on delivery.
	PaymentCOD = "cod"
	// PaymentOffline: the order is placed at once, paid outside the gateway
	// (a method and a reference, as a recorded payment).
	PaymentOffline = "offline"
)

// CompleteNow completes draft id as an order at once (checkout.PlaceDraft):
// cash on delivery (with the COD fee, payment pending) or paid offline
// (the payment recorded with its method and reference). The stock is
// committed in the same unit; the confirmation email, the events and the
// analytics follow the commit. Errors: NOT_FOUND, CONFLICT (completed; a
// payable link; not enough stock, with details.variantId, nothing written;
// a product off sale; a code that no longer applies), VALIDATION_ERROR
// (shipping checkout would refuse; the payment's method).
func (s *Service) CompleteNow(ctx context.Context, id uuid.UUID, how checkout.Placement, by audit.Actor) (*View, error) {
	if _, ok := idempotency.RecordedChange(ctx); ok {
		return s.Get(ctx, id)
	}
	err := s.units.Run(ctx, func(u *uow.Unit) error {
		d, _, err := s.lockOpen(u.Tx(), id)
		if err != nil {
			return err
		}
		in, err := s.checkoutOf(u, d)
		if err != nil {
			return err
		}
		if how.Offline != nil {
			how.Offline.AdminID = by.AdminID
		}
		o, err := s.checkout.PlaceDraft(u, in, how)
		if err != nil {
			return err
		}
		u.Update("draft_orders", d.ID, `UPDATE draft_orders SET order_id = ?, checkout_session_id = ?, cart_id = (SELECT cart_id FROM checkout_sessions WHERE id = ?),
			payment_link_id = NULL, payment_link_url = NULL, updated_at = now() WHERE id = ?`, o.ID, *o.CheckoutSessionID, *o.CheckoutSessionID, d.ID)
		orderID, created := o.ID.String(), o.CreatedAt
		u.AfterCommit("draft.order_emails:"+orderID, func(ctx context.Context, q tasks.Enqueuer, log *slog.Logger) {
			task, opts := tasks.NewOrderEmailsTask(orderID)
			if err := tasks.Enqueue(ctx, q, task, opts...); err != nil {
				log.ErrorContext(ctx, "draft order: queue order emails", "order_id", orderID, "err", err)
			}
		})
		u.AfterCommit(outbox.NudgeKey, outbox.Nudge)
		u.AfterCommit("analytics", func(ctx context.Context, q tasks.Enqueuer, log *slog.Logger) { analytics.Touch(ctx, q, log, created) })
		if err := idempotency.RecordChange(u, id.String()); err != nil {
			return err
		}
		return audit.Stage(u, by.Audit, id.String())
	})
	if err != nil {
		return nil, err
	}
	return s.Get(ctx, id)
}

// CompleteLink completes draft id with a payment link: in one unit the
// draft's checkout session is opened (its stock reserved for DRAFT_LINK_TTL,
// checkout.OpenLink); after commit the gateway makes the link (one per
// session, so a retry gets the same one), its id is recorded as the
// session's payment intent, and the email to the customer is written to the
// outbox with the link. A request that died before the link was made is
// resumed by the next one. Errors: NOT_FOUND, CONFLICT (completed; a
// payable link; not enough stock, with details.variantId; a product off
// sale; a code that no longer applies), VALIDATION_ERROR (shipping the
// draft names that checkout would refuse), SERVICE_UNAVAILABLE (the gateway:
// the session is ended and its stock released). A keyed request retried
// after it finished (the link recorded under its key) answers with the
// draft as it is.
func (s *Service) CompleteLink(ctx context.Context, id uuid.UUID, by audit.Actor) (*View, error) {
	if _, ok := idempotency.RecordedChange(ctx); ok {
		return s.Get(ctx, id)
	}
	var sess *models.CheckoutSession
	var d models.DraftOrder
	err := s.units.Run(ctx, func(u *uow.Unit) error {
		tx := u.Tx()
		err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Take(&d, "id = ?", id).Error
		if database.IsNotFound(err) {
			return apperr.Missing("draft order")
		}
		if err != nil {
			return fmt.Errorf("draft.complete: %w", err)
		}
		current, err := s.sessionOf(tx, &d)
		if err != nil {
			return err
		}
		switch st := s.statusOf(&d, current); {
		case st == StatusAwaitingPayment && current.PaymentIntentID == nil:
			sess = current // the link was never made: make it now
			return audit.Stage(u, by.Audit, id.String())
		case st != StatusOpen:
			return errLocked(st)
		}
		if sess, err = s.openLink(u, &d); err != nil {
			return err
		}
		u.Update("draft_orders", d.ID, `UPDATE draft_orders SET checkout_session_id = ?, cart_id = ?, payment_link_id = NULL,
			payment_link_url = NULL, updated_at = now() WHERE id = ?`, sess.ID, sess.CartID, d.ID)
		return audit.Stage(u, by.Audit, id.String())
	})
	if err != nil {
		return nil, err
	}
	link, err := s.links.CreateLink(ctx, gateway.LinkRequest{Amount: sess.Total, Currency: sess.Currency,
		Reference: sess.ID.String(), Description: "Your order from draft " + d.ID.String()[:8],
		Name: sess.Name, Email: sess.Email, Phone: sess.Phone, ExpiresAt: sess.ExpiresAt})
	if err != nil {
		s.log.WarnContext(ctx, "payment link not created; releasing the draft's stock", "draft_order_id", id, "err", err)
		if ferr := s.checkout.FailLink(ctx, sess); ferr != nil {
			s.log.ErrorContext(ctx, "draft's link session not released after gateway failure", "checkout_session_id", sess.ID, "err", ferr)
		}
		return nil, apperr.Wrap(apperr.Unavailable, "the payment gateway is unavailable; try again", err)
	}
	if err := s.checkout.AttachLink(ctx, sess.ID, link.ID); err != nil {
		return nil, err
	}
	err = s.units.Run(ctx, func(u *uow.Unit) error {
		u.Update("draft_orders", d.ID, `UPDATE draft_orders SET payment_link_id = ?, payment_link_url = ?, updated_at = now()
			WHERE id = ? AND checkout_session_id = ?`, link.ID, link.URL, d.ID, sess.ID)
		u.Add(`INSERT INTO customer_emails (kind, ref, customer_id) VALUES (?, ?, ?) ON CONFLICT (kind, ref) DO NOTHING`,
			models.EmailPaymentLink, sess.ID.String(), sess.CustomerID)
		u.AfterCommit("draft.emails", nudgeEmails)
		if err := s.stageLinkMessage(u, link.ID, link.URL, d.Name, d.Phone, sess.CustomerID, sess.Total); err != nil {
			return err
		}
		// Recorded with the link, not with the session: a request that died
		// before the link was made is resumed by its retry, as above.
		return idempotency.RecordChange(u, id.String())
	})
	if err != nil {
		return nil, err
	}
	return s.Get(ctx, id)
}

// openLink prices draft d as checkout would and opens its link session in
// u. Errors: those of CompleteLink.
func (s *Service) openLink(u *uow.Unit, d *models.DraftOrder) (*models.CheckoutSession, error) {
	in, err := s.checkoutOf(u, d)
	if err != nil {
		return nil, err
	}
	in.TTL = s.set.LinkTTL
	return s.checkout.OpenLink(u, in)
}

// checkoutOf prices draft d as checkout would, in u, and returns what a
// session of it is made from. Errors: VALIDATION_ERROR (shipping checkout
// would refuse).
func (s *Service) checkoutOf(u *uow.Unit, d *models.DraftOrder) (checkout.LinkCheckout, error) {
	tx := u.Tx()
	c, err := s.customerOf(tx, d.CustomerID)
	if err != nil {
		return checkout.LinkCheckout{}, err
	}
	p, err := s.price(u.Context(), tx, d, c)
	if err != nil {
		return checkout.LinkCheckout{}, err
	}
	if p.shippingErr != nil {
		return checkout.LinkCheckout{}, p.shippingErr
	}
	bill := json.RawMessage(d.BillingAddress)
	if len(bill) == 0 {
		bill = json.RawMessage(d.ShippingAddress)
	}
	return checkout.LinkCheckout{DraftID: d.ID, Customer: withContact(c, d), Name: d.Name, Phone: d.Phone,
		Ship: json.RawMessage(d.ShippingAddress), Bill: bill, Priced: p.lines, Charge: p.charge, Buyer: d.TaxBuyer}, nil
}

// withContact is the customer with the draft's email: the session (and the
// order) is addressed where staff said.
func withContact(c *models.Customer, d *models.DraftOrder) *models.Customer {
	cc := *c
	cc.Email = d.Email
	return &cc
}

// nudgeEmails asks the worker to send the payment-link emails now; the
// scheduler's sweep sends them anyway.
func nudgeEmails(ctx context.Context, q tasks.Enqueuer, log *slog.Logger) {
	task, opts := tasks.NewDraftEmailsTask(time.Now())
	if err := tasks.Enqueue(ctx, q, task, opts...); err != nil {
		log.WarnContext(ctx, "payment link email nudge failed; the sweep will send it", "err", err)
	}
}
