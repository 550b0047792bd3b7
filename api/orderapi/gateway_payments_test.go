package orderapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/gateway/razorpaytest"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// capturePayment is the order's gateway capture (the fixture's payment).
func (e refundEnv) capturePayment(t *testing.T) models.Payment {
	t.Helper()
	var p models.Payment
	if err := e.app.DB.First(&p, "order_id = ?", e.order.ID).Error; err != nil {
		t.Fatal(err)
	}
	return p
}

// addPayment records a later payment of the order, as a balance paid
// offline or through a balance payment link does: a payments row, newer
// than the capture, and the order's paid total up by its amount.
func (e refundEnv) addPayment(t *testing.T, provider, paymentID string, amount money.Amount) {
	t.Helper()
	id := uuid.New()
	if paymentID == "" {
		paymentID = "offline_" + id.String()
	}
	p := models.Payment{ID: id, OrderID: e.order.ID, Provider: provider, PaymentIntentID: "plink_" + id.String()[:8],
		PaymentID: paymentID, Amount: amount, Currency: "INR", Method: "upi", Status: "captured",
		CreatedAt: time.Now().UTC().Add(time.Minute)}
	if err := e.app.DB.Create(&p).Error; err != nil {
		t.Fatal(err)
	}
	if err := e.app.DB.Exec(`UPDATE orders SET paid_total = paid_total + ? WHERE id = ?`, amount, e.order.ID).Error; err != nil {
		t.Fatal(err)
	}
}

func (e refundEnv) partsOf(t *testing.T, refundID any) []models.RefundPart {
	t.Helper()
	var parts []models.RefundPart
	e.app.DB.Where("refund_id = ?", refundID).Order("position").Find(&parts)
	return parts
}

// An order paid ₹100 through the gateway and then ₹50 offline: a gateway
// refund goes to the gateway payment (the gateway knows no offline_...
// payment), and no more than that payment has left can go through the
// gateway (400), the rest only by hand; once the gateway payment is all
// refunded, a gateway refund is 409.
func TestGatewayRefundSkipsAnOfflinePayment(t *testing.T) {
	t.Parallel()
	gw := razorpaytest.New(t, nil, 0)
	e := newRefundEnv(t, gw)
	capture := e.capturePayment(t)
	e.addPayment(t, models.ProviderOffline, "", 5000)

	made := e.refund(t, 30).Expect(t, http.StatusOK).Map(t)
	if made["status"] != models.RefundProcessed {
		t.Fatalf("refund %v", made)
	}
	parts, _ := made["parts"].([]any)
	if len(parts) != 1 || parts[0].(map[string]any)["paymentId"] != capture.PaymentID {
		t.Fatalf("parts %v, want one of %s", made["parts"], capture.PaymentID)
	}
	if rs := gw.Refunds(); len(rs) != 1 || rs[0].PaymentID != capture.PaymentID || rs[0].Amount != 3000 {
		t.Fatalf("gateway refunds %+v", rs)
	}

	over := e.refund(t, 80).ExpectField(t, "amount")
	if over.Error.Code != "VALIDATION_ERROR" {
		t.Fatalf("over what the gateway payment has left: %+v", over.Error)
	}
	e.refund(t, 70).Expect(t, http.StatusOK)
	none := e.refund(t, 10).ExpectError(t, http.StatusConflict, "CONFLICT")
	if none.Error.Details["field"] != "initiatePaymentRefund" {
		t.Fatalf("nothing left at the gateway: %+v", none.Error)
	}
	o, refunds := e.reload(t)
	if o.RefundedTotal != 10000 || len(refunds) != 2 || gw.Refunded() != 10000 || o.PaymentStatus != models.PaymentPartiallyRefunded {
		t.Fatalf("order refunded %d (%s) in %d refunds; gateway refunded %d", o.RefundedTotal, o.PaymentStatus, len(refunds), gw.Refunded())
	}
}

// An order paid ₹100 at capture and ₹20 more through a balance payment
// link. A refund that the capture can cover goes to it alone; one larger
// than any payment has left is split over them (the capture first), one
// refund counted once, its parts one gateway refund each; what is left
// after that is the limit.
func TestGatewayRefundSplitsOverCaptureAndBalancePayment(t *testing.T) {
	t.Parallel()
	gw := razorpaytest.New(t, nil, 0)
	e := newRefundEnv(t, gw)
	capture := e.capturePayment(t)
	balance := "pay_bal" + uuid.NewString()[:8]
	gw.Capture(balance, 2000)
	e.addPayment(t, "razorpay", balance, 2000)

	first := e.refund(t, 50).Expect(t, http.StatusOK).Map(t)
	if p := e.partsOf(t, first["id"]); len(p) != 1 || p[0].PaymentID != capture.PaymentID || p[0].Amount != 5000 {
		t.Fatalf("first refund parts %+v", p)
	}
	split := e.refund(t, 60).Expect(t, http.StatusOK).Map(t)
	if split["status"] != models.RefundProcessed || split["amount"] != 60.0 {
		t.Fatalf("split refund %v", split)
	}
	p := e.partsOf(t, split["id"])
	if len(p) != 2 || p[0].PaymentID != capture.PaymentID || p[0].Amount != 5000 || p[1].PaymentID != balance ||
		p[1].Amount != 1000 || p[0].Status != models.RefundProcessed || p[1].Status != models.RefundProcessed || p[0].GatewayKey == p[1].GatewayKey {
		t.Fatalf("split parts %+v", p)
	}
	if parts, _ := split["parts"].([]any); len(parts) != 2 {
		t.Fatalf("answer parts %v", split["parts"])
	}
	byPayment := map[string]int64{}
	for _, r := range gw.Refunds() {
		byPayment[r.PaymentID] += r.Amount
	}
	if byPayment[capture.PaymentID] != 10000 || byPayment[balance] != 1000 || len(gw.Refunds()) != 3 {
		t.Fatalf("gateway refunds %+v", gw.Refunds())
	}
	e.refund(t, 20).ExpectField(t, "amount")
	o, refunds := e.reload(t)
	if o.RefundedTotal != 11000 || len(refunds) != 2 || o.PaymentStatus != models.PaymentPartiallyRefunded {
		t.Fatalf("order refunded %d (%s), %d refunds", o.RefundedTotal, o.PaymentStatus, len(refunds))
	}
}

