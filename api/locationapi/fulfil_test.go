package locationapi_test

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// A fulfilment without locationId takes the active location with the lowest
// priority number holding all its units; a named one must hold them all;
// none able: 409 naming the short units. The units leave that location.
func TestFulfillmentFromALocation(t *testing.T) {
	e := newEnv(t)
	def := e.defaultLocation(t)
	near := e.location(t, "NEAR", "Karnataka", "", 1, nil)
	far := e.location(t, "FAR", "Karnataka", "", 50, nil)
	p := fixtures.MustProduct(t, e.app.DB, "Kettle", 250000)
	v := fixtures.MustVariant(t, e.app.DB, p.ID, 2)
	e.adjust(t, v.ID, "set", 1, near.ID).Expect(t, http.StatusOK)
	e.adjust(t, v.ID, "set", 5, far.ID).Expect(t, http.StatusOK)
	cust := fixtures.MustCustomer(t, e.app.DB, "Ravi")
	order := func(q int) models.Order {
		return fixtures.MustOrder(t, e.app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: q}}})
	}
	// 2 units: near (priority 1) holds 1; the default (priority 0) holds 2.
	a := order(2)
	var f fulfillmentBody
	e.ship(t, a, "").Expect(t, http.StatusCreated).JSON(t, &f)
	if f.LocationID != def.ID {
		t.Fatalf("shipped from %s, want the default location %s", f.LocationID, def.ID)
	}
	e.levelsAre(t, v, map[string]int{def.ID: 0, near.ID: 1, far.ID: 5}, 6, 0)
	// 3 units: only far holds them.
	b := order(3)
	e.ship(t, b, "").Expect(t, http.StatusCreated).JSON(t, &f)
	if f.LocationID != far.ID {
		t.Fatalf("shipped from %s, want far %s", f.LocationID, far.ID)
	}
	e.levelsAre(t, v, map[string]int{far.ID: 2, near.ID: 1}, 3, 0)
	// Named: near holds 1 of 2.
	c := order(2)
	er := e.ship(t, c, near.ID).ExpectError(t, http.StatusConflict, "CONFLICT")
	short, _ := er.Error.Details["short"].([]any)
	if len(short) != 1 || short[0].(map[string]any)["variantId"] != v.ID.String() || short[0].(map[string]any)["onHand"] != 1.0 {
		t.Fatalf("409 details: %v", er.Error.Details)
	}
	e.ship(t, c, far.ID).Expect(t, http.StatusCreated)
	e.levelsAre(t, v, map[string]int{far.ID: 0, near.ID: 1}, 1, 0)
	// Near and far hold 1 each: no location holds 2; 409 naming the unit.
	e.adjust(t, v.ID, "add", 1, far.ID).Expect(t, http.StatusOK)
	d := order(2)
	er = e.ship(t, d, "").ExpectError(t, http.StatusConflict, "CONFLICT")
	if short, _ := er.Error.Details["short"].([]any); len(short) != 1 || short[0].(map[string]any)["mostAtOneLocation"] != 1.0 {
		t.Fatalf("409 details: %v", er.Error.Details)
	}
	// A location whose units orders need cannot stop selling.
	e.do(t, http.MethodPatch, locationsPath+"/"+near.ID, map[string]any{"isActive": false}).Expect(t, http.StatusConflict)
}

