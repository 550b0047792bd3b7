package returnapi_test

import (
	"bytes"
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/gateway/razorpaytest"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// The console refunds a received return with the same Idempotency-Key on
// every click. The gateway refuses the first attempt: the staff member is
// told so (503, the refund failed), and the next click makes a new
// attempt, a new refund row asked with a fresh gateway key, which the
// gateway makes. One refund is paid; the return ends refunded; a later
// click replays the answer.
func TestReturnRefundRefusedByTheGatewayCanBeRetriedWithTheSameKey(t *testing.T) {
	t.Parallel()
	gw := razorpaytest.New(t, nil, 0)
	e := newEnv(t, testkit.WithConfig(func(c *config.Config) {
		c.PaymentProvider, c.RazorpayBaseURL, c.RazorpayKeyID, c.RazorpayKeySecret = "razorpay", gw.URL, "rzp_test", "secret"
	}))
	o, _ := e.order(t, models.OrderDelivered, 0, lineSpec{qty: 2, lineTotal: 20001})
	fulfil(t, e, o, models.ShipmentDelivered, time.Now().Add(-time.Hour))
	var r returnBody
	e.app.Do(t, "POST", e.customerPath(o), testkit.Req{Token: e.token, Body: map[string]any{"items": []any{item(o, 0, 2)}}}).
		Expect(t, 201).JSON(t, &r)
	e.adminDo(t, "POST", "/returns/"+r.ID+"/approve", nil).Expect(t, 200)
	e.adminDo(t, "POST", "/returns/"+r.ID+"/receive", map[string]any{
		"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 2}}}).Expect(t, 200)

	gw.RefuseRefunds(1)
	click := testkit.Req{Token: e.staff, Headers: map[string]string{"Idempotency-Key": "return-refund-" + r.ID}}
	path := "/api/v1/admin/returns/" + r.ID + "/refund"
	refused := e.app.Do(t, http.MethodPost, path, click).ExpectError(t, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
	if refused.Error.Details["status"] != models.RefundFailed {
		t.Fatalf("first click %+v", refused.Error)
	}

	var got returnBody
	second := e.app.Do(t, http.MethodPost, path, click).Expect(t, http.StatusOK)
	second.JSON(t, &got)
	if got.Status != "refunded" || got.Refund == nil || got.Refund.Status != "processed" || second.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("second click %s", second.Body)
	}
	keys := gw.IdempotencyKeys()
	if len(keys) != 2 || keys[0] == keys[1] || len(keys[1]) < 10 || len(keys[1]) > 40 {
		t.Fatalf("X-Refund-Idempotency keys of the two attempts %q", keys)
	}
	var refunds []models.Refund
	e.app.DB.Where("return_id = ?", r.ID).Order("created_at").Find(&refunds)
	if len(refunds) != 2 || refunds[0].Status != models.RefundFailed || refunds[1].Status != models.RefundProcessed ||
		refunds[1].ID.String() != got.Refund.ID {
		t.Fatalf("refund rows %+v", refunds)
	}
	ord := reloadOrder(t, e, o.ID)
	if n := len(gw.Refunds()); n != 1 || gw.Refunded() != 20001 || ord.RefundedTotal != 20001 || ord.PaymentStatus != models.PaymentRefunded {
		t.Fatalf("the gateway made %d refunds of %d; order refunded %d (%s)", n, gw.Refunded(), ord.RefundedTotal, ord.PaymentStatus)
	}
	again := e.app.Do(t, http.MethodPost, path, click).Expect(t, http.StatusOK)
	if again.Header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(again.Body, second.Body) {
		t.Fatalf("third click %v %s", again.Header, again.Body)
	}
	if n := emailRows(t, e, "return_refunded", r.ID); n != 1 {
		t.Fatalf("%d refund emails", n)
	}
}
