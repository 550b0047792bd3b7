package locationapi_test

import (
	"net/http"
	"reflect"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// The upgrade's default location is in the store's state and holds every
// variant's units; locations are created, read, changed and deleted with
// their rules: a checked GSTIN of their own state, a unique code, the
// default location always selling, and no delete while it holds stock.
func TestLocationsCRUD(t *testing.T) {
	e := newEnv(t)
	def := e.defaultLocation(t)
	if def.Address.State != "Karnataka" || !def.IsActive || !def.FulfilsOnline || def.GSTIN != nil {
		t.Fatalf("default location: %+v", def)
	}
	mh := gstinOf("27", "AAPFU0939F")
	l := e.location(t, "MUM", "maharashtra", mh, 20, nil)
	if l.Address.State != "Maharashtra" || l.GSTIN == nil || *l.GSTIN != mh || !l.IsActive || !l.FulfilsOnline || l.IsDefault {
		t.Fatalf("created: %+v", l)
	}
	for _, tc := range []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"gstin of another state", map[string]any{"name": "X", "code": "X1", "gstin": gstinOf("29", "AAPFU0939F"),
			"address": map[string]any{"state": "Maharashtra"}}, "gstin"},
		{"bad check character", map[string]any{"name": "X", "code": "X1", "gstin": mh[:14] + "A",
			"address": map[string]any{"state": "Maharashtra"}}, "gstin"},
		{"unknown state", map[string]any{"name": "X", "code": "X1", "address": map[string]any{"state": "Atlantis"}}, "address.state"},
		{"bad code", map[string]any{"name": "X", "code": "a b", "address": map[string]any{"state": "Goa"}}, "code"},
		{"missing address", map[string]any{"name": "X", "code": "X1"}, "address"},
		{"default", map[string]any{"name": "X", "code": "X1", "isDefault": true, "address": map[string]any{"state": "Goa"}}, "isDefault"},
		{"negative priority", map[string]any{"name": "X", "code": "X1", "priority": -1, "address": map[string]any{"state": "Goa"}}, "priority"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e.bad(t, http.MethodPost, locationsPath, tc.body).ExpectField(t, tc.field)
		})
	}
	e.do(t, http.MethodPost, locationsPath, map[string]any{"name": "Again", "code": "MUM",
		"address": map[string]any{"state": "Goa"}}).ExpectError(t, http.StatusConflict, "CONFLICT")

	var got locationBody
	e.do(t, http.MethodPatch, locationsPath+"/"+l.ID, map[string]any{"name": "Mumbai", "priority": 5, "gstin": nil}).
		Expect(t, http.StatusOK).JSON(t, &got)
	if got.Name != "Mumbai" || got.Priority != 5 || got.GSTIN != nil {
		t.Fatalf("patched: %+v", got)
	}
	e.do(t, http.MethodGet, locationsPath+"/"+l.ID, nil).Expect(t, http.StatusOK).JSON(t, &got)
	if got.Name != "Mumbai" {
		t.Fatalf("read back: %+v", got)
	}
	// The default location always sells and keeps the store's state.
	e.do(t, http.MethodPatch, locationsPath+"/"+def.ID, map[string]any{"isActive": false}).ExpectError(t, http.StatusConflict, "CONFLICT")
	e.do(t, http.MethodPatch, locationsPath+"/"+def.ID, map[string]any{"address": map[string]any{"state": "Goa"}}).
		ExpectError(t, http.StatusConflict, "CONFLICT")
	e.do(t, http.MethodDelete, locationsPath+"/"+def.ID, nil).ExpectError(t, http.StatusConflict, "CONFLICT")

	// Holding stock: 409; once it holds none, deleted.
	p := fixtures.MustProduct(t, e.app.DB, "Lamp", 150000)
	v := fixtures.MustVariant(t, e.app.DB, p.ID, 3)
	e.adjust(t, v.ID, "add", 2, l.ID).Expect(t, http.StatusOK)
	er := e.do(t, http.MethodDelete, locationsPath+"/"+l.ID, nil).ExpectError(t, http.StatusConflict, "CONFLICT")
	if er.Error.Details["unitsOnHand"] != 2.0 {
		t.Fatalf("409 details: %v", er.Error.Details)
	}
	e.adjust(t, v.ID, "subtract", 2, l.ID).Expect(t, http.StatusOK)
	e.do(t, http.MethodDelete, locationsPath+"/"+l.ID, nil).Expect(t, http.StatusNoContent)
	e.do(t, http.MethodGet, locationsPath+"/"+l.ID, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	e.levelsAre(t, v, map[string]int{def.ID: 3}, 3, 0)
}

