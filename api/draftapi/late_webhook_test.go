package draftapi_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// A link paid before it expired whose payment_link.paid arrives after the
// expiry, and after the sweep released its stock, makes the order (the
// payment's own time decides, not the event's): no refund, the units
// committed, the draft completed.
func TestDraftLinkPaidInTimeWithALateWebhookMakesTheOrder(t *testing.T) {
	e := newEnv(t, testkit.WithWorker())
	v, d, link := linkDraft(t, e, 5, 2)
	id, linkID, total, sess := d["id"].(string), link["id"].(string), paise(d["total"]), link["checkoutSessionId"].(string)
	// The customer pays a minute before the link expires; the event is
	// delivered after the expiry and the sweep.
	e.app.DB.Exec(`UPDATE checkout_sessions SET expires_at = date_trunc('second', now()) - interval '1 second' WHERE id = ?`, sess)
	if n, err := e.app.Checkout.ExpireDue(context.Background(), time.Now()); err != nil || n != 1 {
		t.Fatalf("sweep expired %d: %v", n, err)
	}
	var s models.CheckoutSession
	e.app.DB.Take(&s, "id = ?", sess)
	payment := "pay_sim_" + uuid.NewString()[:12]
	e.deliver(t, gateway.BuildEvent(gateway.Simulated{Name: gateway.PaymentLinkPaid, EventID: gateway.NewEventID(), LinkID: linkID,
		PaymentID: payment, Amount: total, Currency: "INR", PaidAt: s.ExpiresAt.Add(-time.Minute)})).Expect(t, http.StatusOK)
	orders := ordersOfSession(t, e.app, sess, 1)
	refunds, err := e.app.PaymentProvider.Refunds(context.Background(), payment)
	if err != nil {
		t.Fatal(err)
	}
	if len(orders) != 1 || int64(orders[0].Total) != total || orders[0].PaymentStatus != models.PaymentPaid || len(refunds) != 0 {
		t.Fatalf("orders %+v, refunds %+v", orders, refunds)
	}
	if _, reserved, committed := counters(t, e.app, v); reserved != 0 || committed != 2 {
		t.Fatalf("after the order: %d reserved, %d committed", reserved, committed)
	}
	got := e.do(t, http.MethodGet, draftsPath+"/"+id, e.staff, nil).Expect(t, http.StatusOK).Map(t)
	if got["status"] != "completed" || got["orderId"] != orders[0].ID.String() {
		t.Fatalf("draft after the lagging event: %v", got)
	}
}
