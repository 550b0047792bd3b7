package returnapi_test

import (
	"bytes"
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// A customer's return request retried with its Idempotency-Key (a network
// retry) is answered with the first return, replayed; one return is open
// and one return.requested published. Another body with the key is 409.
func TestCustomerReturnRequestRetriedWithItsKeyOpensOne(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o, _ := e.order(t, models.OrderDelivered, 0, lineSpec{qty: 3, lineTotal: 30000})
	fulfil(t, e, o, models.ShipmentDelivered, time.Now().Add(-time.Hour))
	req := testkit.Req{Token: e.token, Headers: map[string]string{"Idempotency-Key": "return-" + o.ID.String()},
		Body: map[string]any{"items": []any{item(o, 0, 1)}}}

	first := e.app.Do(t, http.MethodPost, e.customerPath(o), req).Expect(t, http.StatusCreated)
	again := e.app.Do(t, http.MethodPost, e.customerPath(o), req).Expect(t, http.StatusCreated)
	if again.Header.Get("Idempotent-Replayed") != "true" || !bytes.Equal(again.Body, first.Body) {
		t.Fatalf("retry %v %s\nfirst %s", again.Header, again.Body, first.Body)
	}
	var n int64
	e.app.DB.Model(&models.Return{}).Where("order_id = ?", o.ID).Count(&n)
	if n != 1 || events(t, e, "return.requested") != 1 {
		t.Fatalf("%d returns, %d return.requested events after a retry", n, events(t, e, "return.requested"))
	}
	req.Body = map[string]any{"items": []any{item(o, 0, 2)}}
	e.app.Do(t, http.MethodPost, e.customerPath(o), req).ExpectError(t, http.StatusConflict, "CONFLICT")
}
