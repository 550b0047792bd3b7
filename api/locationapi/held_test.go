package locationapi_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/models"
)

// A shipment that left a location that does not sell is cancelled after
// the selling stock it freed was sold to other orders: its units go back
// on that shelf, held for their order (the selling pool has none to give),
// so the cancel succeeds and no counter breaks. The held units are not
// sold, transferred or adjusted away; the order ships them from that
// shelf, or ships from a selling location once one has a free unit, and
// the hold ends either way; a cancel of the order ends it too.
func TestShipmentCancelledBackToALocationThatDoesNotSell(t *testing.T) {
	e := newEnv(t)
	def := e.defaultLocation(t)
	back := e.location(t, "BACK", "Karnataka", "", 30, map[string]any{"fulfilsOnline": false})
	p := fixtures.MustProduct(t, e.app.DB, "Kettle", 250000)
	v := fixtures.MustVariant(t, e.app.DB, p.ID, 2)
	e.adjust(t, v.ID, "set", 3, back.ID).Expect(t, http.StatusOK)
	cust := fixtures.MustCustomer(t, e.app.DB, "Ravi")
	order := func(q int) models.Order {
		return fixtures.MustOrder(t, e.app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: q}}})
	}
	path := func(o models.Order) string { return "/api/v1/admin/orders/" + o.ID.String() }

	a := order(1)
	var f fulfillmentBody
	e.ship(t, a, back.ID).Expect(t, http.StatusCreated).JSON(t, &f)
	// The pool's 2 units are free again, and other orders take them.
	e.levelsAre(t, v, map[string]int{def.ID: 2, back.ID: 2}, 2, 0)
	order(2) // another order
	e.levelsAre(t, v, map[string]int{def.ID: 2, back.ID: 2}, 2, 2)

	e.do(t, http.MethodPost, path(a)+"/fulfillments/"+f.ID+"/cancel", nil).Expect(t, http.StatusOK)
	// Back on the shelf and held for a: counted in inventory and committed.
	e.levelsAre(t, v, map[string]int{def.ID: 2, back.ID: 3}, 3, 3)
	if l := e.stock(t, v.ID).at(back.ID); l.Committed != 1 || l.Available != 2 {
		t.Fatalf("back's level: %+v, want 1 committed and 2 available", l)
	}
	// Nothing takes the held unit from the shelf.
	e.adjust(t, v.ID, "set", 0, back.ID).ExpectError(t, http.StatusConflict, "CONFLICT")
	transfer := map[string]any{"fromLocationId": back.ID, "toLocationId": def.ID,
		"items": []any{map[string]any{"variantId": v.ID, "quantity": 3}}}
	e.do(t, http.MethodPost, "/api/v1/admin/inventory/transfers", transfer).ExpectError(t, http.StatusConflict, "CONFLICT")
	// The pool's units are b's: a cannot take one of them.
	e.ship(t, a, def.ID).ExpectError(t, http.StatusConflict, "CONFLICT")
	e.levelsAre(t, v, map[string]int{def.ID: 2, back.ID: 3}, 3, 3)

	// Shipping a from the shelf ends the hold.
	e.ship(t, a, back.ID).Expect(t, http.StatusCreated).JSON(t, &f)
	e.levelsAre(t, v, map[string]int{def.ID: 2, back.ID: 2}, 2, 2)
	heldIs(t, e, 0)

	// Cancelled back again, then shipped from the pool once it has a free
	// unit: the hold ends and the shelf's unit is no longer counted.
	e.do(t, http.MethodPost, path(a)+"/fulfillments/"+f.ID+"/cancel", nil).Expect(t, http.StatusOK)
	heldIs(t, e, 1)
	e.adjust(t, v.ID, "add", 1, def.ID).Expect(t, http.StatusOK)
	e.levelsAre(t, v, map[string]int{def.ID: 3, back.ID: 3}, 4, 3)
	e.ship(t, a, def.ID).Expect(t, http.StatusCreated)
	e.levelsAre(t, v, map[string]int{def.ID: 2, back.ID: 3}, 2, 2)
	heldIs(t, e, 0)

	// A cancelled order releases its held units with its commitment.
	e.adjust(t, v.ID, "add", 1, def.ID).Expect(t, http.StatusOK)
	d := order(1)
	e.ship(t, d, back.ID).Expect(t, http.StatusCreated).JSON(t, &f)
	e.do(t, http.MethodPost, path(d)+"/fulfillments/"+f.ID+"/cancel", nil).Expect(t, http.StatusOK)
	e.levelsAre(t, v, map[string]int{def.ID: 3, back.ID: 3}, 4, 3)
	heldIs(t, e, 1)
	e.do(t, http.MethodPatch, path(d)+"/status", map[string]any{"status": "cancelled"}).Expect(t, http.StatusOK)
	e.levelsAre(t, v, map[string]int{def.ID: 3, back.ID: 3}, 3, 2)
	heldIs(t, e, 0)
	// What reconcile checks: inventory is the selling shelves plus the held units.
	var want int
	if err := e.app.DB.Raw(`SELECT coalesce(sum(CASE WHEN l.is_active AND l.fulfils_online THEN sl.on_hand ELSE sl.held END), 0)
		FROM stock_levels sl JOIN locations l ON l.id = sl.location_id WHERE sl.variant_id = ?`, v.ID).Scan(&want).Error; err != nil {
		t.Fatal(err)
	}
	if want != 3 {
		t.Fatalf("the levels give an inventory of %d, the counter 3", want)
	}
}

