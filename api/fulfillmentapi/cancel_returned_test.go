package fulfillmentapi_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// openReturn opens an administrator's return of qty units of line and
// returns its id.
func openReturn(t *testing.T, app *testkit.App, token string, o models.Order, line uuid.UUID, qty int) string {
	t.Helper()
	var r struct{ ID string }
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/returns", testkit.Req{Token: token, Body: map[string]any{
		"items": []any{map[string]any{"orderItemId": line, "quantity": qty, "reason": "other"}}}}).
		Expect(t, http.StatusCreated).JSON(t, &r)
	return r.ID
}

// returnPath is the admin path of a move of return id.
func returnPath(id, verb string) string { return "/api/v1/admin/returns/" + id + "/" + verb }

// Phantom stock: 12 on hand, 2 shipped, an administrator's return
// of both, then the fulfilment cancelled and the return received with
// restock put 14 on the books with 12 on the shelf. The cancel is refused
// while the units are in the return (409 naming it), whatever its status,
// and the return then brings them back once: 12 on hand.
func TestFulfillmentCancelRefusedWhileItsUnitsAreInAReturn(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	p := fixtures.MustProduct(t, app.DB, "Lamp", 180000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 12)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "Kiran"),
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})
	line := o.Items[0].ID
	f := ship(t, app, token, o, nil, nil)
	stockIs(t, app, v, 10, 0, 10)

	rid := openReturn(t, app, token, o, line, 2)
	refused := func(status string) {
		t.Helper()
		e := fulfillmentAction(t, app, token, o, f.ID, "cancel").ExpectError(t, http.StatusConflict, "CONFLICT")
		if e.Error.Details["returnId"] != rid || !strings.Contains(e.Error.Message, rid) {
			t.Fatalf("cancel with the units in a %s return: %+v, want the return %s named", status, e.Error, rid)
		}
		var got models.Fulfillment
		app.DB.Take(&got, "id = ?", f.ID)
		if got.Status != models.ShipmentShipped {
			t.Fatalf("a refused cancel left the fulfilment %s", got.Status)
		}
	}
	refused("requested")
	stockIs(t, app, v, 10, 0, 10)
	app.Do(t, "POST", returnPath(rid, "approve"), testkit.Req{Token: token}).Expect(t, 200)
	refused("approved")
	app.Do(t, "POST", returnPath(rid, "receive"), testkit.Req{Token: token, Body: map[string]any{
		"items": []any{map[string]any{"orderItemId": line, "quantity": 2, "restock": true}}}}).Expect(t, 200)
	refused("received")
	stockIs(t, app, v, 12, 0, 12)
	orderIs(t, app, o, "shipped", "fulfilled")
}

// A return that let go of its units (rejected, or received with fewer
// units than asked) no longer holds the fulfilment: it may be cancelled,
// and a unit delivered by another fulfilment of the line does not hold it
// either.
func TestFulfillmentCancelAllowedOnceTheReturnLetsGo(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	p := fixtures.MustProduct(t, app.DB, "Rug", 90000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "Uma"),
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 4}}})
	line := o.Items[0].ID
	delivered := ship(t, app, token, o, map[uuid.UUID]int{line: 2}, nil)
	fulfillmentAction(t, app, token, o, delivered.ID, "deliver").Expect(t, 200)
	inTransit := ship(t, app, token, o, map[uuid.UUID]int{line: 2}, nil)
	stockIs(t, app, v, 6, 0, 6)

	// Two units in a return: the two delivered ones can account for them.
	rid := openReturn(t, app, token, o, line, 2)
	// A third would have to come from the parcel in transit.
	rid3 := openReturn(t, app, token, o, line, 1)
	e := fulfillmentAction(t, app, token, o, inTransit.ID, "cancel").ExpectError(t, http.StatusConflict, "CONFLICT")
	if ids, _ := e.Error.Details["returnIds"].([]any); len(ids) != 2 {
		t.Fatalf("details %v, want both live returns of the line named", e.Error.Details)
	}
	app.Do(t, "POST", returnPath(rid3, "reject"), testkit.Req{Token: token, Body: map[string]any{"reason": "never sent"}}).Expect(t, 200)
	app.Do(t, "POST", returnPath(rid, "approve"), testkit.Req{Token: token}).Expect(t, 200)
	fulfillmentAction(t, app, token, o, inTransit.ID, "cancel").Expect(t, 200)
	stockIs(t, app, v, 8, 2, 6)
	orderIs(t, app, o, "processing", "partially_fulfilled")

	// The return still holds two units of the two that are out: it is received.
	app.Do(t, "POST", returnPath(rid, "receive"), testkit.Req{Token: token, Body: map[string]any{
		"items": []any{map[string]any{"orderItemId": line, "quantity": 2, "restock": true}}}}).Expect(t, 200)
	stockIs(t, app, v, 10, 2, 8)
}

