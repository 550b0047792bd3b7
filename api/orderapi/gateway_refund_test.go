package orderapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gateway/razorpaytest"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// gatewayTimeout is GATEWAY_TIMEOUT in these tests; the stub's late answers
// take stubDelay.
const (
	gatewayTimeout = 400 * time.Millisecond
	stubDelay      = 3 * gatewayTimeout
)

// refundEnv is an admin, an order paid ₹100 through the gateway, and the
// app calling the stub as Razorpay.
type refundEnv struct {
	app   *testkit.App
	token string
	order models.Order
	path  string
}

func newRefundEnv(t *testing.T, gw *razorpaytest.Server, opts ...testkit.Option) refundEnv {
	t.Helper()
	opts = append(opts, testkit.WithConfig(func(c *config.Config) {
		c.PaymentProvider, c.RazorpayBaseURL, c.RazorpayKeyID, c.RazorpayKeySecret = "razorpay", gw.URL, "rzp_test", "secret"
		c.GatewayTimeout = gatewayTimeout
		c.AdminGeneralRateLimit = 100000 // the reconcile job is polled
	}))
	app := testkit.MustApp(t, opts...)
	_, token := testkit.MustAdmin(t, app, string(rbac.Admin))
	p := fixtures.MustProduct(t, app.DB, "Kettle "+uuid.NewString()[:6], 10000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "R"),
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
	return refundEnv{app: app, token: token, order: o, path: "/api/v1/admin/orders/" + o.ID.String() + "/refund"}
}

func (e refundEnv) refund(t *testing.T, rupees float64) *testkit.Response {
	t.Helper()
	return e.app.Do(t, "POST", e.path, testkit.Req{Token: e.token,
		Body: map[string]any{"amount": rupees, "reason": "damaged", "initiatePaymentRefund": true}})
}

func (e refundEnv) reload(t *testing.T) (models.Order, []models.Refund) {
	t.Helper()
	var o models.Order
	e.app.DB.First(&o, "id = ?", e.order.ID)
	var refunds []models.Refund
	e.app.DB.Where("order_id = ?", e.order.ID).Order("created_at").Find(&refunds)
	return o, refunds
}

