package checkout

import (
	"github.com/gocommerce/shop/internal/cod"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
)

// Providers of the sessions and orders of drafts placed at once: the order's
// unique (provider, intent) key, the intent being the provider and the
// session id, makes one order per session.
const (
	// ProviderOfflineDraft marks a draft paid outside the gateway; its
	// payment row is models.ProviderOffline's.
	ProviderOfflineDraft = "offline"
)

// Placement is how a draft becomes an order at once: cash on delivery (with
// the COD fee of the payment settings; COD's limits and zones bind
// checkout, not staff), or paid outside the gateway (Offline: the payment
// recorded in the same unit).
type Placement struct {
	COD     bool
	Offline *order.OfflinePayment
}

// PlaceDraft places draft in.DraftID as an order at once, in u: a COMPLETED
// session of the draft's cart quoting in.Priced and in.Charge (plus the COD
// fee and its GST for COD), the stock of every line committed directly (no
// reservation window), the order (confirmed; payment pending for COD, paid
// for Offline), the discount's use, order.created and the low-stock events.
// A pending link session of the draft that has expired is ended first.
// The caller queues the confirmation email after commit. Errors: CONFLICT
// (a payable link; not enough stock, with details.variantId, nothing
// written; a product off sale; a code that no longer applies),
// VALIDATION_ERROR (the offline payment's method).
func (s *Service) PlaceDraft(u *uow.Unit, in LinkCheckout, how Placement) (*models.Order, error) {
	tx := u.Tx()
	c, err := s.lockDraftCart(tx, in.DraftID)
	if err != nil {
		return nil, err
	}
	if err := checkPriced(in.Priced); err != nil {
		return nil, err
	}
	sess, err := s.quotedSession(c.ID, in.Customer, in.Ship, in.Bill, in.Priced, in.Charge, 0)
	if err != nil {
		return nil, err
	}
	provider := ProviderOfflineDraft
	var fee order.CODFee
	if how.COD {
		provider = ProviderCOD
		d, err := cod.Decide(tx, cod.Quote{State: stateOf(in.Ship), Total: sess.Total, Email: in.Customer.Email, Phone: in.Phone}, false)
		if err != nil {
			return nil, err
		}
		var feeParts models.ChargeParts
		fee, feeParts = codFeeOf(d, in.Priced, in.Charge.WithGoods)
		sess.Total += fee.Fee
		sess.TaxTotal += fee.Tax
		sess.ChargeParts = append(sess.ChargeParts, feeParts...)
	}
	now := s.now()
	intent := provider + "_" + sess.ID.String()
	sess.Name, sess.Phone, sess.TaxBuyer = in.Name, in.Phone, in.Buyer
	sess.CartFingerprint = "draft:" + in.DraftID.String()
	sess.State, sess.PaymentProvider, sess.PaymentIntentID, sess.CompletedAt = models.CheckoutCompleted, provider, &intent, &now
	sess.PaymentStatus = models.IntentCreated
	if sess.PurchaseID, err = continuedPurchase(tx, c.ID); err != nil {
		return nil, err
	}
	lines, err := sessionLines(sess)
	if err != nil {
		return nil, err
	}
	items := stockItems(lines)
	if err := stock.CommitDirect(tx, items); err != nil {
		return nil, err
	}
	if err := holdDiscounts(tx, in.Priced.Applied, in.Customer.ID, sess.ID); err != nil {
		return nil, err
	}
	o, err := s.stagePlaced(u, sess, items, func() (*models.Order, error) {
		if how.COD {
			return order.CreateCOD(u, sess, lines, fee, s.set.StoreState)
		}
		return order.CreateOffline(u, sess, lines, s.set.StoreState)
	})
	if err != nil {
		return nil, err
	}
	// The offline payment changes the order row, and the caller's own
	// statements read the session: both need these rows written first.
	if err := u.Flush(); err != nil {
		return nil, database.Translate(err, "order")
	}
	if how.Offline != nil {
		p := *how.Offline
		p.Amount = o.Total
		if _, err := order.StageOfflinePayment(u, o, p); err != nil {
			return nil, err
		}
	}
	return o, nil
}
