package draftapi_test

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// linkDraft creates a draft of qty units of a variant with stock units and
// completes it with a payment link. It returns the variant, the completed
// draft and its link.
func linkDraft(t *testing.T, e *env, stock, qty int) (uuid.UUID, map[string]any, map[string]any) {
	t.Helper()
	p := testkit.MustStoreProduct(t, e.app.DB, testkit.StoreProduct{Price: 99900, GSTRate: 1800, Variants: []testkit.StoreVariant{{Inventory: stock}}})
	v := p.Variants[0].ID
	d := e.createDraft(t, e.staff, map[string]any{"email": "caller-" + uuid.NewString()[:8] + "@example.com", "name": "Phone Caller",
		"phone": "+91 98765 43210", "items": []map[string]any{{"variantId": v, "quantity": qty}},
		"shippingAddress": address("Karnataka"), "shippingCost": 50})
	c := e.complete(t, d["id"].(string))
	link, _ := c["paymentLink"].(map[string]any)
	if c["status"] != "awaiting_payment" || link == nil || link["status"] != "pending" || link["id"] == nil || link["url"] == nil {
		t.Fatalf("completed with a link: %v", c)
	}
	return v, c, link
}

// A paid link delivered twice, and handled concurrently by several
// workers, makes one order; the link's reservation becomes its commitment,
// the draft shows the order, and a completed draft cannot change.
func TestDraftLinkPaidTwiceMakesOneOrder(t *testing.T) {
	e := newEnv(t, testkit.WithWorker())
	v, d, link := linkDraft(t, e, 5, 2)
	id, linkID, total := d["id"].(string), link["id"].(string), paise(d["total"])
	if !strings.HasPrefix(linkID, "plink_sim_") || total != 2*99900+5000 {
		t.Fatalf("link %v, total %d", link, total)
	}
	if _, reserved, committed := counters(t, e.app, v); reserved != 2 || committed != 0 {
		t.Fatalf("the link holds %d reserved, %d committed", reserved, committed)
	}
	// While the link is payable the draft cannot change, nor be completed again.
	e.do(t, http.MethodPatch, draftsPath+"/"+id, e.staff, map[string]any{"note": "x"}).ExpectError(t, http.StatusConflict, "CONFLICT")
	e.do(t, http.MethodDelete, draftsPath+"/"+id, e.staff, nil).ExpectError(t, http.StatusConflict, "CONFLICT")
	e.do(t, http.MethodPost, draftsPath+"/"+id+"/complete", e.staff, map[string]any{"payment": "link"}).ExpectError(t, http.StatusConflict, "CONFLICT")
	// The link's email goes out through the outbox.
	testkit.Eventually(t, 10*time.Second, "the link email sent", func() bool {
		var n int64
		e.app.DB.Raw(`SELECT count(*) FROM customer_emails WHERE kind = ? AND ref = ? AND sent_at IS NOT NULL`,
			models.EmailPaymentLink, link["checkoutSessionId"]).Scan(&n)
		return n == 1
	})

	// The gateway delivers the event twice (two event ids, both queued),
	// and the worker's handler runs it four times at once.
	payment := "pay_sim_" + uuid.NewString()[:12]
	e.deliver(t, linkPaid(linkID, payment, total)).Expect(t, http.StatusOK)
	e.deliver(t, linkPaid(linkID, payment, total)).Expect(t, http.StatusOK)
	ev, err := gateway.Parse(linkPaid(linkID, payment, total))
	if err != nil {
		t.Fatal(err)
	}
	var failed atomic.Int32
	testkit.Race(t, 4, func(int) {
		if err := e.app.Checkout.Handle(context.Background(), ev); err != nil {
			failed.Add(1)
		}
	})
	if failed.Load() != 0 {
		t.Fatalf("%d handlers failed", failed.Load())
	}
	orders := ordersOfSession(t, e.app, link["checkoutSessionId"].(string), 1)
	time.Sleep(300 * time.Millisecond) // the queued deliveries have run too
	var n int64
	e.app.DB.Model(&models.Order{}).Where("payment_intent_id = ?", linkID).Count(&n)
	if n != 1 || len(orders) != 1 || int64(orders[0].Total) != total || orders[0].PaymentStatus != models.PaymentPaid {
		t.Fatalf("%d orders for the link: %+v", n, orders)
	}
	if _, reserved, committed := counters(t, e.app, v); reserved != 0 || committed != 2 {
		t.Fatalf("after payment: %d reserved, %d committed", reserved, committed)
	}
	got := e.do(t, http.MethodGet, draftsPath+"/"+id, e.staff, nil).Expect(t, http.StatusOK).Map(t)
	if got["status"] != "completed" || got["orderId"] != orders[0].ID.String() || got["paymentLink"].(map[string]any)["status"] != "paid" {
		t.Fatalf("completed draft: %v", got)
	}
	e.do(t, http.MethodPatch, draftsPath+"/"+id, e.staff, map[string]any{"note": "x"}).ExpectError(t, http.StatusConflict, "CONFLICT")
}

