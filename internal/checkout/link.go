package checkout

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/cart"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/shipping"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// A payment link is a checkout staff opens for a customer (a draft order
// completed with payment "link", docs/DECISIONS.md "Draft orders and payment
// links"). Its session is an ordinary checkout session of the draft's own
// cart (cart.LockForDraft): it reserves the stock until the link expires,
// the scheduled sweep (ExpireDue) releases it once, and the gateway's
// payment_link.paid event captures it like payment.captured, the link id
// standing for the gateway order id. One thing differs: a payment made
// after the link expired (by the payment's own time, not its event's,
// which may arrive late), or for a session whose link failed, is refunded
// and the session put in review, never made an order, because the customer
// was told the link had expired and the stock is no longer held
// (refund_late_payment). A payment made in time whose event arrives after
// the sweep expired the session makes the order as a late capture does.

// LinkCheckout is the checkout a payment link pays.
type LinkCheckout struct {
	// DraftID names the draft order whose cart the session locks.
	DraftID  uuid.UUID
	Customer *models.Customer
	Name     string
	Phone    string
	// Ship and Bill are the address snapshots.
	Ship, Bill json.RawMessage
	Priced     *cart.Priced
	Charge     shipping.Charge
	Buyer      models.TaxBuyer
	// TTL is how long the link holds the stock (DRAFT_LINK_TTL).
	TTL time.Duration
}

// OpenLink stages in u, the draft's unit of work, the session a payment
// link pays, its reservations and the lock of the draft's cart, and flushes
// them. The link itself is made after commit by the caller, which stores its
// id with AttachLink, or ends the session with FailLink when the gateway
// fails. Errors: CONFLICT (a link of this draft is still payable; not
// enough stock, with details.variantId; a product no longer on sale).
func (s *Service) OpenLink(u *uow.Unit, in LinkCheckout) (*models.CheckoutSession, error) {
	tx := u.Tx()
	c, err := s.lockDraftCart(tx, in.DraftID)
	if err != nil {
		return nil, err
	}
	if err := checkPriced(in.Priced); err != nil {
		return nil, err
	}
	sess, err := s.quotedSession(c.ID, in.Customer, in.Ship, in.Bill, in.Priced, in.Charge, in.TTL)
	if err != nil {
		return nil, err
	}
	sess.Name, sess.Phone, sess.TaxBuyer, sess.RefundLatePayment = in.Name, in.Phone, in.Buyer, true
	sess.CartFingerprint = "draft:" + in.DraftID.String()
	if sess.PurchaseID, err = continuedPurchase(tx, c.ID); err != nil {
		return nil, err
	}
	if err := u.Create(sess); err != nil {
		return nil, wrap("link_create", err)
	}
	items := make([]stock.Item, len(in.Priced.Lines))
	for i, l := range in.Priced.Lines {
		items[i] = stock.Item{VariantID: l.VariantID, Quantity: l.Quantity}
	}
	if err := stock.StageReserve(u, sess.ID, items); err != nil {
		return nil, err
	}
	if err := holdDiscounts(tx, in.Priced.Applied, in.Customer.ID, sess.ID); err != nil {
		return nil, err
	}
	stageCartLock(u, c, sess.ID)
	if err := u.Flush(); err != nil {
		if database.IsUnique(err) {
			return nil, apperr.Wrap(apperr.Conflict, "a payment link of this draft order is already being made", err)
		}
		return nil, wrap("link_create", err)
	}
	return sess, nil
}

// AttachLink records the gateway's payment link id as the payment intent
// id of link session sessionID: the payment_link.paid event names it.
func (s *Service) AttachLink(ctx context.Context, sessionID uuid.UUID, linkID string) error {
	res := s.db.WithContext(ctx).Exec(`UPDATE checkout_sessions SET payment_intent_id = ?, updated_at = now()
		WHERE id = ? AND payment_intent_id IS NULL`, linkID, sessionID)
	if res.Error != nil {
		return fmt.Errorf("checkout.attach_link: %w", res.Error)
	}
	return nil
}

// FailLink ends link session sess whose link the gateway did not make:
// FAILED, its stock released, the draft's cart unlocked.
func (s *Service) FailLink(ctx context.Context, sess *models.CheckoutSession) error {
	return s.fail(ctx, sess)
}

// Provider is the payment provider's name, which link sessions record.
func (s *Service) Provider() string { return s.provider.Name() }

// lockDraftCart locks the cart of draft draftID for a link or a placement:
// a link of it still payable is a 409 (its session named), one expired
// but not yet swept is ended here, so its stock is released before the
// draft takes it again.
func (s *Service) lockDraftCart(tx *gorm.DB, draftID uuid.UUID) (*models.Cart, error) {
	c, err := cart.LockForDraft(tx, draftID)
	if err != nil {
		return nil, err
	}
	var pending models.CheckoutSession
	if err := tx.Raw(`SELECT * FROM checkout_sessions WHERE cart_id = ? AND state = ? FOR UPDATE`, c.ID, models.CheckoutPending).
		Scan(&pending).Error; err != nil {
		return nil, wrap("draft_pending", err)
	}
	if pending.ID != uuid.Nil {
		if pending.ExpiresAt.After(s.now()) {
			return nil, apperr.New(apperr.Conflict, "a payment link of this draft order is still payable").
				WithDetails(map[string]any{"checkoutSessionId": pending.ID.String()})
		}
		if err := endSession(tx, c, pending.ID, models.CheckoutExpired); err != nil {
			return nil, err
		}
	}
	return c, nil
}
