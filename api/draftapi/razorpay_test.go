package draftapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/gateway/razorpaytest"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// Against the Razorpay stub: the link is made by the Payment Links API
// with the session as reference_id, the link's amount and expiry; the
// draft carries Razorpay's id and short URL; its payment_link.paid makes
// the order; a second draft's link paid after it expired is refunded
// through Razorpay's Refunds API.
func TestDraftPaymentLinkAtRazorpay(t *testing.T) {
	gw := razorpaytest.New(t, nil, 0)
	e := newEnv(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) {
		c.PaymentProvider, c.RazorpayBaseURL, c.RazorpayKeyID, c.RazorpayKeySecret = "razorpay", gw.URL, "rzp_test", "secret"
		c.DraftLinkTTL = 2 * time.Hour
	}))
	_, d, link := linkDraft(t, e, 5, 1)
	links := gw.Links()
	if len(links) != 1 || links[0].ID != link["id"] || links[0].ShortURL != link["url"] || links[0].Amount != paise(d["total"]) ||
		links[0].ReferenceID != link["checkoutSessionId"] || links[0].Customer.Email != d["email"] {
		t.Fatalf("stub links %+v, draft link %v", links, link)
	}
	if exp := time.Unix(links[0].ExpireBy, 0); exp.Before(time.Now().Add(119*time.Minute)) || exp.After(time.Now().Add(121*time.Minute)) {
		t.Fatalf("expire_by %v, want DRAFT_LINK_TTL from now", exp)
	}
	e.deliver(t, linkPaid(links[0].ID, "pay_rzp_1", links[0].Amount)).Expect(t, http.StatusOK)
	if o := ordersOfSession(t, e.app, links[0].ReferenceID, 1)[0]; o.PaymentProvider != "razorpay" || o.PaymentIntentID != links[0].ID {
		t.Fatalf("order %+v", o)
	}

	_, d2, link2 := linkDraft(t, e, 5, 2)
	e.app.DB.Exec(`UPDATE checkout_sessions SET expires_at = now() - interval '1 second' WHERE id = ?`, link2["checkoutSessionId"])
	e.deliver(t, linkPaid(link2["id"].(string), "pay_rzp_2", paise(d2["total"]))).Expect(t, http.StatusOK)
	testkit.Eventually(t, 10*time.Second, "the late payment refunded at Razorpay", func() bool {
		var s models.CheckoutSession
		e.app.DB.Take(&s, "id = ?", link2["checkoutSessionId"])
		return s.State == models.CheckoutNeedsReview && s.RefundID != nil
	})
	refunds := gw.Refunds()
	if len(refunds) != 1 || refunds[0].PaymentID != "pay_rzp_2" || refunds[0].Amount != paise(d2["total"]) {
		t.Fatalf("stub refunds %+v", refunds)
	}
}