// The parcel that never arrived, handled two ways by two staff members at
// once: one cancels the fulfilment (its units back on hand), the other
// opens a return of its units (received with restock later), or receives
// the return already approved. Each request starts behind one barrier and
// all are in flight together (another change of the order holds its row
// until every one waits); whatever the order, exactly one path takes the
// units back, and on hand ends where it started.
func TestUndeliveredParcelHandledTwoWaysAtOnce(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, cancelling := testkit.MustAdmin(t, app, string(rbac.Staff))
	_, returning := testkit.MustAdmin(t, app, string(rbac.Staff))
	p := fixtures.MustProduct(t, app.DB, "Vase", 70000)
	cust := fixtures.MustCustomer(t, app.DB, "Dev")
	const n = 6 // half cancel, half take the return path
	parcel := func(t *testing.T) (models.Variant, models.Order, fulfillmentBody) {
		v := fixtures.MustVariant(t, app.DB, p.ID, 12)
		o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})
		f := ship(t, app, cancelling, o, nil, map[string]any{"notifyCustomer": false})
		stockIs(t, app, v, 10, 0, 10)
		return v, o, f
	}
	receive := func(t *testing.T, o models.Order, rid string) *testkit.Response {
		return app.Do(t, "POST", returnPath(rid, "receive"), testkit.Req{Token: returning, Body: map[string]any{
			"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 2, "restock": true}}}})
	}

	for round := range 3 {
		t.Run("cancel or open a return", func(t *testing.T) {
			v, o, f := parcel(t)
			statuses := make([]int, n)
			var rid string
			met := testkit.HoldRow(t, app.DatabaseURL, "orders", o.ID, n, 20*time.Second)
			testkit.Race(t, n, func(i int) {
				if i%2 == 0 {
					statuses[i] = fulfillmentAction(t, app, cancelling, o, f.ID, "cancel").Status
					return
				}
				res := app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/returns", testkit.Req{Token: returning,
					Body: map[string]any{"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 2, "reason": "other"}}}})
				if statuses[i] = res.Status; res.Status == http.StatusCreated {
					rid = res.Map(t)["id"].(string)
				}
			})
			if !met() {
				t.Fatalf("round %d: the %d requests were never all waiting at once", round, n)
			}
			won := 0
			for i, s := range statuses {
				switch {
				case i%2 == 0 && s == http.StatusOK, i%2 == 1 && s == http.StatusCreated:
					won++
				case i%2 == 0 && s == http.StatusConflict, i%2 == 1 && s == http.StatusBadRequest:
				default:
					t.Fatalf("round %d: unexpected status %d of request %d: %v", round, s, i, statuses)
				}
			}
			if won != 1 {
				t.Fatalf("round %d: %d requests took the parcel back, want exactly 1: %v", round, won, statuses)
			}
			if rid == "" { // the cancel won: the units are back and committed again
				stockIs(t, app, v, 12, 2, 10)
				return
			}
			app.Do(t, "POST", returnPath(rid, "approve"), testkit.Req{Token: returning}).Expect(t, 200)
			receive(t, o, rid).Expect(t, 200)
			fulfillmentAction(t, app, cancelling, o, f.ID, "cancel").ExpectError(t, http.StatusConflict, "CONFLICT")
			stockIs(t, app, v, 12, 0, 12)
		})
	}

	t.Run("cancel or receive the approved return", func(t *testing.T) {
		v, o, f := parcel(t)
		rid := openReturn(t, app, returning, o, o.Items[0].ID, 2)
		app.Do(t, "POST", returnPath(rid, "approve"), testkit.Req{Token: returning}).Expect(t, 200)
		statuses := make([]int, n)
		met := testkit.HoldRow(t, app.DatabaseURL, "orders", o.ID, n, 20*time.Second)
		testkit.Race(t, n, func(i int) {
			if i%2 == 0 {
				statuses[i] = fulfillmentAction(t, app, cancelling, o, f.ID, "cancel").Status
			} else {
				statuses[i] = receive(t, o, rid).Status
			}
		})
		if !met() {
			t.Fatalf("the %d requests were never all waiting at once", n)
		}
		received := 0
		for i, s := range statuses {
			switch {
			case i%2 == 1 && s == http.StatusOK:
				received++
			case s == http.StatusConflict:
			default:
				t.Fatalf("unexpected status %d of request %d: %v", s, i, statuses)
			}
		}
		if received != 1 {
			t.Fatalf("%d receives, want exactly 1 and no cancel: %v", received, statuses)
		}
		stockIs(t, app, v, 12, 0, 12)
		orderIs(t, app, o, "shipped", "fulfilled")
	})
}
