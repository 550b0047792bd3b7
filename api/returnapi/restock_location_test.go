package returnapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// A received return restocks into the location it names (here one that
// does not sell online: the level grows, the variant's inventory does not),
// else into the location that shipped the returned units (not another
// line's later shipment, nor a later shipment that came back to origin).
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

	// The returned line left from the shop; the other line shipped later,
	// from the default location: the unit goes back to the shop.
	o3, vs3 := e.order(t, models.OrderDelivered, 0, lineSpec{qty: 1, lineTotal: 10000}, lineSpec{qty: 1, lineTotal: 10000})
	fulfil(t, e, o3, models.ShipmentDelivered, time.Now().Add(-48*time.Hour))
	var home string
	e.app.DB.Raw(`SELECT id::text FROM locations WHERE is_default`).Scan(&home)
	later := uuid.New()
	for _, q := range []string{
		`UPDATE fulfillments SET location_id = '` + shop.ID + `' WHERE order_id = '` + o3.ID.String() + `'`,
		`INSERT INTO fulfillments SELECT (jsonb_populate_record(NULL::fulfillments, to_jsonb(f) || jsonb_build_object('id', '` + later.String() +
			`', 'created_at', now(), 'location_id', '` + home + `'))).* FROM fulfillments f WHERE order_id = '` + o3.ID.String() + `'`,
		`UPDATE fulfillment_items SET fulfillment_id = '` + later.String() + `' WHERE order_item_id = '` + o3.Items[1].ID.String() + `'`,
	} {
		if err := e.app.DB.Exec(q).Error; err != nil {
			t.Fatal(err)
		}
	}
	atHome := level(vs3[0], home)
	receive(o3, map[string]any{})
	if level(vs3[0], shop.ID) != 1 || level(vs3[0], home) != atHome {
		t.Fatalf("shop %d, default location %d → %d: want the unit back at the shop", level(vs3[0], shop.ID), atHome, level(vs3[0], home))
	}

	// A later shipment of the same line from the default location came back
	// to origin (its units are restocked there already): the customer's
	// unit left from the shop, and goes back there.
	o4, vs4 := e.order(t, models.OrderDelivered, 0, lineSpec{qty: 2, lineTotal: 20000})
	fulfil(t, e, o4, models.ShipmentDelivered, time.Now().Add(-48*time.Hour))
	rto := uuid.New()
	for _, q := range []string{
		`UPDATE fulfillments SET location_id = '` + shop.ID + `' WHERE order_id = '` + o4.ID.String() + `'`,
		`INSERT INTO fulfillments SELECT (jsonb_populate_record(NULL::fulfillments, to_jsonb(f) || jsonb_build_object('id', '` + rto.String() +
			`', 'created_at', now(), 'status', '` + models.ShipmentReturnedToOrigin + `', 'location_id', '` + home + `'))).* FROM fulfillments f WHERE order_id = '` + o4.ID.String() + `'`,
		`INSERT INTO fulfillment_items SELECT (jsonb_populate_record(NULL::fulfillment_items, to_jsonb(fi) || jsonb_build_object('id', gen_random_uuid(),
			'fulfillment_id', '` + rto.String() + `'))).* FROM fulfillment_items fi WHERE fi.order_item_id = '` + o4.Items[0].ID.String() + `'`,
	} {
		if err := e.app.DB.Exec(q).Error; err != nil {
			t.Fatal(err)
		}
	}
	atHome = level(vs4[0], home)
	receive(o4, map[string]any{})
	if level(vs4[0], shop.ID) != 1 || level(vs4[0], home) != atHome {
		t.Fatalf("shop %d, default location %d → %d: want the unit back at the shop, not where the RTO'd shipment left from",
			level(vs4[0], shop.ID), atHome, level(vs4[0], home))
	}
}