// A link's stock is released at expiry exactly once, however many sweeps
// run at once; a payment of the expired link makes no order: its session
// goes to review and the payment is refunded, once, even delivered twice.
func TestDraftLinkExpiresOnceAndALatePaymentIsRefunded(t *testing.T) {
	e := newEnv(t, testkit.WithWorker())
	v, d, link := linkDraft(t, e, 5, 3)
	id, linkID, total, sess := d["id"].(string), link["id"].(string), paise(d["total"]), link["checkoutSessionId"].(string)
	// DRAFT_LINK_TTL passes.
	e.app.DB.Exec(`UPDATE checkout_sessions SET expires_at = now() - interval '1 second' WHERE id = ?`, sess)
	var expired atomic.Int32
	testkit.Race(t, 3, func(int) {
		n, err := e.app.Checkout.ExpireDue(context.Background(), time.Now())
		if err != nil {
			t.Error(err)
		}
		expired.Add(int32(n))
	})
	inventory, reserved, committed := counters(t, e.app, v)
	if expired.Load() != 1 || inventory != 5 || reserved != 0 || committed != 0 {
		t.Fatalf("sweeps expired %d; stock %d/%d/%d", expired.Load(), inventory, reserved, committed)
	}
	got := e.do(t, http.MethodGet, draftsPath+"/"+id, e.staff, nil).Expect(t, http.StatusOK).Map(t)
	if got["status"] != "open" || got["paymentLink"].(map[string]any)["status"] != "expired" {
		t.Fatalf("draft after expiry: %v", got)
	}

	// The customer pays the expired link after all, and the gateway
	// delivers the event twice.
	payment := "pay_sim_" + uuid.NewString()[:12]
	e.deliver(t, linkPaid(linkID, payment, total)).Expect(t, http.StatusOK)
	var s models.CheckoutSession
	testkit.Eventually(t, 10*time.Second, "the late payment refunded", func() bool {
		e.app.DB.Take(&s, "id = ?", sess)
		return s.State == models.CheckoutNeedsReview && s.RefundID != nil
	})
	e.deliver(t, linkPaid(linkID, payment, total)).Expect(t, http.StatusOK)
	time.Sleep(500 * time.Millisecond)
	refunds, err := e.app.PaymentProvider.Refunds(context.Background(), payment)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	e.app.DB.Model(&models.Order{}).Where("payment_intent_id = ?", linkID).Count(&n)
	e.app.DB.Take(&s, "id = ?", sess)
	if n != 0 || len(refunds) != 1 || int64(refunds[0].Amount) != total || s.State != models.CheckoutNeedsReview ||
		s.ReviewReason == nil || !strings.Contains(*s.ReviewReason, "expired") {
		t.Fatalf("late payment: %d orders, refunds %+v, session %s %v", n, refunds, s.State, s.ReviewReason)
	}
	if _, reserved, committed := counters(t, e.app, v); reserved != 0 || committed != 0 {
		t.Fatalf("after the late payment: %d reserved, %d committed", reserved, committed)
	}
	got = e.do(t, http.MethodGet, draftsPath+"/"+id, e.staff, nil).Expect(t, http.StatusOK).Map(t)
	if got["status"] != "open" || got["orderId"] != nil || got["paymentLink"].(map[string]any)["status"] != "refunded_late" {
		t.Fatalf("draft after the late payment: %v", got)
	}
	// Open again, it can be sent a new link, which holds the stock anew.
	again := e.complete(t, id)
	if again["paymentLink"].(map[string]any)["id"] == linkID {
		t.Fatalf("a new link was not made: %v", again)
	}
	if _, reserved, _ := counters(t, e.app, v); reserved != 3 {
		t.Fatalf("the new link holds %d", reserved)
	}
}