// Units at a location that sells online are part of the variant's
// inventory (what checkout sells); those at one that does not are counted
// in its level only, and move in and out as it starts or stops selling,
// never below what orders need.
func TestStockAtLocations(t *testing.T) {
	e := newEnv(t)
	def := e.defaultLocation(t)
	shop := e.location(t, "SHOP", "Karnataka", "", 10, nil)
	store := e.location(t, "BACK", "Karnataka", "", 30, map[string]any{"fulfilsOnline": false})
	p := fixtures.MustProduct(t, e.app.DB, "Vase", 90000)
	v := fixtures.MustVariant(t, e.app.DB, p.ID, 4)
	e.levelsAre(t, v, map[string]int{def.ID: 4, shop.ID: 0, store.ID: 0}, 4, 0)

	e.adjust(t, v.ID, "add", 6, shop.ID).Expect(t, http.StatusOK)
	e.adjust(t, v.ID, "set", 20, store.ID).Expect(t, http.StatusOK)
	e.levelsAre(t, v, map[string]int{def.ID: 4, shop.ID: 6, store.ID: 20}, 10, 0)
	s := e.stock(t, v.ID)
	if s.Total.OnHand != 30 || s.Total.Available != 10 {
		t.Fatalf("totals: %+v", s.Total)
	}
	// Without locationId: the default location.
	e.adjust(t, v.ID, "subtract", 1, "").Expect(t, http.StatusOK)
	e.levelsAre(t, v, map[string]int{def.ID: 3}, 9, 0)
	// Not below zero at a location, whatever the others hold.
	e.adjust(t, v.ID, "subtract", 7, shop.ID).ExpectError(t, http.StatusConflict, "CONFLICT")
	e.bad(t, http.MethodPatch, "/api/v1/admin/variants/"+v.ID.String()+"/inventory",
		map[string]any{"operation": "add", "inventory": 1, "locationId": "00000000-0000-4000-8000-000000000000"}).ExpectField(t, "locationId")

	// An order commits 8 of the 9 units that sell.
	cust := fixtures.MustCustomer(t, e.app.DB, "Asha")
	fixtures.MustOrder(t, e.app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 8}}})
	e.levelsAre(t, v, nil, 9, 8)
	s = e.stock(t, v.ID)
	// The shop's 6 are needed but for the 3 the default location holds: 5.
	if l := s.at(shop.ID); l.Committed != 5 || l.Available != 1 {
		t.Fatalf("shop level: %+v", l)
	}
	// The shop cannot stop selling: its units are needed.
	e.do(t, http.MethodPatch, locationsPath+"/"+shop.ID, map[string]any{"isActive": false}).ExpectError(t, http.StatusConflict, "CONFLICT")
	// The back store starts selling: its 20 units join the inventory.
	e.do(t, http.MethodPatch, locationsPath+"/"+store.ID, map[string]any{"fulfilsOnline": true}).Expect(t, http.StatusOK)
	e.levelsAre(t, v, map[string]int{store.ID: 20}, 29, 8)
	// Now the shop may stop: the others cover the order.
	e.do(t, http.MethodPatch, locationsPath+"/"+shop.ID, map[string]any{"isActive": false}).Expect(t, http.StatusOK)
	e.levelsAre(t, v, map[string]int{shop.ID: 6}, 23, 8)
}

