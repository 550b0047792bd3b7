package gatewayapi_test

import (
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/gateway/razorpaytest"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/prometheus/client_golang/prometheus"
)

// One cart pays once. A shopper checks out, then checks out again with
// another address (two tabs): the first session is replaced but its gateway
// order stays payable, and both get paid. Whichever capture the worker
// completes first becomes the order; the other payment is refunded in full
// through the provider with an idempotency key of its session, the session
// ends REFUNDED, the metric counts it and the shopper is emailed. Stock is
// committed once and the cart ends empty and unlocked.
func TestOneCartPaysOnce(t *testing.T) {
	tests := []struct {
		name     string
		oldFirst bool
	}{
		{"replaced session captured first", true},
		{"new session captured first", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gw := razorpaytest.New(t, nil, 0)
			app := testkit.MustApp(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) {
				c.PaymentProvider, c.RazorpayBaseURL, c.RazorpayKeyID, c.RazorpayKeySecret = "razorpay", gw.URL, "rzp_test", "secret"
			}))
			p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 49900, GSTRate: 1800,
				Variants: []testkit.StoreVariant{{Inventory: 10}}})
			variant := p.Variants[0].ID
			cu, token := testkit.MustCustomer(t, app)
			home, office := testkit.MustAddress(t, app, cu.ID), testkit.MustAddress(t, app, cu.ID)
			shopper := testkit.Req{Token: token, Body: map[string]any{"variantId": variant, "quantity": 2}}
			app.Do(t, "POST", "/cart/items", shopper).Expect(t, 201)

			var replaced, current checkoutAnswer
			shopper.Body = map[string]any{"shippingAddressId": home, "billingAddressId": home, "shippingCost": 0}
			app.Do(t, "POST", "/orders", shopper).Expect(t, 201).JSON(t, &replaced)
			shopper.Body = map[string]any{"shippingAddressId": office, "billingAddressId": office, "shippingCost": 0}
			app.Do(t, "POST", "/orders", shopper).Expect(t, 201).JSON(t, &current)
			if replaced.PaymentIntent.PaymentIntentID == current.PaymentIntent.PaymentIntentID {
				t.Fatalf("the changed checkout kept its gateway order %s", current.PaymentIntent.PaymentIntentID)
			}
			first, second := current, replaced
			if tt.oldFirst {
				first, second = replaced, current
			}
			refundedBefore := duplicatesRefunded(t)

			capture := func(co checkoutAnswer, paymentID string) {
				body := gateway.BuildEvent(gateway.Simulated{Name: gateway.PaymentCaptured, EventID: gateway.NewEventID(),
					OrderID: co.PaymentIntent.PaymentIntentID, PaymentID: paymentID,
					Amount: int64(co.PaymentIntent.Amount), Currency: co.PaymentIntent.Currency})
				expectAnswer(t, post(t, app, body), 200, true, gateway.MsgAccepted)
			}
			capture(first, "pay_first0001")
			order := waitOrder(t, app, first.PaymentIntent.PaymentIntentID)
			capture(second, "pay_second001")
			var loser models.CheckoutSession
			testkit.Eventually(t, 15*time.Second, "the second session to be refunded", func() bool {
				app.DB.Take(&loser, "id = ?", second.CheckoutSessionID)
				return loser.State == models.CheckoutRefunded
			})

			refunds := gw.Refunds()
			if n := countOrders(t, app); n != 1 || order.CheckoutSessionID == nil || order.CheckoutSessionID.String() != first.CheckoutSessionID {
				t.Fatalf("%d orders; the order is of session %v, want %s", n, order.CheckoutSessionID, first.CheckoutSessionID)
			}
			if len(refunds) != 1 || refunds[0].PaymentID != "pay_second001" || refunds[0].Amount != int64(second.PaymentIntent.Amount) {
				t.Fatalf("gateway refunds %+v, want pay_second001 in full (%d)", refunds, second.PaymentIntent.Amount)
			}
			if keys := gw.IdempotencyKeys(); len(keys) != 1 || keys[0] != "dup-"+second.CheckoutSessionID {
				t.Fatalf("X-Refund-Idempotency %q", keys)
			}
			if loser.PaymentID == nil || *loser.PaymentID != "pay_second001" || loser.RefundID == nil || *loser.RefundID != refunds[0].ID ||
				loser.OrderID != nil || loser.PaymentStatus != models.IntentCaptured {
				t.Fatalf("refunded session: payment %v refund %v order %v intent %s", loser.PaymentID, loser.RefundID, loser.OrderID, loser.PaymentStatus)
			}
			if got := duplicatesRefunded(t) - refundedBefore; got != 1 {
				t.Fatalf("checkout_duplicate_payment_refunded_total grew by %v", got)
			}
			testkit.Eventually(t, 15*time.Second, "the refund email", func() bool {
				var sent int64
				app.DB.Model(&models.CustomerEmail{}).Where("kind = ? AND ref = ? AND customer_id = ? AND sent_at IS NOT NULL",
					models.EmailDuplicatePaymentRefund, second.CheckoutSessionID, cu.ID).Count(&sent)
				return sent == 1
			})
			var v models.Variant
			app.DB.Take(&v, "id = ?", variant)
			if v.Committed != 2 || v.Reserved != 0 {
				t.Fatalf("stock: committed %d reserved %d", v.Committed, v.Reserved)
			}
			var cart models.Cart
			app.DB.Take(&cart, "customer_id = ?", cu.ID)
			var lines int64
			app.DB.Model(&models.CartItem{}).Where("cart_id = ?", cart.ID).Count(&lines)
			if lines != 0 || cart.LockedBy != nil {
				t.Fatalf("cart: %d lines, locked by %v", lines, cart.LockedBy)
			}

			// The gateway delivers the second capture again (order.paid):
			// nothing more is refunded and there is still one order.
			body := gateway.BuildEvent(gateway.Simulated{Name: gateway.OrderPaid, EventID: gateway.NewEventID(),
				OrderID: second.PaymentIntent.PaymentIntentID, PaymentID: "pay_second001",
				Amount: int64(second.PaymentIntent.Amount), Currency: second.PaymentIntent.Currency})
			expectAnswer(t, post(t, app, body), 200, true, gateway.MsgAccepted)
			testkit.Eventually(t, 15*time.Second, "the repeated event to be processed", func() bool {
				return queueInfo(t, app).Completed >= 3
			})
			if n, r := countOrders(t, app), len(gw.Refunds()); n != 1 || r != 1 {
				t.Fatalf("after the repeat: %d orders, %d refunds", n, r)
			}
		})
	}
}

