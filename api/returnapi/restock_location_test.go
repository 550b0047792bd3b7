package returnapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// A received return restocks into the location it names (here one that
// does not sell online: the level grows, the variant's inventory does not),
// else into the location the order last shipped from.
func TestReturnRestocksIntoALocation(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	_, admin := testkit.MustAdmin(t, e.app, string(rbac.Admin))
	var back, shop struct{ ID string }
	e.app.Do(t, http.MethodPost, "/api/v1/admin/locations", testkit.Req{Token: admin, Body: map[string]any{"name": "Returns desk",
		"code": "RET", "fulfilsOnline": false, "address": map[string]any{"state": "Karnataka"}}}).Expect(t, http.StatusCreated).JSON(t, &back)
	e.app.Do(t, http.MethodPost, "/api/v1/admin/locations", testkit.Req{Token: admin, Body: map[string]any{"name": "Shop",
		"code": "SHOP", "address": map[string]any{"state": "Karnataka"}}}).Expect(t, http.StatusCreated).JSON(t, &shop)
	level := func(v models.Variant, loc string) int {
		var n int
		e.app.DB.Raw(`SELECT coalesce(sum(on_hand), 0) FROM stock_levels WHERE variant_id = ? AND location_id = ?`, v.ID, loc).Scan(&n)
		return n
	}
	receive := func(o models.Order, body map[string]any) {
		t.Helper()
		var r returnBody
		e.app.Do(t, "POST", e.customerPath(o), testkit.Req{Token: e.token, Body: map[string]any{"items": []any{item(o, 0, 1)}}}).
			Expect(t, 201).JSON(t, &r)
		e.adminDo(t, "POST", "/returns/"+r.ID+"/approve", nil).Expect(t, 200)
		body["items"] = []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 1, "restock": true}}
		e.adminDo(t, "POST", "/returns/"+r.ID+"/receive", body).Expect(t, 200)
	}

	o, vs := e.order(t, models.OrderDelivered, 0, lineSpec{qty: 2, lineTotal: 20000})
	fulfil(t, e, o, models.ShipmentDelivered, time.Now().Add(-24*time.Hour))
	before := fixtures.Reload(t, e.app.DB, vs[0])
	receive(o, map[string]any{"locationId": back.ID})
	if after := fixtures.Reload(t, e.app.DB, vs[0]); after.Inventory != before.Inventory || level(vs[0], back.ID) != 1 {
		t.Fatalf("inventory %d → %d, returns desk %d: want the unit at the desk only", before.Inventory, after.Inventory, level(vs[0], back.ID))
	}

	// Shipped from the shop: the return goes back there by default.
	o2, vs2 := e.order(t, models.OrderDelivered, 0, lineSpec{qty: 2, lineTotal: 20000})
	fulfil(t, e, o2, models.ShipmentDelivered, time.Now().Add(-24*time.Hour))
	e.app.DB.Exec(`UPDATE fulfillments SET location_id = ? WHERE order_id = ?`, shop.ID, o2.ID)
	before = fixtures.Reload(t, e.app.DB, vs2[0])
	receive(o2, map[string]any{})
	if after := fixtures.Reload(t, e.app.DB, vs2[0]); after.Inventory != before.Inventory+1 || level(vs2[0], shop.ID) != 1 {
		t.Fatalf("inventory %d → %d, shop %d: want the unit back at the shop", before.Inventory, after.Inventory, level(vs2[0], shop.ID))
	}
	var restocked *string
	e.app.DB.Raw(`SELECT restock_location_id::text FROM returns WHERE order_id = ?`, o2.ID).Scan(&restocked)
	if restocked == nil || *restocked != shop.ID {
		t.Fatalf("return's restock location %v, want the shop", restocked)
	}
}