// The inventory overview of one location counts its units: in stock where
// its units exceed what only it can give to orders, low at or below the
// threshold, valued at its units.
func TestInventoryOverviewOfALocation(t *testing.T) {
	e := newEnv(t)
	shop := e.location(t, "SHOP", "Karnataka", "", 10, nil)
	p := fixtures.MustProduct(t, e.app.DB, "Plate", 10000)
	a := fixtures.MustVariant(t, e.app.DB, p.ID, 0)
	b := fixtures.MustVariant(t, e.app.DB, p.ID, 0)
	e.adjust(t, a.ID, "set", 20, shop.ID).Expect(t, http.StatusOK)
	e.adjust(t, b.ID, "set", 2, shop.ID).Expect(t, http.StatusOK)
	var o struct {
		TotalVariants, InStockVariants, OutOfStockVariants, LowStockVariants int64
		TotalValue                                                           float64
		ReservedInventory                                                    struct{ ByOrder int64 }
	}
	e.do(t, http.MethodGet, "/api/v1/admin/inventory/overview?locationId="+shop.ID, nil).Expect(t, http.StatusOK).JSON(t, &o)
	if o.InStockVariants != 2 || o.LowStockVariants != 1 || o.TotalValue != 2200 {
		t.Fatalf("overview of the shop: %+v", o)
	}
	cust := fixtures.MustCustomer(t, e.app.DB, "Gita")
	fixtures.MustOrder(t, e.app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: b, Qty: 2}}})
	e.do(t, http.MethodGet, "/api/v1/admin/inventory/overview?locationId="+shop.ID, nil).Expect(t, http.StatusOK).JSON(t, &o)
	if o.InStockVariants != 1 || o.ReservedInventory.ByOrder != 2 {
		t.Fatalf("overview with b's units needed by an order: %+v", o)
	}
	e.bad(t, http.MethodGet, "/api/v1/admin/inventory/overview?locationId=nope", nil).ExpectField(t, "locationId")
}

// The products report's inventory alerts of one location list the variants
// whose units there, less what only it can give to orders, are at or below
// their threshold: a variant low at one location is no alert at the other.
func TestInventoryAlertsOfALocation(t *testing.T) {
	e := newEnv(t)
	def := e.defaultLocation(t)
	shop := e.location(t, "SHOP", "Karnataka", "", 10, nil)
	p := fixtures.MustProduct(t, e.app.DB, "Bowl", 10000)
	a := fixtures.MustVariant(t, e.app.DB, p.ID, 0)
	b := fixtures.MustVariant(t, e.app.DB, p.ID, 0)
	for _, s := range []struct {
		v   models.Variant
		n   int
		loc string
	}{{a, 20, def.ID}, {a, 3, shop.ID}, {b, 5, def.ID}, {b, 15, shop.ID}} {
		e.adjust(t, s.v.ID, "set", s.n, s.loc).Expect(t, http.StatusOK)
	}
	// 19 of a's 23 units go to an order: the shop's 3 leave 16 the default
	// location alone can cover, so 4 are available there.
	cust := fixtures.MustCustomer(t, e.app.DB, "Ravi")
	fixtures.MustOrder(t, e.app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: a, Qty: 19}}})

	type alert struct {
		VariantID    string `json:"variantId"`
		SKU          string `json:"sku"`
		CurrentStock int    `json:"currentStock"`
		Threshold    int    `json:"threshold"`
	}
	alertsOf := func(t *testing.T, query string) []alert {
		t.Helper()
		var rep struct {
			InventoryAlerts []alert `json:"inventoryAlerts"`
		}
		e.do(t, http.MethodGet, "/api/v1/admin/analytics/products"+query, nil).Expect(t, http.StatusOK).JSON(t, &rep)
		return rep.InventoryAlerts
	}
	for _, tc := range []struct {
		name, query string
		want        []alert
	}{
		{"default location", "?locationId=" + def.ID,
			[]alert{{a.ID.String(), a.SKU, 4, 10}, {b.ID.String(), b.SKU, 5, 10}}},
		{"shop", "?locationId=" + shop.ID, []alert{{a.ID.String(), a.SKU, 3, 10}}},
		{"every location", "", []alert{{a.ID.String(), a.SKU, 4, 10}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := alertsOf(t, tc.query); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("alerts %+v, want %+v", got, tc.want)
			}
		})
	}
	e.do(t, http.MethodGet, "/api/v1/admin/analytics/products?locationId="+uuid.NewString(), nil).
		ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	e.bad(t, http.MethodGet, "/api/v1/admin/analytics/products?locationId=nope", nil).ExpectField(t, "locationId")
}