// A split refund whose second part's answer is lost (the gateway made it
// but answered after GATEWAY_TIMEOUT) stays pending, its first part
// processed; the retry with the same Idempotency-Key asks only the pending
// part again, with its own key, and the gateway makes nothing twice.
func TestSplitRefundRetriedAfterATimeoutRefundsOnce(t *testing.T) {
	t.Parallel()
	gw := razorpaytest.New(t, func(n int) (bool, bool) { return n == 1, true }, stubDelay)
	e := newRefundEnv(t, gw)
	capture := e.capturePayment(t)
	balance := "pay_bal" + uuid.NewString()[:8]
	gw.Capture(balance, 2000)
	e.addPayment(t, "razorpay", balance, 2000)
	req := testkit.Req{Token: e.token, Headers: map[string]string{"Idempotency-Key": "split-" + e.order.ID.String()},
		Body: map[string]any{"amount": 110, "reason": "damaged", "initiatePaymentRefund": true}}

	id := expectPendingAnswer(t, e.app.Do(t, http.MethodPost, e.path, req))
	p := e.partsOf(t, id)
	if len(p) != 2 || p[0].Status != models.RefundProcessed || p[1].Status != models.RefundPending {
		t.Fatalf("parts after the timeout %+v", p)
	}
	if o, _ := e.reload(t); o.RefundedTotal != 0 {
		t.Fatalf("a pending refund counted: %d", o.RefundedTotal)
	}
	done := e.app.Do(t, http.MethodPost, e.path, req).Expect(t, http.StatusOK).Map(t)
	if done["id"] != id || done["status"] != models.RefundProcessed {
		t.Fatalf("retry %v", done)
	}
	byPayment := map[string]int64{}
	for _, r := range gw.Refunds() {
		byPayment[r.PaymentID] += r.Amount
	}
	if len(gw.Refunds()) != 2 || byPayment[capture.PaymentID] != 10000 || byPayment[balance] != 1000 {
		t.Fatalf("gateway refunds %+v", gw.Refunds())
	}
	o, refunds := e.reload(t)
	if o.RefundedTotal != 11000 || len(refunds) != 1 {
		t.Fatalf("order refunded %d in %d refunds", o.RefundedTotal, len(refunds))
	}
}

// A split refund the gateway refuses for one payment and makes for the
// other: the refund is processed for what was made, counted once at that
// amount, and the answer (503) says what was refunded and what was
// refused; a retry with the same key answers with the refund as it stands
// and asks the gateway nothing more.
func TestSplitRefundPartlyRefusedCountsWhatWasMade(t *testing.T) {
	t.Parallel()
	gw := razorpaytest.New(t, nil, 0)
	e := newRefundEnv(t, gw)
	balance := "pay_bal" + uuid.NewString()[:8]
	gw.Capture(balance, 2000)
	e.addPayment(t, "razorpay", balance, 2000)
	gw.RefuseRefunds(1) // the capture's part
	req := testkit.Req{Token: e.token, Headers: map[string]string{"Idempotency-Key": "partly-" + e.order.ID.String()},
		Body: map[string]any{"amount": 110, "reason": "damaged", "initiatePaymentRefund": true}}

	partly := e.app.Do(t, http.MethodPost, e.path, req).ExpectError(t, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
	d := partly.Error.Details
	if d["status"] != models.RefundProcessed || d["amount"] != 10.0 || d["refused"] != 100.0 {
		t.Fatalf("partly refused: %+v", partly.Error)
	}
	o, refunds := e.reload(t)
	if o.RefundedTotal != 1000 || len(refunds) != 1 || refunds[0].Amount != 1000 || refunds[0].Status != models.RefundProcessed {
		t.Fatalf("order refunded %d; refunds %+v", o.RefundedTotal, refunds)
	}
	again := e.app.Do(t, http.MethodPost, e.path, req).Expect(t, http.StatusOK).Map(t)
	if again["id"] != d["refundId"] || again["amount"] != 10.0 || len(gw.Refunds()) != 1 || gw.Refunded() != 1000 {
		t.Fatalf("retry %v; gateway refunds %+v", again, gw.Refunds())
	}
}