// heldIs fails t unless n units are held for orders over all locations
// (the holds and the levels agree).
func heldIs(t *testing.T, e *env, n int) {
	t.Helper()
	var holds, levels int
	if err := e.app.DB.Raw(`SELECT coalesce(sum(quantity), 0) FROM stock_holds`).Scan(&holds).Error; err != nil {
		t.Fatal(err)
	}
	if err := e.app.DB.Raw(`SELECT coalesce(sum(held), 0) FROM stock_levels`).Scan(&levels).Error; err != nil {
		t.Fatal(err)
	}
	if holds != n || levels != n {
		t.Fatalf("%d units held (levels say %d), want %d", holds, levels, n)
	}
}

// An edit that lowers a line, and a cancel of a line's unshipped units,
// end the holds the line no longer needs, and only those.
func TestHeldUnitsFollowTheLineWhenItShrinks(t *testing.T) {
	e := newEnv(t)
	def := e.defaultLocation(t)
	back := e.location(t, "BACK", "Karnataka", "", 30, map[string]any{"fulfilsOnline": false})
	p := fixtures.MustProduct(t, e.app.DB, "Kettle", 250000)
	v := fixtures.MustVariant(t, e.app.DB, p.ID, 0)
	e.adjust(t, v.ID, "set", 4, back.ID).Expect(t, http.StatusOK)
	cust := fixtures.MustCustomer(t, e.app.DB, "Ravi")
	// Shipped from the back room before the pool had any unit; the 4-unit
	// pool later stocked is sold to someone else.
	e.adjust(t, v.ID, "set", 4, def.ID).Expect(t, http.StatusOK)
	o := fixtures.MustOrder(t, e.app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 3}}})
	path := "/api/v1/admin/orders/" + o.ID.String()
	var f fulfillmentBody
	e.ship(t, o, back.ID).Expect(t, http.StatusCreated).JSON(t, &f)
	fixtures.MustOrder(t, e.app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 4}}})
	e.do(t, http.MethodPost, path+"/fulfillments/"+f.ID+"/cancel", nil).Expect(t, http.StatusOK)
	e.levelsAre(t, v, map[string]int{def.ID: 4, back.ID: 4}, 7, 7)
	heldIs(t, e, 3)

	// 3 → 2 units: one hold ends, one unit of the shelf is free again.
	e.do(t, http.MethodPost, path+"/edits", map[string]any{"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 2}},
		"refund": false}).Expect(t, http.StatusOK)
	e.levelsAre(t, v, map[string]int{def.ID: 4, back.ID: 4}, 6, 6)
	heldIs(t, e, 2)

	// The rest cancelled: no hold is left, and the counters are the pool's.
	e.do(t, http.MethodPost, path+"/unfulfilled-items/cancel", map[string]any{"note": "customer asked"}).Expect(t, http.StatusOK)
	e.levelsAre(t, v, map[string]int{def.ID: 4, back.ID: 4}, 4, 4)
	heldIs(t, e, 0)
}
