package returnapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/models"
)

// cancelledUnder puts order o in the state the fulfilment cancel left
// before that was refused: its only fulfilment cancelled while a return held its
// units, the units back on hand and committed, the order reopened.
func cancelledUnder(t *testing.T, e env, o models.Order, v models.Variant, units int) {
	t.Helper()
	db := e.app.DB
	for _, q := range []string{
		`UPDATE fulfillments SET status = 'cancelled', cancelled_at = now() WHERE order_id = ?`,
		`UPDATE orders SET status = 'processing', fulfillment_status = 'unfulfilled' WHERE id = ?`,
	} {
		if err := db.Exec(q, o.ID).Error; err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Exec(`UPDATE variants SET inventory = inventory + ?, committed = committed + ? WHERE id = ?`, units, units, v.ID).Error; err != nil {
		t.Fatal(err)
	}
}

// A return can never be approved or received for more units than were
// shipped and not cancelled: a return whose fulfilment was cancelled under
// it (before that was refused) is 409 at approval and 400 at receipt,
// and no unit goes back on hand a second time.
func TestReturnBeyondShippedUnitsIsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	recv := func(o models.Order, qty int) map[string]any {
		return map[string]any{"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": qty, "restock": true}}}
	}

	t.Run("approve", func(t *testing.T) {
		o, vs := e.order(t, models.OrderShipped, 0, lineSpec{qty: 2, lineTotal: 20000})
		fulfil(t, e, o, models.ShipmentShipped, time.Now())
		var r returnBody
		e.adminDo(t, "POST", "/orders/"+o.ID.String()+"/returns", map[string]any{"items": []any{item(o, 0, 2)}}).
			Expect(t, http.StatusCreated).JSON(t, &r)
		cancelledUnder(t, e, o, vs[0], 2)
		before := fixtures.Reload(t, e.app.DB, vs[0])
		res := e.adminDo(t, "POST", "/returns/"+r.ID+"/approve", nil).ExpectError(t, http.StatusConflict, "CONFLICT")
		if res.Error.Details["orderItemId"] != o.Items[0].ID.String() || res.Error.Details["shipped"] != float64(0) {
			t.Fatalf("details %v, want the line and its 0 shipped units", res.Error.Details)
		}
		var got models.Return
		e.app.DB.Take(&got, "id = ?", r.ID)
		if got.Status != models.ReturnRequested {
			t.Fatalf("a refused approval left the return %s", got.Status)
		}
		if after := fixtures.Reload(t, e.app.DB, vs[0]); after.Inventory != before.Inventory || after.Committed != before.Committed {
			t.Fatalf("stock moved: %+v → %+v", before, after)
		}
	})

	t.Run("receive", func(t *testing.T) {
		o, vs := e.order(t, models.OrderShipped, 0, lineSpec{qty: 3, lineTotal: 30000})
		fulfil(t, e, o, models.ShipmentShipped, time.Now(), 2)
		fulfil(t, e, o, models.ShipmentDelivered, time.Now(), 1)
		var r returnBody
		e.adminDo(t, "POST", "/orders/"+o.ID.String()+"/returns", map[string]any{"items": []any{item(o, 0, 3)}}).
			Expect(t, http.StatusCreated).JSON(t, &r)
		e.adminDo(t, "POST", "/returns/"+r.ID+"/approve", nil).Expect(t, http.StatusOK)
		// The two-unit parcel is cancelled under the approved return; one
		// delivered unit is all that can come back.
		if err := e.app.DB.Exec(`UPDATE fulfillments f SET status = 'cancelled' FROM fulfillment_items fi
			WHERE fi.fulfillment_id = f.id AND f.order_id = ? AND f.status = 'shipped'`, o.ID).Error; err != nil {
			t.Fatal(err)
		}
		if err := e.app.DB.Exec(`UPDATE variants SET inventory = inventory + 2, committed = committed + 2 WHERE id = ?`, vs[0].ID).Error; err != nil {
			t.Fatal(err)
		}
		before := fixtures.Reload(t, e.app.DB, vs[0])
		res := e.adminDo(t, "POST", "/returns/"+r.ID+"/receive", recv(o, 3)).ExpectField(t, "items[0].quantity")
		if res.Error.Details["receivable"] != float64(1) {
			t.Fatalf("details %v, want 1 receivable unit", res.Error.Details)
		}
		if after := fixtures.Reload(t, e.app.DB, vs[0]); after.Inventory != before.Inventory {
			t.Fatalf("a refused receipt moved on hand %d → %d", before.Inventory, after.Inventory)
		}
		var back returnBody
		e.adminDo(t, "POST", "/returns/"+r.ID+"/receive", recv(o, 1)).Expect(t, http.StatusOK).JSON(t, &back)
		if back.Status != "received" || back.Items[0].RestockedQuantity != 1 {
			t.Fatalf("received %+v", back)
		}
		if after := fixtures.Reload(t, e.app.DB, vs[0]); after.Inventory != before.Inventory+1 {
			t.Fatalf("on hand %d → %d, want the one delivered unit back", before.Inventory, after.Inventory)
		}
	})
}
