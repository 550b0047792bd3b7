package checkout_test

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
)

// A finalization killed half-way (its context cancelled, as a dying worker's
// connection would be, after the order and its lines were written but
// before commit) leaves nothing behind, and the retry makes exactly one
// order. The process-level version (SIGKILL) is in the fault tests.
func TestCaptureKilledMidwayThenRetried(t *testing.T) {
	e := newEnv(t)
	c := fixtures.MustCheckout(t, e.d.DB, fixtures.CheckoutOptions{})
	p := captured(c)

	ctx, kill := context.WithCancel(context.Background())
	var armed atomic.Bool
	armed.Store(true)
	err := e.d.DB.Callback().Create().After("gorm:create").Register("test:kill_after_items", func(tx *gorm.DB) {
		if tx.Statement.Table == "order_items" && armed.Load() {
			kill()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Capture(ctx, p); err == nil {
		t.Fatal("the killed run reported success")
	}
	armed.Store(false)
	if n := e.count(t, &models.Order{}, "1 = 1"); n != 0 {
		t.Fatalf("%d orders after the killed run", n)
	}
	if s := e.session(t, c.SessionID); s.State != models.CheckoutPending {
		t.Fatalf("session %s after the killed run", s.State)
	}
	if v := e.variant(t, c.VariantID); v.Reserved != c.Quantity || v.Committed != 0 {
		t.Fatalf("stock moved by the killed run: %+v", v)
	}

	res, err := e.svc.Capture(context.Background(), p)
	if err != nil || res.Outcome != checkout.Created {
		t.Fatalf("retry: %+v %v", res, err)
	}
	if res, _ := e.svc.Capture(context.Background(), p); res.Outcome != checkout.Existing {
		t.Fatalf("third run: %+v", res)
	}
	if n := e.count(t, &models.Order{}, "1 = 1"); n != 1 {
		t.Fatalf("%d orders", n)
	}
	if v := e.variant(t, c.VariantID); v.Reserved != 0 || v.Committed != c.Quantity {
		t.Fatalf("counters %+v", v)
	}
}