// Many fulfilments of different orders from one location that holds units
// for only some of them: the location never goes below zero, exactly as
// many ship as it can supply, the others get 409, counters exact.
func TestConcurrentFulfillmentsFromOneLocation(t *testing.T) {
	e := newEnv(t)
	def := e.defaultLocation(t)
	wh := e.location(t, "WH", "Karnataka", "", 1, nil)
	p := fixtures.MustProduct(t, e.app.DB, "Rug", 450000)
	v := fixtures.MustVariant(t, e.app.DB, p.ID, 0)
	e.adjust(t, v.ID, "set", 5, wh.ID).Expect(t, http.StatusOK)
	e.adjust(t, v.ID, "set", 20, def.ID).Expect(t, http.StatusOK)
	cust := fixtures.MustCustomer(t, e.app.DB, "Neha")
	const n = 8
	orders := make([]models.Order, n)
	for i := range orders {
		orders[i] = fixtures.MustOrder(t, e.app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})
	}
	e.levelsAre(t, v, nil, 25, 16)
	answers := make([]*testkit.Response, n)
	met := testkit.HoldRow(t, e.app.DatabaseURL, "variants", v.ID, n, 20*time.Second)
	testkit.Race(t, n, func(i int) { answers[i] = e.ship(t, orders[i], wh.ID) })
	if !met() {
		t.Fatalf("the %d requests were never all waiting at once", n)
	}
	created := 0
	var wrong []string
	for _, a := range answers {
		switch a.Status {
		case http.StatusCreated:
			created++
		case http.StatusConflict:
		default:
			wrong = append(wrong, fmt.Sprintf("%d %s", a.Status, a.Body))
		}
	}
	if created != 2 || len(wrong) > 0 {
		t.Fatalf("%d shipped from a location holding 5 units for orders of 2 (want 2); other answers %v", created, wrong)
	}
	e.levelsAre(t, v, map[string]int{wh.ID: 1, def.ID: 20}, 21, 12)
}

// A transfer and a fulfilment race for the same units of one location: one
// wins, the other is refused, and every counter is exact.
func TestTransferAndFulfillmentRace(t *testing.T) {
	e := newEnv(t)
	def := e.defaultLocation(t)
	wh := e.location(t, "WH", "Karnataka", "", 1, nil)
	p := fixtures.MustProduct(t, e.app.DB, "Chair", 350000)
	v := fixtures.MustVariant(t, e.app.DB, p.ID, 0)
	cust := fixtures.MustCustomer(t, e.app.DB, "Kiran")
	for round := 0; round < 6; round++ {
		e.adjust(t, v.ID, "set", 3, wh.ID).Expect(t, http.StatusOK)
		e.adjust(t, v.ID, "set", 3, def.ID).Expect(t, http.StatusOK)
		o := fixtures.MustOrder(t, e.app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 3}}})
		answers := make([]*testkit.Response, 2)
		testkit.Together(t, 2, func(i int) {
			if i == 0 {
				answers[i] = e.ship(t, o, wh.ID)
				return
			}
			answers[i] = e.do(t, http.MethodPost, "/api/v1/admin/inventory/transfers", map[string]any{
				"fromLocationId": wh.ID, "toLocationId": def.ID, "items": []map[string]any{{"variantId": v.ID, "quantity": 3}}})
		})
		shipped, moved := answers[0].Status == http.StatusCreated, answers[1].Status == http.StatusCreated
		if shipped == moved {
			t.Fatalf("round %d: fulfilment %d %s, transfer %d %s: want exactly one to win", round,
				answers[0].Status, answers[0].Body, answers[1].Status, answers[1].Body)
		}
		for _, a := range answers {
			if a.Status != http.StatusCreated && a.Status != http.StatusConflict {
				t.Fatalf("round %d: loser answered %d %s, want 409", round, a.Status, a.Body)
			}
		}
		if shipped {
			e.levelsAre(t, v, map[string]int{wh.ID: 0, def.ID: 3}, 3, 0)
		} else {
			// The units left for the default location; the order still needs 3
			// and the default location has 3: it ships from there.
			e.levelsAre(t, v, map[string]int{wh.ID: 0, def.ID: 3}, 3, 3)
			var f fulfillmentBody
			e.ship(t, o, "").Expect(t, http.StatusCreated).JSON(t, &f)
			if f.LocationID != def.ID {
				t.Fatalf("shipped from %s", f.LocationID)
			}
			e.levelsAre(t, v, map[string]int{def.ID: 0}, 0, 0)
		}
		var open []struct{ ID string }
		e.app.DB.Raw(`SELECT id FROM stock_transfers WHERE status = 'in_transit'`).Scan(&open)
		for _, tr := range open {
			e.do(t, http.MethodPost, "/api/v1/admin/inventory/transfers/"+tr.ID+"/cancel", nil).Expect(t, http.StatusOK)
		}
	}
	var negative int64
	e.app.DB.Raw(`SELECT count(*) FROM stock_levels WHERE on_hand < 0`).Scan(&negative)
	if negative != 0 {
		t.Fatal("a level below zero")
	}
}
