package locationapi_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/reconcile"
)

type transferBody struct {
	ID     string `json:"id"`
	Status string `json:"status"`
}

// A transfer takes its units off the source at once (in_transit), never
// below what orders need from it; receive puts them at the destination,
// cancel back at the source; a finished transfer moves no more.
func TestTransferLifecycle(t *testing.T) {
	e := newEnv(t)
	def := e.defaultLocation(t)
	shop := e.location(t, "SHOP", "Karnataka", "", 10, nil)
	back := e.location(t, "BACK", "Karnataka", "", 20, map[string]any{"fulfilsOnline": false})
	p := fixtures.MustProduct(t, e.app.DB, "Shawl", 120000)
	v := fixtures.MustVariant(t, e.app.DB, p.ID, 6)
	cust := fixtures.MustCustomer(t, e.app.DB, "Lata")
	fixtures.MustOrder(t, e.app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 4}}})
	send := func(from, to string, q int) *transferBody {
		t.Helper()
		r := e.do(t, http.MethodPost, "/api/v1/admin/inventory/transfers", map[string]any{"fromLocationId": from, "toLocationId": to,
			"items": []map[string]any{{"variantId": v.ID, "quantity": q}}, "note": "restock the shop"})
		if r.Status != http.StatusCreated {
			r.ExpectError(t, http.StatusConflict, "CONFLICT")
			return nil
		}
		var tb transferBody
		r.JSON(t, &tb)
		return &tb
	}
	// 6 on hand, 4 committed: 3 may not leave the selling pool.
	if send(def.ID, back.ID, 3) != nil {
		t.Fatal("a transfer took units the order needs")
	}
	e.levelsAre(t, v, map[string]int{def.ID: 6}, 6, 4)
	// To another selling location: the units are in transit, not sellable.
	tr := send(def.ID, shop.ID, 2)
	if tr == nil || tr.Status != "in_transit" {
		t.Fatalf("transfer: %+v", tr)
	}
	e.levelsAre(t, v, map[string]int{def.ID: 4, shop.ID: 0}, 4, 4)
	if s := e.stock(t, v.ID); s.Total.InTransit != 2 || s.Total.OnHand != 4 {
		t.Fatalf("totals in transit: %+v", s.Total)
	}
	var got transferBody
	e.do(t, http.MethodPost, "/api/v1/admin/inventory/transfers/"+tr.ID+"/receive", nil).Expect(t, http.StatusOK).JSON(t, &got)
	if got.Status != "received" {
		t.Fatalf("received: %+v", got)
	}
	e.levelsAre(t, v, map[string]int{def.ID: 4, shop.ID: 2}, 6, 4)
	e.do(t, http.MethodPost, "/api/v1/admin/inventory/transfers/"+tr.ID+"/cancel", nil).ExpectError(t, http.StatusConflict, "CONFLICT")
	// From the shop to the back store, then cancelled: back at the shop.
	tr = send(shop.ID, back.ID, 2)
	if tr == nil {
		t.Fatal("refused")
	}
	e.levelsAre(t, v, map[string]int{shop.ID: 0, back.ID: 0}, 4, 4)
	e.do(t, http.MethodPost, "/api/v1/admin/inventory/transfers/"+tr.ID+"/cancel", nil).Expect(t, http.StatusOK).JSON(t, &got)
	e.levelsAre(t, v, map[string]int{shop.ID: 2, back.ID: 0}, 6, 4)
	e.do(t, http.MethodPost, "/api/v1/admin/inventory/transfers/"+tr.ID+"/receive", nil).ExpectError(t, http.StatusConflict, "CONFLICT")
	var page struct{ Data []transferBody }
	e.do(t, http.MethodGet, "/api/v1/admin/inventory/transfers?status=cancelled", nil).Expect(t, http.StatusOK).JSON(t, &page)
	if len(page.Data) != 1 || page.Data[0].ID != tr.ID {
		t.Fatalf("cancelled transfers: %+v", page.Data)
	}
	for _, tc := range []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"same location", map[string]any{"fromLocationId": def.ID, "toLocationId": def.ID,
			"items": []map[string]any{{"variantId": v.ID, "quantity": 1}}}, "toLocationId"},
		{"unknown source", map[string]any{"fromLocationId": "00000000-0000-4000-8000-000000000000", "toLocationId": def.ID,
			"items": []map[string]any{{"variantId": v.ID, "quantity": 1}}}, "fromLocationId"},
		{"twice a variant", map[string]any{"fromLocationId": def.ID, "toLocationId": shop.ID,
			"items": []map[string]any{{"variantId": v.ID, "quantity": 1}, {"variantId": v.ID, "quantity": 1}}}, "items[1].variantId"},
		{"no items", map[string]any{"fromLocationId": def.ID, "toLocationId": shop.ID, "items": []map[string]any{}}, "items"},
		{"zero units", map[string]any{"fromLocationId": def.ID, "toLocationId": shop.ID,
			"items": []map[string]any{{"variantId": v.ID, "quantity": 0}}}, "items[0].quantity"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.bad(t, http.MethodPost, "/api/v1/admin/inventory/transfers", tc.body).ExpectField(t, tc.field)
		})
	}
	// A location with a transfer in transit is not deleted.
	tr = send(shop.ID, back.ID, 1)
	e.do(t, http.MethodDelete, locationsPath+"/"+back.ID, nil).ExpectError(t, http.StatusConflict, "CONFLICT")
}

// Reconcile compares each variant's inventory with the sum of its levels at
// the selling locations and sets it back to the sum.
func TestReconcileLevelsAgainstInventory(t *testing.T) {
	e := newEnv(t)
	shop := e.location(t, "SHOP", "Karnataka", "", 10, nil)
	p := fixtures.MustProduct(t, e.app.DB, "Bowl", 30000)
	v := fixtures.MustVariant(t, e.app.DB, p.ID, 5)
	e.adjust(t, v.ID, "add", 3, shop.ID).Expect(t, http.StatusOK)
	drift := func() []reconcile.Drift {
		t.Helper()
		rep, err := e.app.Reconcile.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var mine []reconcile.Drift
		for _, d := range rep.Inventory {
			if d.VariantID == v.ID {
				mine = append(mine, d)
			}
		}
		return mine
	}
	if d := drift(); len(d) != 0 {
		t.Fatalf("drift reported on a shop in step: %+v", d)
	}
	e.app.DB.Exec(`UPDATE variants SET inventory = 11 WHERE id = ?`, v.ID)
	if d := drift(); len(d) != 1 || d[0].Was != 11 || d[0].Now != 8 || !d[0].Fixed {
		t.Fatalf("drift %+v, want 11 → 8 fixed", d)
	}
	e.levelsAre(t, v, nil, 8, 0)
	if d := drift(); len(d) != 0 {
		t.Fatalf("drift after the repair: %+v", d)
	}
}
