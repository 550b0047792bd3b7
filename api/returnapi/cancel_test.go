package returnapi_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// An approved return of a partly fulfilled order that will not come back is
// cancelled: its units may be returned again, no stock moves (the approval
// moved none), the move is audited, and a retry with the same
// Idempotency-Key is answered again without moving twice. A cancel racing a
// receive: exactly one wins, and stock is that of the winner.
func TestCancelApprovedReturn(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	o, vs := e.order(t, models.OrderProcessing, 0, lineSpec{qty: 3, lineTotal: 30000})
	fulfil(t, e, o, models.ShipmentShipped, time.Now(), 2) // 2 of 3 shipped: partly fulfilled
	var before models.Variant
	e.app.DB.Take(&before, "id = ?", vs[0].ID)

	var r returnBody
	e.adminDo(t, "POST", "/orders/"+o.ID.String()+"/returns", map[string]any{"items": []any{item(o, 0, 2)}}).Expect(t, 201).JSON(t, &r)
	e.adminDo(t, "POST", "/returns/"+r.ID+"/approve", nil).Expect(t, 200)
	cancel := func(key string) *testkit.Response {
		return e.app.Do(t, "POST", "/api/v1/admin/returns/"+r.ID+"/cancel", testkit.Req{Token: e.staff,
			Headers: map[string]string{"Idempotency-Key": key}})
	}
	var got returnBody
	cancel("cancel-1").Expect(t, 200).JSON(t, &got)
	if got.Status != models.ReturnCancelled {
		t.Fatalf("after cancel: %+v", got)
	}
	if again := cancel("cancel-1").Expect(t, 200); again.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatalf("a retry with the same key was not replayed: %v", again.Header)
	}
	cancel("cancel-2").ExpectError(t, http.StatusConflict, "CONFLICT")
	var after models.Variant
	e.app.DB.Take(&after, "id = ?", vs[0].ID)
	if after.Inventory != before.Inventory || after.Committed != before.Committed || after.Reserved != before.Reserved {
		t.Fatalf("cancelling moved stock: %+v → %+v", before, after)
	}
	var audited int64
	e.app.DB.Table("admin_audit_logs").Where("action = 'return.cancel' AND entity_id = ?", r.ID).Count(&audited)
	if audited != 1 {
		t.Fatalf("%d audit entries of the cancel", audited)
	}

	// Its two units may be returned again; receive and cancel then race.
	var second returnBody
	e.adminDo(t, "POST", "/orders/"+o.ID.String()+"/returns", map[string]any{"items": []any{item(o, 0, 2)}}).Expect(t, 201).JSON(t, &second)
	e.adminDo(t, "POST", "/returns/"+second.ID+"/approve", nil).Expect(t, 200)
	start := make(chan struct{})
	var wg sync.WaitGroup
	statuses := make([]int, 2)
	began, ended := make([]time.Time, 2), make([]time.Time, 2)
	recv := map[string]any{"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 2, "restock": true}}}
	for i, path := range []string{"/receive", "/cancel"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			var body any
			if path == "/receive" {
				body = recv
			}
			began[i] = time.Now()
			statuses[i] = e.app.Do(t, "POST", "/api/v1/admin/returns/"+second.ID+path, testkit.Req{Token: e.staff, Body: body}).Status
			ended[i] = time.Now()
		}()
	}
	close(start)
	wg.Wait()
	if !began[0].Before(ended[1]) || !began[1].Before(ended[0]) {
		t.Fatalf("receive (%v–%v) and cancel (%v–%v) did not overlap", began[0], ended[0], began[1], ended[1])
	}
	e.app.DB.Take(&after, "id = ?", vs[0].ID)
	switch {
	case statuses[0] == 200 && statuses[1] == 409:
		if after.Inventory != before.Inventory+2 {
			t.Fatalf("received and restocked: on hand %d, want %d", after.Inventory, before.Inventory+2)
		}
	case statuses[0] == 409 && statuses[1] == 200:
		if after.Inventory != before.Inventory {
			t.Fatalf("cancelled: on hand %d, want %d", after.Inventory, before.Inventory)
		}
	default:
		t.Fatalf("receive and cancel answered %v", statuses)
	}
}
