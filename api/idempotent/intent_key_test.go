package idempotent_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/gateway/razorpaytest"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// A checkout whose gateway order was made but whose answer was lost is
// 503; the shopper changes the cart and sends the same request again with
// the same Idempotency-Key. The new session (new total) gets a gateway
// order of its own, for its own amount, not the first one: the payment of
// it completes the checkout instead of landing in NEEDS_REVIEW.
func TestRetriedCheckoutWithAChangedCartGetsItsOwnGatewayOrder(t *testing.T) {
	gw := razorpaytest.New(t, nil, 0)
	app := testkit.MustApp(t, withGateway(gw.URL), testkit.WithWorker())
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 10}}})
	v := p.Variants[0]
	g := guest()
	addItem(t, app, g, v.ID, 1)
	req := keyed(g, "checkout-"+t.Name(), guestCheckout())

	gw.LoseOrderAnswers(1)
	app.Do(t, http.MethodPost, "/orders", req).ExpectError(t, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
	addItem(t, app, g, v.ID, 1) // two units now

	var co struct {
		CheckoutSessionID string `json:"checkoutSessionId"`
		PaymentIntent     struct {
			PaymentIntentID string       `json:"paymentIntentId"`
			Amount          money.Amount `json:"amount"`
			Currency        string       `json:"currency"`
		} `json:"paymentIntent"`
	}
	app.Do(t, http.MethodPost, "/orders", req).Expect(t, http.StatusCreated).JSON(t, &co)
	var sess models.CheckoutSession
	if err := app.DB.Take(&sess, "id = ?", co.CheckoutSessionID).Error; err != nil {
		t.Fatal(err)
	}
	charged := gw.OrderAmount(co.PaymentIntent.PaymentIntentID)
	if gw.Orders() != 2 || charged != int64(sess.Total) || co.PaymentIntent.Amount != sess.Total {
		t.Fatalf("the gateway made %d orders; the session's (%s) is for %d, the session's total is %d",
			gw.Orders(), co.PaymentIntent.PaymentIntentID, charged, sess.Total)
	}

	// The shopper pays the gateway order the session was given.
	body := gateway.BuildEvent(gateway.Simulated{Name: gateway.PaymentCaptured, EventID: gateway.NewEventID(),
		OrderID: co.PaymentIntent.PaymentIntentID, Amount: charged, Currency: co.PaymentIntent.Currency})
	app.Do(t, http.MethodPost, "/storefront/payments/gateway/webhook", testkit.Req{Body: body,
		Headers: map[string]string{gateway.SignatureHeader: gateway.Sign(app.Config.GatewayWebhookSecret, body)}}).Expect(t, http.StatusOK)
	testkit.Eventually(t, 15*time.Second, "the capture to be handled", func() bool {
		return app.DB.Take(&sess, "id = ?", co.CheckoutSessionID).Error == nil && sess.State != models.CheckoutPending
	})
	if sess.State != models.CheckoutCompleted {
		t.Fatalf("the paid session is %s", sess.State)
	}
	if n := count(t, app, `SELECT count(*) FROM orders WHERE payment_intent_id = ? AND total = ?`,
		co.PaymentIntent.PaymentIntentID, sess.Total); n != 1 {
		t.Fatalf("%d orders of the paid session", n)
	}
}
