package checkout_test

import (
	"context"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/models"
)

// A capture whose money differs from the session's total makes no order.
func TestCaptureMismatchNeedsReview(t *testing.T) {
	tests := []struct {
		name   string
		change func(amount *int64, currency *string)
		reason string
	}{
		{"amount", func(a *int64, _ *string) { *a -= 100 }, "amount mismatch"},
		{"currency", func(_ *int64, c *string) { *c = "USD" }, "currency mismatch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			c := fixtures.MustCheckout(t, e.d.DB, fixtures.CheckoutOptions{})
			p := captured(c)
			tt.change(&p.Amount, &p.Currency)
			res, err := e.svc.Capture(context.Background(), p)
			if err != nil || res.Outcome != checkout.NeedsReview || !strings.Contains(res.Reason, tt.reason) {
				t.Fatalf("%+v %v", res, err)
			}
			s := e.session(t, c.SessionID)
			if s.State != models.CheckoutNeedsReview || s.ReviewReason == nil || !strings.Contains(*s.ReviewReason, tt.reason) || s.OrderID != nil {
				t.Fatalf("session %s %v", s.State, s.ReviewReason)
			}
			if n := e.count(t, &models.Order{}, "1 = 1"); n != 0 {
				t.Fatalf("%d orders", n)
			}
			if v := e.variant(t, c.VariantID); v.Reserved != 0 || v.Committed != 0 {
				t.Fatalf("stock still held: %+v", v)
			}
			if cart, _ := e.cart(t, c.CartID); cart.LockedBy != nil {
				t.Fatal("cart still locked")
			}
			// The right amount arriving later changes nothing: a person decides.
			if res, _ := e.svc.Capture(context.Background(), captured(c)); res.Outcome != checkout.NeedsReview {
				t.Fatalf("second capture: %+v", res)
			}
			if n := e.count(t, &models.Order{}, "1 = 1"); n != 0 {
				t.Fatalf("%d orders", n)
			}
		})
	}
}

// A capture reporting, for a second checkout, a payment id already recorded
// for another order makes no second order: the session goes to review at
// once (instead of the task failing on the unique key until archived) and
// its stock is released.
func TestCaptureOfAnAlreadyRecordedPaymentNeedsReview(t *testing.T) {
	e := newEnv(t)
	first := fixtures.MustCheckout(t, e.d.DB, fixtures.CheckoutOptions{})
	p := captured(first)
	res, err := e.svc.Capture(context.Background(), p)
	if err != nil || res.Outcome != checkout.Created {
		t.Fatalf("first capture: %+v %v", res, err)
	}
	firstNumber := res.Order.OrderNumber
	second := fixtures.MustCheckout(t, e.d.DB, fixtures.CheckoutOptions{})
	again := captured(second)
	again.ID = p.ID
	res, err = e.svc.Capture(context.Background(), again)
	if err != nil || res.Outcome != checkout.NeedsReview || !strings.Contains(res.Reason, "already recorded for order "+firstNumber) {
		t.Fatalf("second capture: %+v %v", res, err)
	}
	if s := e.session(t, second.SessionID); s.State != models.CheckoutNeedsReview || s.OrderID != nil {
		t.Fatalf("second session %s", s.State)
	}
	if n := e.count(t, &models.Order{}, "1 = 1"); n != 1 {
		t.Fatalf("%d orders", n)
	}
	if v := e.variant(t, second.VariantID); v.Reserved != 0 || v.Committed != 0 {
		t.Fatalf("second checkout's stock still held: %+v", v)
	}
}

// A capture after the session expired still makes the order when the stock
// is there, taking it from available stock.
func TestCaptureAfterExpiryCommitsAvailableStock(t *testing.T) {
	e := newEnv(t)
	c := fixtures.MustCheckout(t, e.d.DB, fixtures.CheckoutOptions{Inventory: 5})
	fixtures.MustExpire(t, e.d.DB, c)
	res, err := e.svc.Capture(context.Background(), captured(c))
	if err != nil || res.Outcome != checkout.Created {
		t.Fatalf("%+v %v", res, err)
	}
	if v := e.variant(t, c.VariantID); v.Committed != c.Quantity || v.Reserved != 0 {
		t.Fatalf("counters %+v", v)
	}
	if s := e.session(t, c.SessionID); s.State != models.CheckoutCompleted {
		t.Fatalf("session %s", s.State)
	}
}

