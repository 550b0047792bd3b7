package returnapi_test

import (
	"context"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// Reconcile reports drift in returned and restocked quantities: a line
// restocked beyond what was received, and more units in returns than
// shipped.
func TestReconcileReportsReturnDrift(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o, _ := e.order(t, models.OrderDelivered, 0, lineSpec{qty: 2, lineTotal: 20000})
	fulfil(t, e, o, models.ShipmentDelivered, time.Now().Add(-time.Hour))
	var r returnBody
	e.app.Do(t, "POST", e.customerPath(o), testkit.Req{Token: e.token, Body: map[string]any{"items": []any{item(o, 0, 2)}}}).
		Expect(t, 201).JSON(t, &r)
	count := func(kind string) int {
		rep, err := e.app.Reconcile.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, p := range rep.Problems {
			if p.Kind == kind {
				n++
			}
		}
		return n
	}
	if n := count("return_quantities") + count("returned_beyond_shipped"); n != 0 {
		t.Fatalf("%d problems in a consistent return", n)
	}
	e.app.DB.Exec(`UPDATE return_items SET received_quantity = 1, restocked_quantity = 2 WHERE return_id = ?`, r.ID)
	if n := count("return_quantities"); n != 1 {
		t.Fatalf("restocked > received: %d problems", n)
	}
	e.app.DB.Exec(`UPDATE return_items SET received_quantity = 0, restocked_quantity = 0, quantity = 3 WHERE return_id = ?`, r.ID)
	if n := count("returned_beyond_shipped"); n != 1 {
		t.Fatalf("3 units in returns of 2 shipped: %d problems", n)
	}
}
