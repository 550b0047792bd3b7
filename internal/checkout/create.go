package checkout

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/cart"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/password"
	"github.com/gocommerce/shop/internal/shipping"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// ErrEmptyCart answers a checkout of a cart with no lines.
var ErrEmptyCart = apperr.New(apperr.Validation, "the cart is empty").
	WithDetails(map[string]any{"field": "cart", "issue": "is empty"})

// Checkout creates (or, for an unchanged cart with a pending session,
// returns again) the checkout session of owner's cart and its payment
// intent. In one transaction it re-prices the cart, re-checks the discount,
// finds or creates the buyer, reserves the stock of every line and locks the
// cart; the payment intent is created after commit. If the provider fails,
// the reservations are released and the session ends FAILED.
// Errors: VALIDATION_ERROR (empty cart, an address that is not the
// customer's), CONFLICT (not enough stock with details.variantId, a product
// no longer on sale, a discount that no longer applies, the email belongs
// to an account, a pending session already authorized), SERVICE_UNAVAILABLE
// (payment provider).
func (s *Service) Checkout(ctx context.Context, owner cart.Owner, in Input) (*Result, error) {
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
	var res Result
	err = retryDeadlock(func() error {
		return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			c, err := cart.Lock(tx, owner, false)
			if err != nil {
				return err
			}
			if c == nil {
				return ErrEmptyCart
			}
			pending, err := s.pendingSession(tx, c, in)
			if err != nil || pending != nil {
				res.Session = pending
				return err
			}
			res.Session, err = s.open(ctx, tx, c, in, hash)
			res.Created = err == nil
			return err
		})
	})
	if err != nil {
		return nil, database.Translate(err, "checkout session")
	}
	if res.Created {
		s.forget(ctx, res.Session.Lines)
	}
	if err := s.ensureIntent(ctx, res.Session); err != nil {
		return nil, err
	}
	return &res, nil
}

// pendingSession returns the cart's pending session when this is a repeat
// of the same checkout. A pending session of a changed checkout, or one past
// its expiry, is ended (EXPIRED, stock released) so a new one can start;
// one whose payment was already authorized is not. Errors: CONFLICT.
func (s *Service) pendingSession(tx *gorm.DB, c *models.Cart, in Input) (*models.CheckoutSession, error) {
	var sess models.CheckoutSession
	err := tx.Raw(`SELECT * FROM checkout_sessions WHERE cart_id = ? AND state = ? FOR UPDATE`, c.ID, models.CheckoutPending).Scan(&sess).Error
	if err != nil || sess.ID == uuid.Nil {
		return nil, wrap("pending", err)
	}
	lines, err := currentLines(tx, c.ID)
	if err != nil {
		return nil, err
	}
	live := sess.ExpiresAt.After(s.now())
	if live && sess.CartFingerprint == fingerprint(lines, c.DiscountCode, in) {
		return &sess, nil
	}
	if live && sess.PaymentStatus == models.IntentAuthorized {
		return nil, apperr.New(apperr.Conflict, "the payment of this cart's pending checkout is being completed").
			WithDetails(map[string]any{"checkoutSessionId": sess.ID.String()})
	}
	return nil, endSession(tx, c, sess.ID, models.CheckoutExpired)
}

// open prices the cart, resolves buyer and addresses, writes the session,
// reserves stock and locks the cart.
func (s *Service) open(ctx context.Context, tx *gorm.DB, c *models.Cart, in Input, hash *string) (*models.CheckoutSession, error) {
	buyer, ship, bill, err := s.buyer(tx, in, hash)
	if err != nil {
		return nil, err
	}
	var group *uuid.UUID
	if in.Customer != nil {
		group = in.Customer.CustomerGroupID
	}
	pb, err := PricingBuyer(tx, buyer.ID, group, stateOf(ship))
	if err != nil {
		return nil, err
	}
	priced, err := cart.Price(ctx, tx, c.ID, c.DiscountCode, pb, discount.Fresh, s.now())
	if err != nil {
		return nil, err
	}
	if err := checkPriced(priced); err != nil {
		return nil, err
	}
	charge, err := shipping.ChargeFor(tx, shipping.ChargeInput{MethodID: in.ShippingMethodID, State: stateOf(ship),
		CartTotal: priced.Total, ClientCost: in.ShippingCost, Waived: priced.FreeShipping() != nil})
	if err != nil {
		return nil, err
	}
	charge = WaiveShipping(priced, charge)
	sess, err := s.session(c, in, buyer, ship, bill, priced, charge)
	if err != nil {
		return nil, err
	}
	if sess.PurchaseID, err = continuedPurchase(tx, c.ID); err != nil {
		return nil, err
	}
	// The session row, its reservations and the cart's lock are written
	// together, in one statement (a unit of work's flush), after the checks.
	u := uow.Within(ctx, tx)
	if err := u.Create(sess); err != nil {
		return nil, wrap("create", err)
	}
	items := make([]stock.Item, len(priced.Lines))
	for i, l := range priced.Lines {
		items[i] = stock.Item{VariantID: l.VariantID, Quantity: l.Quantity}
	}
	if err := stock.StageReserve(u, sess.ID, items); err != nil {
		return nil, err
	}
	if err := holdDiscounts(tx, priced.Applied, buyer.ID, sess.ID); err != nil {
		return nil, err
	}
	stageCartLock(u, c, sess.ID)
	if err := u.Flush(); err != nil {
		if database.IsUnique(err) {
			return nil, apperr.Wrap(apperr.Conflict, "a checkout of this cart is already pending", err)
		}
		return nil, wrap("create", err)
	}
	return sess, nil
}

// checkPriced refuses a cart that cannot be sold as it is.
func checkPriced(p *cart.Priced) error {
	if len(p.Lines) == 0 {
		return ErrEmptyCart
	}
	for _, l := range p.Lines {
		if !l.ProductActive {
			return apperr.New(apperr.Conflict, "a product in the cart is no longer on sale").
				WithDetails(map[string]any{"variantId": l.VariantID.String(), "issue": "no longer on sale"})
		}
		if l.BundleIssue != "" {
			return apperr.New(apperr.Conflict, "a bundle in the cart is no longer offered as chosen: "+l.BundleIssue).
				WithDetails(map[string]any{"bundleSelection": l.BundleSelection.String(), "issue": l.BundleIssue})
		}
	}
	if p.CodeReason != "" {
		return refused(p.CodeReason)
	}
	return nil
}

// retryDeadlock runs fn again (up to three times in all) when Postgres
// aborted it as a deadlock victim or a serialization failure. Checkout,
// expiry and payment events all lock cart → session → variants → discount,
// so this is a safety net for orders nobody foresaw, not a routine path.
func retryDeadlock(fn func() error) error {
	var err error
	for attempt := 0; attempt < 3; attempt++ {
		err = fn()
		code := database.PgCode(err)
		if code != database.DeadlockDetected && code != database.SerializationFail {
			return err
		}
	}
	return err
}

func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("checkout.%s: %w", op, err)
}
