package fulfillmentapi_test

import (
	"context"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/reconcile"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Reconcile counts an open order's shipped units out of the commitment: a
// partly fulfilled order shows no drift, and a committed counter that still
// holds the shipped units (or lost the cancelled ones) is reported and fixed.
func TestReconcileKnowsFulfilledUnits(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	p := fixtures.MustProduct(t, app.DB, "Dupatta", 70000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "Uma"),
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 4}}})
	line := o.Items[0].ID
	ship(t, app, token, o, map[uuid.UUID]int{line: 1}, nil)
	f2 := ship(t, app, token, o, map[uuid.UUID]int{line: 2}, nil)
	fulfillmentAction(t, app, token, o, f2.ID, "cancel").Expect(t, 200)
	stockIs(t, app, v, 9, 3, 6) // 1 shipped, 3 still committed

	drift := func() []reconcile.Drift {
		t.Helper()
		rep, err := app.Reconcile.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var mine []reconcile.Drift
		for _, d := range rep.Committed {
			if d.VariantID == v.ID {
				mine = append(mine, d)
			}
		}
		return mine
	}
	if d := drift(); len(d) != 0 {
		t.Fatalf("a partly fulfilled order reported as drift: %+v", d)
	}
	for _, wrong := range []int{4, 1} { // the shipped unit still counted; the cancelled units lost
		app.DB.Model(&models.Variant{}).Where("id = ?", v.ID).Update("committed", wrong)
		d := drift()
		if len(d) != 1 || d[0].Was != wrong || d[0].Now != 3 || !d[0].Fixed {
			t.Fatalf("committed %d: drift %+v, want %d → 3 fixed", wrong, d, wrong)
		}
		stockIs(t, app, v, 9, 3, 6)
	}
}
