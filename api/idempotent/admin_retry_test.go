package idempotent_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

// defaultLocation is the id of the default stock location.
func defaultLocation(t *testing.T, app *testkit.App) string {
	t.Helper()
	var id string
	if err := app.DB.Raw(`SELECT id FROM locations WHERE is_default`).Scan(&id).Error; err != nil || id == "" {
		t.Fatalf("no default location: %v", err)
	}
	return id
}

// A stock transfer whose process died after it committed is not sent
// again by the retry that takes its key over: the retry answers with the
// transfer made, and its units leave the source once.
func TestTransferRetriedAfterACrashMovesOnce(t *testing.T) {
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	from := defaultLocation(t, app)
	to := app.Do(t, http.MethodPost, "/api/v1/admin/locations", testkit.Req{Token: token, Body: map[string]any{
		"name": "Back store", "code": "BACK", "priority": 20, "fulfilsOnline": false,
		"address": map[string]any{"line1": "1 Dock Road", "city": "Somewhere", "state": "Karnataka", "pincode": "400001"}}}).
		Expect(t, http.StatusCreated).Map(t)["id"]
	p := fixtures.MustProduct(t, app.DB, "Shawl "+uuid.NewString()[:6], 120000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	path := "/api/v1/admin/inventory/transfers"
	r := keyed(testkit.Req{Token: token}, "transfer-"+v.ID.String(), map[string]any{"fromLocationId": from, "toLocationId": to,
		"items": []any{map[string]any{"variantId": v.ID, "quantity": 2}}})

	first := app.Do(t, http.MethodPost, path, r).Expect(t, http.StatusCreated).Map(t)
	retry := takenOver(t, app, http.MethodPost, path, r, http.StatusCreated)
	if retry["id"] != first["id"] || retry["status"] != "in_transit" {
		t.Fatalf("the retry answered transfer %v (%v), the first run made %v", retry["id"], retry["status"], first["id"])
	}
	if n := count(t, app, `SELECT count(*) FROM stock_transfers`); n != 1 {
		t.Fatalf("%d transfers", n)
	}
	if n := count(t, app, `SELECT on_hand FROM stock_levels WHERE variant_id = ? AND location_id = ?`, v.ID, from); n != 8 {
		t.Fatalf("%d on hand at the source: want 2 units sent once", n)
	}
	if got := fixtures.Reload(t, app.DB, v); got.Inventory != 8 {
		t.Fatalf("inventory %d: want 8", got.Inventory)
	}
}

// A signed inventory adjustment whose process died after it committed is
// not applied again by the retry: the units are added once and the retry
// answers with the variant as the adjustment left it. The PATCH of the
// same change (add) is guarded the same way.
func TestInventoryAdjustRetriedAfterACrashAddsOnce(t *testing.T) {
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	p := fixtures.MustProduct(t, app.DB, "Lamp "+uuid.NewString()[:6], 50000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	base := "/api/v1/admin/variants/" + v.ID.String() + "/inventory"
	for _, c := range []struct {
		name, method, path string
		body               map[string]any
		want               int
	}{
		{"adjust", http.MethodPost, base + "/adjust", map[string]any{"adjustment": 5, "reason": "stock count"}, 15},
		{"patch", http.MethodPatch, base, map[string]any{"operation": "subtract", "inventory": 3}, 12},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := keyed(testkit.Req{Token: token}, "adjust-"+c.name, c.body)
			first := app.Do(t, c.method, c.path, r).Expect(t, http.StatusOK).Map(t)
			retry := takenOver(t, app, c.method, c.path, r, http.StatusOK)
			if retry["inventory"] != first["inventory"] || retry["inventory"] != float64(c.want) {
				t.Fatalf("the retry answered inventory %v, the first %v: want %d", retry["inventory"], first["inventory"], c.want)
			}
			if got := fixtures.Reload(t, app.DB, v); got.Inventory != c.want {
				t.Fatalf("inventory %d: want %d, the change made once", got.Inventory, c.want)
			}
		})
	}
	if n := count(t, app, `SELECT count(*) FROM admin_audit_logs WHERE action = 'inventory.update'`); n != 2 {
		t.Fatalf("%d audit entries: want one per change", n)
	}
}

// An order edit adding a line whose process died after it committed is not
// applied again by the retry: one edit, one added line, its units
// committed once, and the retry answers with the edit made.
func TestOrderEditRetriedAfterACrashAddsOnce(t *testing.T) {
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Admin))
	o, _ := shopOrder(t, app)
	p := fixtures.MustProduct(t, app.DB, "Cup "+uuid.NewString()[:6], 50000)
	w := fixtures.MustVariant(t, app.DB, p.ID, 5)
	path := "/api/v1/admin/orders/" + o.ID.String() + "/edits"
	r := keyed(testkit.Req{Token: token}, "edit-"+o.ID.String(), map[string]any{"note": "customer called",
		"add": []any{map[string]any{"variantId": w.ID, "quantity": 2}}})

	first := app.Do(t, http.MethodPost, path, r).Expect(t, http.StatusOK).Map(t)
	retry := takenOver(t, app, http.MethodPost, path, r, http.StatusOK)
	if retry["editId"] == nil || retry["editId"] != first["editId"] || retry["difference"] != first["difference"] ||
		retry["balanceDue"] != first["balanceDue"] {
		t.Fatalf("the retry answered edit %v (difference %v, balance %v), the first %v (%v, %v)", retry["editId"],
			retry["difference"], retry["balanceDue"], first["editId"], first["difference"], first["balanceDue"])
	}
	if lines, _ := retry["lines"].([]any); len(lines) != 1 {
		t.Fatalf("the retry's lines: %v", retry["lines"])
	}
	if n := count(t, app, `SELECT count(*) FROM order_edits WHERE order_id = ?`, o.ID); n != 1 {
		t.Fatalf("%d edits", n)
	}
	if n := count(t, app, `SELECT count(*) FROM order_items WHERE order_id = ?`, o.ID); n != 2 {
		t.Fatalf("%d order lines: want the added line once", n)
	}
	if got := fixtures.Reload(t, app.DB, w); got.Committed != 2 {
		t.Fatalf("%d units committed of the added variant: want 2", got.Committed)
	}
	if n := count(t, app, `SELECT count(*) FROM admin_audit_logs WHERE action = 'order.edit'`); n != 1 {
		t.Fatalf("%d audit entries", n)
	}
}