// ... and when the stock went to someone else meanwhile, it makes no order
// and never oversells.
func TestCaptureAfterExpiryWithoutStockNeedsReview(t *testing.T) {
	e := newEnv(t)
	c := fixtures.MustCheckout(t, e.d.DB, fixtures.CheckoutOptions{Inventory: 3, Quantity: 2})
	fixtures.MustExpire(t, e.d.DB, c)
	// Another shopper's order takes 2 of the 3 units.
	e.d.DB.Exec(`UPDATE variants SET committed = 2 WHERE id = ?`, c.VariantID)

	res, err := e.svc.Capture(context.Background(), captured(c))
	if err != nil || res.Outcome != checkout.NeedsReview || !strings.Contains(res.Reason, "stock") {
		t.Fatalf("%+v %v", res, err)
	}
	v := e.variant(t, c.VariantID)
	if v.Committed != 2 || v.Inventory-v.Reserved-v.Committed < 0 {
		t.Fatalf("oversold: %+v", v)
	}
	if n := e.count(t, &models.Order{}, "payment_intent_id = ?", c.IntentID); n != 0 {
		t.Fatalf("%d orders", n)
	}
	if s := e.session(t, c.SessionID); s.State != models.CheckoutNeedsReview || s.PaymentStatus != models.IntentCaptured {
		t.Fatalf("session %s/%s", s.State, s.PaymentStatus)
	}
}

func TestFailReleasesTheCheckout(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	c := fixtures.MustCheckout(t, e.d.DB, fixtures.CheckoutOptions{})
	p := captured(c)
	p.Status, p.ErrorCode = "failed", "BAD_REQUEST_ERROR"
	for range 2 { // the second run changes nothing
		if err := e.svc.Fail(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	s := e.session(t, c.SessionID)
	if s.State != models.CheckoutFailed || s.PaymentStatus != models.IntentFailed {
		t.Fatalf("session %s/%s", s.State, s.PaymentStatus)
	}
	if v := e.variant(t, c.VariantID); v.Reserved != 0 {
		t.Fatalf("reserved %d", v.Reserved)
	}
	cart, items := e.cart(t, c.CartID)
	if cart.LockedBy != nil || items != 1 {
		t.Fatalf("cart locked by %v with %d items", cart.LockedBy, items)
	}
	if evs := e.eventTypes(t); evs[outbox.PaymentFailed] != 1 {
		t.Fatalf("events %v", evs)
	}
	// A later successful retry of the payment still makes the order.
	if res, err := e.svc.Capture(ctx, captured(c)); err != nil || res.Outcome != checkout.Created {
		t.Fatalf("capture after failure: %+v %v", res, err)
	}
}

func TestFailNeverMovesACompletedSession(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	c := fixtures.MustCheckout(t, e.d.DB, fixtures.CheckoutOptions{})
	if _, err := e.svc.Capture(ctx, captured(c)); err != nil {
		t.Fatal(err)
	}
	if err := e.svc.Fail(ctx, captured(c)); err != nil {
		t.Fatal(err)
	}
	if s := e.session(t, c.SessionID); s.State != models.CheckoutCompleted || s.PaymentStatus != models.IntentCaptured {
		t.Fatalf("session %s/%s", s.State, s.PaymentStatus)
	}
	if v := e.variant(t, c.VariantID); v.Committed != c.Quantity {
		t.Fatalf("committed %d", v.Committed)
	}
	if evs := e.eventTypes(t); evs[outbox.PaymentFailed] != 0 {
		t.Fatalf("events %v", evs)
	}
	// Unknown order id: silently nothing.
	if err := e.svc.Fail(ctx, captured(fixtures.Checkout{IntentID: "order_nope"})); err != nil {
		t.Fatal(err)
	}
}

func TestAuthorize(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	c := fixtures.MustCheckout(t, e.d.DB, fixtures.CheckoutOptions{})
	if err := e.svc.Authorize(ctx, captured(c)); err != nil {
		t.Fatal(err)
	}
	s := e.session(t, c.SessionID)
	if s.PaymentStatus != models.IntentAuthorized || s.State != models.CheckoutPending {
		t.Fatalf("session %s/%s", s.State, s.PaymentStatus)
	}
	if _, err := e.svc.Capture(ctx, captured(c)); err != nil {
		t.Fatal(err)
	}
	// A late authorization never downgrades a captured intent.
	if err := e.svc.Authorize(ctx, captured(c)); err != nil {
		t.Fatal(err)
	}
	if s := e.session(t, c.SessionID); s.PaymentStatus != models.IntentCaptured {
		t.Fatalf("payment status %s", s.PaymentStatus)
	}
	if err := e.svc.Authorize(ctx, captured(fixtures.Checkout{IntentID: "order_nope"})); err != nil {
		t.Fatal(err)
	}
}
