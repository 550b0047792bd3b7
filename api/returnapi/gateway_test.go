package returnapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/gateway/razorpaytest"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// The gateway makes the return's refund but answers after GATEWAY_TIMEOUT:
// the staff member is told it is pending; the retry settles it with the
// gateway first and pays nothing twice; the return ends refunded once.
func TestReturnRefundRetriedAfterTimeoutPaysOnce(t *testing.T) {
	t.Parallel()
	const timeout = 400 * time.Millisecond
	gw := razorpaytest.New(t, func(n int) (bool, bool) { return n == 0, true }, 3*timeout)
	e := newEnv(t, testkit.WithConfig(func(c *config.Config) {
		c.PaymentProvider, c.RazorpayBaseURL, c.RazorpayKeyID, c.RazorpayKeySecret = "razorpay", gw.URL, "rzp_test", "secret"
		c.GatewayTimeout = timeout
		c.AdminGeneralRateLimit = 100000
	}))
	o, _ := e.order(t, models.OrderDelivered, 0, lineSpec{qty: 2, lineTotal: 20001})
	fulfil(t, e, o, models.ShipmentDelivered, time.Now().Add(-time.Hour))
	var r returnBody
	e.app.Do(t, "POST", e.customerPath(o), testkit.Req{Token: e.token, Body: map[string]any{"items": []any{item(o, 0, 2)}}}).
		Expect(t, 201).JSON(t, &r)
	e.adminDo(t, "POST", "/returns/"+r.ID+"/approve", nil).Expect(t, 200)
	e.adminDo(t, "POST", "/returns/"+r.ID+"/receive", map[string]any{
		"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 2}}}).Expect(t, 200)

	pending := e.adminDo(t, "POST", "/returns/"+r.ID+"/refund", nil).ExpectError(t, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
	if pending.Error.Details["status"] != "pending" {
		t.Fatalf("first answer %+v", pending.Error)
	}
	var got returnBody
	e.adminDo(t, "GET", "/returns/"+r.ID, nil).Expect(t, 200).JSON(t, &got)
	if got.Status != "received" || got.Refund == nil || got.Refund.Status != "pending" {
		t.Fatalf("after the timeout %+v", got)
	}

	// The retry finds the refund made at the gateway: nothing more is paid.
	e.adminDo(t, "POST", "/returns/"+r.ID+"/refund", nil).ExpectError(t, http.StatusConflict, "CONFLICT")
	e.adminDo(t, "POST", "/returns/"+r.ID+"/refund", nil).ExpectError(t, http.StatusConflict, "CONFLICT")
	e.adminDo(t, "GET", "/returns/"+r.ID, nil).Expect(t, 200).JSON(t, &got)
	ord := reloadOrder(t, e, o.ID)
	sum, n := money.Amount(gw.Refunded()), len(gw.Refunds())
	if n != 1 || sum != 20001 || ord.RefundedTotal != sum || ord.PaymentStatus != models.PaymentRefunded ||
		got.Status != "refunded" || got.Refund.Status != "processed" {
		t.Fatalf("the gateway refunded %d in %d; order %d (%s); return %+v", sum, n, ord.RefundedTotal, ord.PaymentStatus, got)
	}
	if n := emailRows(t, e, "return_refunded", r.ID); n != 1 {
		t.Fatalf("%d refund emails", n)
	}
}