// duplicatesRefunded reads checkout_duplicate_payment_refunded_total from
// the process's registry (the worker runs in the test's process). It does
// not scrape GET /metrics, whose series of other routes may be unreadable
// meanwhile.
func duplicatesRefunded(t *testing.T) float64 {
	t.Helper()
	families, _ := prometheus.DefaultGatherer.Gather() // partial on error: ours is unlabelled
	for _, f := range families {
		if f.GetName() == "checkout_duplicate_payment_refunded_total" && len(f.GetMetric()) == 1 {
			return f.GetMetric()[0].GetCounter().GetValue()
		}
	}
	t.Fatal("checkout_duplicate_payment_refunded_total is not registered")
	return 0
}

// A cart bought, refilled and bought again is two purchases: the second
// payment makes the second order and nothing is refunded.
func TestCartBoughtAgainIsANewPurchase(t *testing.T) {
	gw := razorpaytest.New(t, nil, 0)
	app := testkit.MustApp(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) {
		c.PaymentProvider, c.RazorpayBaseURL, c.RazorpayKeyID, c.RazorpayKeySecret = "razorpay", gw.URL, "rzp_test", "secret"
	}))
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 10}}})
	cu, token := testkit.MustCustomer(t, app)
	addr := testkit.MustAddress(t, app, cu.ID)
	for i := range 2 {
		app.Do(t, "POST", "/cart/items", testkit.Req{Token: token, Body: map[string]any{"variantId": p.Variants[0].ID, "quantity": 1}}).Expect(t, 201)
		var co checkoutAnswer
		app.Do(t, "POST", "/orders", testkit.Req{Token: token, Body: map[string]any{"shippingAddressId": addr, "billingAddressId": addr, "shippingCost": 0}}).
			Expect(t, 201).JSON(t, &co)
		body := gateway.BuildEvent(gateway.Simulated{Name: gateway.PaymentCaptured, EventID: gateway.NewEventID(),
			OrderID: co.PaymentIntent.PaymentIntentID, Amount: int64(co.PaymentIntent.Amount), Currency: co.PaymentIntent.Currency})
		expectAnswer(t, post(t, app, body), 200, true, gateway.MsgAccepted)
		waitOrder(t, app, co.PaymentIntent.PaymentIntentID)
		if n := countOrders(t, app); n != int64(i+1) {
			t.Fatalf("purchase %d: %d orders", i+1, n)
		}
	}
	if r := gw.Refunds(); len(r) != 0 {
		t.Fatalf("refunds %+v", r)
	}
}
