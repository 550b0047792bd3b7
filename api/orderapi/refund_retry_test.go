package orderapi_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/gateway/razorpaytest"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// An order refund the gateway refuses is retried with the same
// Idempotency-Key (its 503 is not kept): the retry is a new attempt, a new
// refund row asked with a fresh gateway key, not the failed refund
// answered again. One refund is paid.
func TestOrderRefundRefusedByTheGatewayCanBeRetriedWithTheSameKey(t *testing.T) {
	t.Parallel()
	gw := razorpaytest.New(t, nil, 0)
	e := newRefundEnv(t, gw)
	gw.RefuseRefunds(2)
	req := testkit.Req{Token: e.token, Headers: map[string]string{"Idempotency-Key": "refund-" + e.order.ID.String()},
		Body: map[string]any{"amount": 30, "reason": "damaged", "initiatePaymentRefund": true}}

	for attempt := range 2 {
		refused := e.app.Do(t, http.MethodPost, e.path, req).ExpectError(t, http.StatusServiceUnavailable, "SERVICE_UNAVAILABLE")
		if refused.Error.Details["status"] != models.RefundFailed {
			t.Fatalf("attempt %d: %+v", attempt+1, refused.Error)
		}
	}
	made := e.app.Do(t, http.MethodPost, e.path, req).Expect(t, http.StatusOK)
	body := made.Map(t)
	if body["status"] != models.RefundProcessed || made.Header.Get("Idempotent-Replayed") != "" {
		t.Fatalf("third attempt %s", made.Body)
	}
	keys := gw.IdempotencyKeys()
	if len(keys) != 3 || keys[0] == keys[1] || keys[1] == keys[2] || keys[0] == keys[2] {
		t.Fatalf("X-Refund-Idempotency keys of three attempts %q", keys)
	}
	o, refunds := e.reload(t)
	if len(refunds) != 3 || refunds[0].Status != models.RefundFailed || refunds[1].Status != models.RefundFailed ||
		refunds[2].Status != models.RefundProcessed || refunds[2].ID.String() != body["id"] {
		t.Fatalf("refund rows %+v", refunds)
	}
	if n := len(gw.Refunds()); n != 1 || gw.Refunded() != 3000 || o.RefundedTotal != 3000 {
		t.Fatalf("the gateway made %d refunds of %d; the order refunded %d", n, gw.Refunded(), o.RefundedTotal)
	}
	again := e.app.Do(t, http.MethodPost, e.path, req).Expect(t, http.StatusOK)
	if again.Header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(again.Body, made.Body) {
		t.Fatalf("repeat %v %s", again.Header, again.Body)
	}
}

// A refund asked while another refund of the order is still waiting for
// the gateway is 409 with Retry-After: the answer tells the client to try
// again, so it is not kept: once the other refund is settled, the retry
// with the same key runs and refunds.
func TestRefundToldToRetryIsNotKeptForItsKey(t *testing.T) {
	t.Parallel()
	gw := razorpaytest.New(t, nil, 0)
	e := newRefundEnv(t, gw)
	var payment models.Payment
	if err := e.app.DB.Take(&payment, "order_id = ?", e.order.ID).Error; err != nil {
		t.Fatal(err)
	}
	other := models.Refund{OrderID: e.order.ID, Amount: 1000, Reason: "other", Status: models.RefundPending,
		PaymentID: &payment.PaymentID}
	if err := e.app.DB.Create(&other).Error; err != nil {
		t.Fatal(err)
	}
	// Its own request holds it while it asks the gateway.
	inFlight := e.app.DB.Begin()
	t.Cleanup(func() { inFlight.Rollback() })
	if err := inFlight.Exec(`SELECT id FROM refunds WHERE id = ? FOR UPDATE`, other.ID).Error; err != nil {
		t.Fatal(err)
	}

	req := testkit.Req{Token: e.token, Headers: map[string]string{"Idempotency-Key": "refund-2-" + e.order.ID.String()},
		Body: map[string]any{"amount": 30, "reason": "damaged", "initiatePaymentRefund": true}}
	busy := e.app.Do(t, http.MethodPost, e.path, req)
	busy.ExpectError(t, http.StatusConflict, "CONFLICT")
	if busy.Header.Get("Retry-After") == "" {
		t.Fatalf("409 of a pending refund without Retry-After: %v %s", busy.Header, busy.Body)
	}

	// The other request hears the gateway refused it.
	if err := inFlight.Exec(`UPDATE refunds SET status = ? WHERE id = ?`, models.RefundFailed, other.ID).Error; err != nil {
		t.Fatal(err)
	}
	if err := inFlight.Commit().Error; err != nil {
		t.Fatal(err)
	}
	retry := e.app.Do(t, http.MethodPost, e.path, req).Expect(t, http.StatusOK)
	if retry.Header.Get("Idempotent-Replayed") != "" || retry.Map(t)["status"] != models.RefundProcessed {
		t.Fatalf("retry %v %s", retry.Header, retry.Body)
	}
	if o, _ := e.reload(t); o.RefundedTotal != 3000 || gw.Refunded() != 3000 {
		t.Fatalf("order refunded %d, gateway %d", o.RefundedTotal, gw.Refunded())
	}
}
