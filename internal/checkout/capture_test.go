package checkout_test

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
)

func TestCaptureCreatesTheOrder(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	c := fixtures.MustCheckout(t, e.d.DB, fixtures.CheckoutOptions{ShippingCost: 5000})
	p := captured(c)

	res, err := e.svc.Capture(ctx, p)
	if err != nil || res.Outcome != checkout.Created {
		t.Fatalf("capture: %+v, %v", res, err)
	}
	var o models.Order
	if err := e.d.DB.Preload("Items").Take(&o, "id = ?", res.Order.ID).Error; err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^ORD-\d{6,}$`).MatchString(o.OrderNumber) || o.OrderNumber != res.Order.OrderNumber {
		t.Fatalf("order number %q (returned %q)", o.OrderNumber, res.Order.OrderNumber)
	}
	if o.Status != models.OrderConfirmed || o.PaymentStatus != models.PaymentPaid || o.Total != c.Total ||
		o.PaidTotal != c.Total || o.ShippingCost != 5000 || o.TaxTotal != c.TaxTotal || o.Currency != "INR" ||
		o.CustomerID != c.CustomerID || o.PaymentIntentID != c.IntentID || o.PaymentProvider != "simulator" {
		t.Fatalf("order %+v", o)
	}
	// Shipped within STORE_STATE: CGST and SGST halves, no IGST.
	if o.CGSTTotal+o.SGSTTotal != o.TaxTotal || o.IGSTTotal != 0 || o.SGSTTotal-o.CGSTTotal > 1 {
		t.Fatalf("GST split cgst %d sgst %d igst %d of %d", o.CGSTTotal, o.SGSTTotal, o.IGSTTotal, o.TaxTotal)
	}
	if len(o.Items) != 1 || o.Items[0].Quantity != c.Quantity || o.Items[0].UnitPrice != 49950 ||
		o.Items[0].GSTRate != 1800 || o.Items[0].HSNCode != "4202" || *o.Items[0].VariantID != c.VariantID {
		t.Fatalf("items %+v", o.Items)
	}
	var addr models.Address
	json.Unmarshal(o.ShippingAddress, &addr)
	if addr.State != "Karnataka" {
		t.Fatalf("shipping address %s", o.ShippingAddress)
	}

	v := e.variant(t, c.VariantID)
	if v.Reserved != 0 || v.Committed != c.Quantity || v.Inventory != 10 {
		t.Fatalf("variant counters: reserved %d committed %d inventory %d", v.Reserved, v.Committed, v.Inventory)
	}
	cart, items := e.cart(t, c.CartID)
	if items != 0 || cart.LockedBy != nil {
		t.Fatalf("cart: %d items, locked by %v", items, cart.LockedBy)
	}
	s := e.session(t, c.SessionID)
	if s.State != models.CheckoutCompleted || s.PaymentStatus != models.IntentCaptured || s.OrderID == nil || *s.OrderID != o.ID || s.CompletedAt == nil {
		t.Fatalf("session %s/%s order %v", s.State, s.PaymentStatus, s.OrderID)
	}
	if n := e.count(t, &models.Payment{}, "order_id = ? AND payment_id = ? AND amount = ?", o.ID, p.ID, int64(c.Total)); n != 1 {
		t.Fatalf("%d payment rows", n)
	}
	if n := e.count(t, &models.OrderStatusHistory{}, "order_id = ? AND to_status = ?", o.ID, models.OrderConfirmed); n != 1 {
		t.Fatalf("%d history rows", n)
	}
	evs := e.eventTypes(t)
	if evs[outbox.OrderCreated] != 1 || evs[outbox.PaymentSucceeded] != 1 || evs[outbox.InventoryLowStock] != 0 {
		t.Fatalf("events %v", evs)
	}
	var created models.Event
	e.d.DB.Take(&created, "type = ?", outbox.OrderCreated)
	var data checkout.OrderCreatedData
	if err := json.Unmarshal(created.Data, &data); err != nil || data.OrderNumber != o.OrderNumber || data.Total != c.Total || len(data.Items) != 1 {
		t.Fatalf("order.created data %s (%v)", created.Data, err)
	}
	if _, err := e.d.Inspector.GetTaskInfo(tasks.QueueDefault, "email:order:"+o.ID.String()); err != nil {
		t.Fatalf("order emails task: %v", err)
	}
}

func TestCaptureOutsideStoreStateIsIGST(t *testing.T) {
	e := newEnv(t)
	c := fixtures.MustCheckout(t, e.d.DB, fixtures.CheckoutOptions{ShipState: "Maharashtra"})
	res, err := e.svc.Capture(context.Background(), captured(c))
	if err != nil || res.Outcome != checkout.Created {
		t.Fatalf("%+v %v", res, err)
	}
	if o := res.Order; o.IGSTTotal != c.TaxTotal || o.CGSTTotal != 0 || o.SGSTTotal != 0 {
		t.Fatalf("cgst %d sgst %d igst %d", o.CGSTTotal, o.SGSTTotal, o.IGSTTotal)
	}
	// The state compares without case.
	c2 := fixtures.MustCheckout(t, e.d.DB, fixtures.CheckoutOptions{ShipState: " karnataka "})
	res, _ = e.svc.Capture(context.Background(), captured(c2))
	if res.Order.IGSTTotal != 0 || res.Order.CGSTTotal == 0 {
		t.Fatalf("lower-case home state taxed as inter-state: %+v", res.Order)
	}
}

// A re-delivered capture, or a concurrent one, returns the first order and
// changes nothing.
func TestCaptureIsIdempotent(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	c := fixtures.MustCheckout(t, e.d.DB, fixtures.CheckoutOptions{})
	p := captured(c)
	results := make([]checkout.CaptureResult, 10)
	ran := testkit.Together(t, len(results), func(i int) {
		var err error
		if results[i], err = e.svc.Capture(ctx, p); err != nil {
			t.Errorf("capture %d: %v", i, err)
		}
	})
	t.Logf("%d captures ran at once at most", ran)
	created := 0
	for _, r := range results {
		if r.Outcome == checkout.Created {
			created++
		}
		if r.Order == nil || r.Order.ID != results[0].Order.ID {
			t.Fatalf("results disagree: %+v vs %+v", r, results[0])
		}
	}
	if created != 1 {
		t.Fatalf("%d captures created an order", created)
	}
	// order.paid for the same payment intent, with another payment id.
	again := captured(c)
	if r, err := e.svc.Capture(ctx, again); err != nil || r.Outcome != checkout.Existing {
		t.Fatalf("second event: %+v %v", r, err)
	}
	if n := e.count(t, &models.Order{}, "payment_intent_id = ?", c.IntentID); n != 1 {
		t.Fatalf("%d orders", n)
	}
	if v := e.variant(t, c.VariantID); v.Committed != c.Quantity {
		t.Fatalf("committed %d", v.Committed)
	}
	if evs := e.eventTypes(t); evs[outbox.OrderCreated] != 1 || evs[outbox.PaymentSucceeded] != 1 {
		t.Fatalf("events %v", evs)
	}
}

func TestCaptureWithoutSession(t *testing.T) {
	e := newEnv(t)
	res, err := e.svc.Capture(context.Background(), captured(fixtures.Checkout{IntentID: "order_unknown", Total: 100, Currency: "INR"}))
	if err != nil || res.Outcome != checkout.NoSession {
		t.Fatalf("%+v %v", res, err)
	}
}

func TestCaptureCountsDiscountUse(t *testing.T) {
	e := newEnv(t)
	c := fixtures.MustCheckout(t, e.d.DB, fixtures.CheckoutOptions{Discount: 10000})
	res, err := e.svc.Capture(context.Background(), captured(c))
	if err != nil || res.Outcome != checkout.Created {
		t.Fatalf("%+v %v", res, err)
	}
	var d models.Discount
	e.d.DB.Take(&d, "id = ?", *c.DiscountID)
	if d.UsageCount != 1 {
		t.Fatalf("usage count %d", d.UsageCount)
	}
	if n := e.count(t, &models.DiscountUsage{}, "discount_id = ? AND customer_id = ? AND order_id = ?", d.ID, c.CustomerID, res.Order.ID); n != 1 {
		t.Fatalf("%d usage rows", n)
	}
	if res.Order.DiscountTotal != 10000 || res.Order.DiscountCode == nil {
		t.Fatalf("order discount %d %v", res.Order.DiscountTotal, res.Order.DiscountCode)
	}
}

func TestCapturePublishesLowStock(t *testing.T) {
	e := newEnv(t)
	// 12 on hand, 2 bought: available falls from 12 to 10, the default threshold.
	c := fixtures.MustCheckout(t, e.d.DB, fixtures.CheckoutOptions{Inventory: 12})
	if _, err := e.svc.Capture(context.Background(), captured(c)); err != nil {
		t.Fatal(err)
	}
	var ev models.Event
	if err := e.d.DB.Take(&ev, "type = ?", outbox.InventoryLowStock).Error; err != nil {
		t.Fatalf("no low-stock event: %v", err)
	}
	var data checkout.LowStockData
	json.Unmarshal(ev.Data, &data)
	if data.VariantID != c.VariantID.String() || data.CurrentStock != 10 || data.Threshold != 10 {
		t.Fatalf("low-stock data %s", ev.Data)
	}
}
