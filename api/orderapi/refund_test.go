package orderapi_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// Two refunds of 60 at once on an order paid 100: exactly one goes through.
func TestConcurrentRefundsCannotExceedPayment(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Admin))
	p := fixtures.MustProduct(t, app.DB, "Mug", 10000) // ₹100
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "B"),
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
	path := "/api/v1/admin/orders/" + o.ID.String() + "/refund"

	statuses := make([]int, 2)
	testkit.Together(t, len(statuses), func(i int) {
		statuses[i] = app.Do(t, "POST", path, testkit.Req{Token: token,
			Body: map[string]any{"amount": 60, "reason": "damaged", "initiatePaymentRefund": true}}).Status
	})
	if !(statuses[0] == 200 && statuses[1] == 400) && !(statuses[0] == 400 && statuses[1] == 200) {
		t.Fatalf("statuses %v, want one 200 and one 400", statuses)
	}
	var got models.Order
	app.DB.First(&got, "id = ?", o.ID)
	if got.RefundedTotal != 6000 || got.PaymentStatus != "partially_refunded" || got.Status != "confirmed" {
		t.Fatalf("order after refunds: refunded %d, payment %s, status %s", got.RefundedTotal, got.PaymentStatus, got.Status)
	}
	var refunds []models.Refund
	app.DB.Where("order_id = ?", o.ID).Find(&refunds)
	if len(refunds) != 1 || refunds[0].ProviderRefundID == nil || *refunds[0].ProviderRefundID == "" {
		t.Fatalf("refund rows %+v", refunds)
	}

	// More than what is left is refused, naming the field.
	app.Do(t, "POST", path, testkit.Req{Token: token, Body: map[string]any{"amount": 40.01}}).ExpectField(t, "amount")
	app.Do(t, "POST", path, testkit.Req{Token: token, Body: map[string]any{"amount": 0}}).ExpectField(t, "amount")
	app.Do(t, "POST", path, testkit.Req{Token: token, Body: map[string]any{"amount": -5}}).ExpectField(t, "amount")
	app.Do(t, "POST", path, testkit.Req{Token: token, Body: map[string]any{"amount": 1.001}}).ExpectField(t, "amount")

	// The rest, recorded only: the order is refunded in full and, not having
	// shipped, cancelled with its stock returned.
	body := app.Do(t, "POST", path, testkit.Req{Token: token, Body: map[string]any{"amount": 40, "reason": "lost"}}).
		Expect(t, 200).Map(t)
	order := body["order"].(map[string]any)
	if order["paymentStatus"] != "refunded" || order["status"] != "cancelled" || body["amount"] != 40.0 || body["currency"] != "INR" {
		t.Fatalf("full refund answer %v", body)
	}
	if body["providerRefundId"] != nil {
		t.Fatalf("a recorded-only refund has a provider id: %v", body)
	}
	if st := fixtures.Reload(t, app.DB, v); st.Committed != 0 || st.Inventory != 10 {
		t.Fatalf("stock after full refund: %d/%d", st.Inventory, st.Committed)
	}
	app.Do(t, "POST", path, testkit.Req{Token: token, Body: map[string]any{"amount": 1}}).ExpectField(t, "amount")
}

// A shipped order refunded in full stays shipped.
func TestFullRefundOfShippedOrderKeepsStatus(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Admin))
	p := fixtures.MustProduct(t, app.DB, "Lamp", 99900)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "C"),
		Status: "shipped", Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})
	body := app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/refund", testkit.Req{Token: token,
		Body: map[string]any{"amount": 1998}}).Expect(t, 200).Map(t)
	order := body["order"].(map[string]any)
	if order["status"] != "shipped" || order["paymentStatus"] != "refunded" {
		t.Fatalf("answer %v", body)
	}
}

// The gateway refusing the refund (a 4xx) is 503 naming the failed refund,
// which stays on the order as failed; nothing is refunded and the next
// refund is not held up by it.
func TestGatewayRefundRefusedRefundsNothing(t *testing.T) {
	t.Parallel()
	gw := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"error":{"code":"BAD_REQUEST_ERROR","description":"The refund amount provided is greater than amount captured"}}`))
	}))
	defer gw.Close()
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) {
		c.PaymentProvider, c.RazorpayBaseURL, c.RazorpayKeyID, c.RazorpayKeySecret = "razorpay", gw.URL, "rzp_test", "secret"
	}))
	_, token := testkit.MustAdmin(t, app, string(rbac.Admin))
	_, staff := testkit.MustAdmin(t, app, string(rbac.Staff))
	p := fixtures.MustProduct(t, app.DB, "Pen", 5000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "D"),
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
	path := "/api/v1/admin/orders/" + o.ID.String() + "/refund"
	app.Do(t, "POST", path, testkit.Req{Token: staff, Body: map[string]any{"amount": 10}}).ExpectError(t, 403, "FORBIDDEN")
	e := app.Do(t, "POST", path, testkit.Req{Token: token, Body: map[string]any{"amount": 50, "initiatePaymentRefund": true}}).
		ExpectError(t, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
	if e.Error.Details["status"] != "failed" || !strings.Contains(e.Error.Message, "refused") {
		t.Fatalf("answer %+v", e.Error)
	}
	var refunds []models.Refund
	app.DB.Where("order_id = ?", o.ID).Find(&refunds)
	var got models.Order
	app.DB.First(&got, "id = ?", o.ID)
	if len(refunds) != 1 || refunds[0].Status != models.RefundFailed || refunds[0].ID.String() != e.Error.Details["refundId"] ||
		got.RefundedTotal != 0 || got.PaymentStatus != "paid" || got.Status != "confirmed" {
		t.Fatalf("after a refused gateway refund: refunds %+v, refunded %d, %s/%s", refunds, got.RefundedTotal, got.PaymentStatus, got.Status)
	}
	// Money returned another way is recorded: the failed refund holds nothing up.
	app.Do(t, "POST", path, testkit.Req{Token: token, Body: map[string]any{"amount": 50}}).Expect(t, 200)
}
