package checkout

import (
	"context"

	"github.com/gocommerce/shop/internal/analytics"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/cart"
	"github.com/gocommerce/shop/internal/cod"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/password"
	"github.com/gocommerce/shop/internal/shipping"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// ProviderCOD is the payment_provider of a COD checkout's session and
// order; their payment_intent_id is "cod_" and the session id, so the
// order's unique (provider, intent) key makes one order per session.
const ProviderCOD = "cod"

// Unavailable is the refusal of a COD checkout COD is not offered for:
// VALIDATION_ERROR naming paymentMethod, with the reason (cod.Reason*).
func Unavailable(reason string) *apperr.Error {
	return apperr.New(apperr.Validation, "cash on delivery is not available: "+cod.Explain(reason)).
		WithDetails(map[string]any{"field": "paymentMethod", "issue": cod.Explain(reason), "reason": reason})
}

// CheckoutCOD places the cart of owner as a cash on delivery order at once
// (docs/DECISIONS.md "Cash on delivery and offline payments"), in one
// transaction: the cart is priced as for an online checkout, COD must be
// available for it (cod.Decide, with the buyer's email and phone locked so
// the per-customer cap holds under concurrent checkouts), the stock of
// every line is committed directly (no reservation window), and the order
// (confirmed, payment pending, with the COD fee and its GST), a COMPLETED
// session, the discount's use, the emptied cart and order.created are
// written. A pending online session of the cart is ended first (one cart
// pays once: a late capture of it is refunded as a duplicate). The gateway
// is never called. After commit the confirmation email is queued.
// Errors: VALIDATION_ERROR (empty cart, an address that is not the
// customer's, paymentMethod when COD is unavailable), CONFLICT (not enough
// stock with details.variantId, nothing written; a product no longer on
// sale; a discount that no longer applies; the cart's online payment is
// being completed), FORBIDDEN (a deactivated customer's email).
func (s *Service) CheckoutCOD(ctx context.Context, owner cart.Owner, in Input) (*models.Order, error) {
	var hash *string
	if in.Guest != nil && in.Guest.Password != "" {
		h, err := password.Hash(in.Guest.Password)
		if err != nil {
			return nil, err
		}
		hash = &h
	}
	var err error
	if in.courier, err = s.deliverable(ctx, in); err != nil {
		return nil, err
	}
	var o *models.Order
	var sess *models.CheckoutSession
	err = retryDeadlock(func() error {
		return s.units.Run(ctx, func(u *uow.Unit) error {
			c, err := cart.Lock(u.Tx(), owner, false)
			if err != nil {
				return err
			}
			if c == nil {
				return ErrEmptyCart
			}
			if err := s.endPendingForCOD(u.Tx(), c); err != nil {
				return err
			}
			o, sess, err = s.placeCOD(ctx, u, c, in, hash)
			return err
		})
	})
	if err != nil {
		return nil, database.Translate(err, "order")
	}
	s.forget(ctx, sess.Lines)
	task, opts := tasks.NewOrderEmailsTask(o.ID.String())
	if err := tasks.Enqueue(ctx, s.queue, task, opts...); err != nil {
		// The order stands; the email sweep of unsent order emails is the
		// same task's retry (docs/DECISIONS.md "Payments and webhooks").
		s.log.ErrorContext(ctx, "cod checkout: queue order emails", "order_id", o.ID, "error", err)
	}
	analytics.Touch(ctx, s.queue, s.log, o.CreatedAt)
	s.log.InfoContext(ctx, "cash on delivery order placed", "order_id", o.ID, "order_number", o.OrderNumber)
	return o, nil
}

// endPendingForCOD ends the cart's pending online session (EXPIRED, its
// reservations released, the cart unlocked) so the COD order replaces it;
// one whose payment is already authorized is not ended: CONFLICT.
func (s *Service) endPendingForCOD(tx *gorm.DB, c *models.Cart) error {
	var sess models.CheckoutSession
	err := tx.Raw(`SELECT * FROM checkout_sessions WHERE cart_id = ? AND state = ? FOR UPDATE`, c.ID, models.CheckoutPending).Scan(&sess).Error
	if err != nil || sess.ID == uuid.Nil {
		return wrap("cod_pending", err)
	}
	if sess.ExpiresAt.After(s.now()) && sess.PaymentStatus == models.IntentAuthorized {
		return apperr.New(apperr.Conflict, "the payment of this cart's pending checkout is being completed").
			WithDetails(map[string]any{"checkoutSessionId": sess.ID.String()})
	}
	return endSession(tx, c, sess.ID, models.CheckoutExpired)
}

// placeCOD prices the cart, decides COD, commits the stock and stages the
// order in u; the caller holds the cart's lock. Its reads and the stock's
// conditional updates run at once; its writes go in u's one statement at
// the commit.
func (s *Service) placeCOD(ctx context.Context, u *uow.Unit, c *models.Cart, in Input, hash *string) (*models.Order, *models.CheckoutSession, error) {
	tx := u.Tx()
	buyer, ship, bill, err := s.buyer(tx, in, hash)
	if err != nil {
		return nil, nil, err
	}
	var group *uuid.UUID
	if in.Customer != nil {
		group = in.Customer.CustomerGroupID
	}
	pb, err := PricingBuyer(tx, buyer.ID, group, stateOf(ship))
	if err != nil {
		return nil, nil, err
	}
	priced, err := cart.Price(ctx, tx, c.ID, c.DiscountCode, pb, discount.Fresh, s.now())
	if err != nil {
		return nil, nil, err
	}
	if err := checkPriced(priced); err != nil {
		return nil, nil, err
	}
	charge, err := shipping.ChargeFor(tx, shipping.ChargeInput{MethodID: in.ShippingMethodID, State: stateOf(ship),
		CartTotal: priced.Total, ClientCost: in.ShippingCost, Waived: priced.FreeShipping() != nil})
	if err != nil {
		return nil, nil, err
	}
	charge = WaiveShipping(priced, charge)
	phone := buyer.Phone
	if in.Guest != nil {
		phone = in.Guest.Phone
	}
	d, err := cod.Decide(tx, cod.Quote{State: stateOf(ship), Total: priced.Total + charge.Cost, Email: buyer.Email, Phone: phone,
		Courier: in.courier, Pincode: pincodeOf(ship)}, true)
	if err != nil {
		return nil, nil, err
	}
	if !d.Available {
		return nil, nil, Unavailable(d.Reason)
	}
	pending, err := s.confirmCOD(tx, priced.Total+charge.Cost+d.Fee, buyer.Email, phone, in.CODOTP)
	if err != nil {
		return nil, nil, err
	}
	sess, err := s.session(c, in, buyer, ship, bill, priced, charge)
	if err != nil {
		return nil, nil, err
	}
	now := s.now()
	intent := "cod_" + sess.ID.String()
	sess.State, sess.PaymentProvider, sess.PaymentIntentID, sess.CompletedAt = models.CheckoutCompleted, ProviderCOD, &intent, &now
	fee, feeParts := codFeeOf(d, priced, charge.WithGoods)
	sess.Total += fee.Fee
	sess.TaxTotal += fee.Tax
	sess.ChargeParts = append(sess.ChargeParts, feeParts...)
	if sess.PurchaseID, err = continuedPurchase(tx, c.ID); err != nil {
		return nil, nil, err
	}
	lines, err := sessionLines(sess)
	if err != nil {
		return nil, nil, err
	}
	items := stockItems(lines)
	// Committed at once: a shortage refuses the checkout and the
	// transaction writes nothing.
	if err := stock.CommitDirect(tx, items); err != nil {
		return nil, nil, err
	}
	if err := holdDiscounts(tx, priced.Applied, buyer.ID, sess.ID); err != nil {
		return nil, nil, err
	}
	o, err := s.stagePlaced(u, sess, items, func() (*models.Order, error) {
		if pending {
			return order.CreateCODPending(u, sess, lines, fee, s.set.StoreState)
		}
		return order.CreateCOD(u, sess, lines, fee, s.set.StoreState)
	})
	if err != nil {
		return nil, nil, err
	}
	if err := emptyCart(u, c, sess, lines); err != nil {
		return nil, nil, err
	}
	return o, sess, nil
}

// stagePlaced stages in u an order placed at once (a COD checkout, a draft
// placed by staff) for COMPLETED session sess, whose stock is committed
// already: the order create stages, the session naming it, the discount's
// use, order.created and the low-stock events (no payment.succeeded:
// nothing was paid).
func (s *Service) stagePlaced(u *uow.Unit, sess *models.CheckoutSession, items []stock.Item, create func() (*models.Order, error)) (*models.Order, error) {
	o, err := create()
	if err != nil {
		return nil, err
	}
	sess.OrderID = &o.ID
	if err := u.Create(sess); err != nil {
		return nil, wrap("placed_session", err)
	}
	stageDiscountUse(u, sess, o.ID)
	drafts, err := s.lowStockDrafts(u.Tx(), o, items)
	if err != nil {
		return nil, err
	}
	_, err = outbox.Stage(u, append([]outbox.Draft{{Type: outbox.OrderCreated, Data: orderCreatedData(o)}}, drafts...)...)
	return o, err
}

// lowStockDrafts is inventory.low_stock for each variant of items that
// order o's committed stock took to its threshold.
func (s *Service) lowStockDrafts(tx *gorm.DB, o *models.Order, items []stock.Item) ([]outbox.Draft, error) {
	low, err := stock.CrossedLow(tx, items, s.set.LowStockThreshold)
	if err != nil {
		return nil, err
	}
	drafts := make([]outbox.Draft, len(low))
	for i, l := range low {
		drafts[i] = outbox.Draft{Type: outbox.InventoryLowStock, Data: LowStockData{VariantID: l.VariantID.String(), SKU: l.SKU,
			CurrentStock: l.Available, Threshold: l.Threshold, OrderID: o.ID.String()}}
	}
	return drafts, nil
}
