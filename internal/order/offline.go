package order

import (
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
)

// CreateOffline stages in u the order of completed checkout session sess that
// staff took with its payment received outside the gateway (a draft order
// completed "offline", docs/DECISIONS.md "Draft orders and payment links"):
// confirmed, payment_method offline, its payment still pending; the caller
// records the payment in the same unit (StageOfflinePayment), which makes
// it paid. UNIQUE (payment_provider, payment_intent_id) makes it one order
// per session.
func CreateOffline(u *uow.Unit, sess *models.CheckoutSession, lines []models.CheckoutLine, storeState string) (*models.Order, error) {
	o, err := newOrder(sess, lines, storeState)
	if err != nil {
		return nil, err
	}
	o.PaymentStatus, o.PaymentIntentID, o.PaymentMethod = models.PaymentPending, *sess.PaymentIntentID, models.PaymentOffline
	if err := stage(u, o, lines, "order taken by staff, paid outside the gateway"); err != nil {
		return nil, err
	}
	return o, nil
}
