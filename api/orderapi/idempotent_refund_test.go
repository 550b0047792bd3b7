package orderapi_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/gateway/razorpaytest"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// An admin refunds with an Idempotency-Key and the gateway answers after
// GATEWAY_TIMEOUT (having made the refund, or not): the 503 is not kept, so
// the retry with the same key runs again, finds the refund its key made,
// settles it with the gateway under the same derived X-Refund-Idempotency
// key, and answers 200 with it. One refund is made; a later repeat is a
// replay.
func TestRetriedKeyedRefundAfterGatewayTimeoutRefundsOnce(t *testing.T) {
	t.Parallel()
	for _, made := range []bool{true, false} {
		name := "the gateway made it"
		if !made {
			name = "the gateway did not make it"
		}
		t.Run(name, func(t *testing.T) {
			gw := razorpaytest.New(t, func(n int) (bool, bool) { return n == 0, made }, stubDelay)
			e := newRefundEnv(t, gw)
			req := testkit.Req{Token: e.token, Headers: map[string]string{"Idempotency-Key": "refund-" + e.order.ID.String()},
				Body: map[string]any{"amount": 30, "reason": "damaged", "initiatePaymentRefund": true}}

			pendingID := expectPendingAnswer(t, e.app.Do(t, http.MethodPost, e.path, req))
			first := e.app.Do(t, http.MethodPost, e.path, req).Expect(t, http.StatusOK)
			body := first.Map(t)
			if body["id"] != pendingID || body["status"] != "processed" || first.Header.Get("Idempotent-Replayed") != "" {
				t.Fatalf("retry answer %s", first.Body)
			}
			again := e.app.Do(t, http.MethodPost, e.path, req).Expect(t, http.StatusOK)
			if again.Header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(again.Body, first.Body) {
				t.Fatalf("repeat %v %s", again.Header, again.Body)
			}

			o, refunds := e.reload(t)
			if n := len(gw.Refunds()); n != 1 || gw.Refunded() != 3000 || o.RefundedTotal != 3000 ||
				len(refunds) != 1 || refunds[0].Status != models.RefundProcessed {
				t.Fatalf("the stub made %d refunds of %d; order refunded %d; refunds %+v", n, gw.Refunded(), o.RefundedTotal, refunds)
			}
			keys := gw.IdempotencyKeys()
			for _, k := range keys {
				if k != keys[0] || !strings.HasPrefix(k, "idem_") {
					t.Fatalf("X-Refund-Idempotency keys %q", keys)
				}
			}
		})
	}
}