// expectPendingAnswer checks the 503 of a refund whose outcome is unknown.
func expectPendingAnswer(t *testing.T, r *testkit.Response) string {
	t.Helper()
	e := r.ExpectError(t, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
	if e.Error.Details["status"] != "pending" || !strings.Contains(e.Error.Message, "being checked") ||
		strings.Contains(e.Error.Message, "nothing was recorded") {
		t.Fatalf("answer to an unknown outcome: %s", r.Body)
	}
	id, _ := e.Error.Details["refundId"].(string)
	return id
}

// The gateway makes the refund but answers after GATEWAY_TIMEOUT. The
// admin is told the outcome is being checked; the retry settles the pending
// refund with the gateway first and refunds nothing twice; a later refund
// is a new one. refundedTotal always equals what the gateway refunded.
func TestTimedOutGatewayRefundIsNotMadeTwice(t *testing.T) {
	t.Parallel()
	gw := razorpaytest.New(t, func(n int) (bool, bool) { return n == 0, true }, stubDelay)
	e := newRefundEnv(t, gw)

	pendingID := expectPendingAnswer(t, e.refund(t, 30))
	o, refunds := e.reload(t)
	if len(refunds) != 1 || refunds[0].ID.String() != pendingID || refunds[0].Status != models.RefundPending ||
		o.RefundedTotal != 0 || o.PaymentStatus != models.PaymentPaid {
		t.Fatalf("after the timeout: refunded %d (%s), refunds %+v", o.RefundedTotal, o.PaymentStatus, refunds)
	}
	if sum, n := gw.Refunded(), len(gw.Refunds()); sum != 3000 || n != 1 {
		t.Fatalf("the stub made %d refunds of %d in all", n, sum)
	}

	// The admin retries the same refund: the pending one is found at the
	// gateway, and the retry is refused instead of refunding again.
	c := e.refund(t, 30).ExpectError(t, http.StatusConflict, "CONFLICT")
	if c.Error.Details["refundId"] != pendingID || c.Error.Details["status"] != "processed" {
		t.Fatalf("retry answer %+v", c.Error)
	}
	o, refunds = e.reload(t)
	sum, n := money.Amount(gw.Refunded()), len(gw.Refunds())
	if n != 1 || o.RefundedTotal != sum || refunds[0].Status != models.RefundProcessed ||
		refunds[0].ProviderRefundID == nil || *refunds[0].ProviderRefundID != "rfnd_stub1" || o.PaymentStatus != models.PaymentPartiallyRefunded {
		t.Fatalf("after the retry: the stub refunded %d in %d refunds, the order %d (%s); refunds %+v", sum, n, o.RefundedTotal, o.PaymentStatus, refunds)
	}

	// Asked again, knowing, it is a second refund.
	body := e.refund(t, 30).Expect(t, 200).Map(t)
	o, _ = e.reload(t)
	sum, n = money.Amount(gw.Refunded()), len(gw.Refunds())
	if body["status"] != "processed" || n != 2 || o.RefundedTotal != sum || sum != 6000 {
		t.Fatalf("second refund %v: stub %d in %d, order %d", body, sum, n, o.RefundedTotal)
	}
	keys := gw.IdempotencyKeys()
	if len(keys) != 2 || len(keys[0]) < 10 || keys[0] == keys[1] {
		t.Fatalf("X-Refund-Idempotency keys %q", keys)
	}
}

// The first request times out without the gateway making the refund. The
// retry does not find it among the payment's refunds and asks again with
// the same X-Refund-Idempotency key: the one refund the admin asked for is
// made once, and the retry is not a second one.
func TestLostGatewayRefundIsMadeOnceWithTheSameKey(t *testing.T) {
	t.Parallel()
	gw := razorpaytest.New(t, func(n int) (bool, bool) { return n == 0, false }, stubDelay)
	e := newRefundEnv(t, gw)

	expectPendingAnswer(t, e.refund(t, 25))
	if n := len(gw.Refunds()); n != 0 {
		t.Fatalf("the stub made %d refunds", n)
	}
	e.refund(t, 25).ExpectError(t, http.StatusConflict, "CONFLICT")
	keys := gw.IdempotencyKeys()
	if len(keys) != 2 || keys[0] != keys[1] || len(keys[0]) < 10 {
		t.Fatalf("X-Refund-Idempotency keys %q: want the same key on the retry", keys)
	}
	o, refunds := e.reload(t)
	if sum, n := money.Amount(gw.Refunded()), len(gw.Refunds()); n != 1 || sum != 2500 || o.RefundedTotal != sum || refunds[0].Status != models.RefundProcessed {
		t.Fatalf("the stub refunded %d in %d refunds, the order %d; refunds %+v", sum, n, o.RefundedTotal, refunds)
	}
}

// Nobody retries: the reconcile job settles the pending refund.
func TestReconcileSettlesPendingRefund(t *testing.T) {
	t.Parallel()
	gw := razorpaytest.New(t, func(n int) (bool, bool) { return n == 0, true }, stubDelay)
	e := newRefundEnv(t, gw, testkit.WithWorker())
	_, super := testkit.MustAdmin(t, e.app, string(rbac.SuperAdmin))

	expectPendingAnswer(t, e.refund(t, 100))
	var job struct {
		JobID string `json:"jobId"`
	}
	e.app.Do(t, "POST", "/api/v1/admin/system/database/reconcile", testkit.Req{Token: super}).Expect(t, 202).JSON(t, &job)
	var j struct {
		State  string `json:"state"`
		Result struct {
			Refunds struct{ Processed, Failed, Pending int } `json:"refunds"`
		} `json:"result"`
	}
	e.app.WaitJob(t, super, job.JobID, &j)
	if j.State != "completed" || j.Result.Refunds.Processed != 1 || j.Result.Refunds.Pending != 0 {
		t.Fatalf("reconcile job %+v", j)
	}
	o, refunds := e.reload(t)
	sum, n := money.Amount(gw.Refunded()), len(gw.Refunds())
	if n != 1 || o.RefundedTotal != sum || refunds[0].Status != models.RefundProcessed ||
		o.PaymentStatus != models.PaymentRefunded || o.Status != models.OrderCancelled {
		t.Fatalf("after reconcile: stub %d in %d, order %d %s/%s, refunds %+v", sum, n, o.RefundedTotal, o.Status, o.PaymentStatus, refunds)
	}
	// Fully refunded now: nothing more can be.
	e.refund(t, 1).ExpectField(t, "amount")
}
