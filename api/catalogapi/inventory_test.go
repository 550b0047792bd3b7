package catalogapi_test

import (
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

func TestAdjustInventory(t *testing.T) {
	e := newEnv(t)
	p := e.product(t, nil)
	v := e.variant(t, p["id"].(string), map[string]any{"inventory": 10, "lowStockThreshold": 4})
	path := "/variants/" + v["id"].(string) + "/inventory"
	adjust := func(op string, n int) *testkit.Response {
		return e.do(t, http.MethodPatch, path, map[string]any{"operation": op, "inventory": n})
	}
	steps := []struct {
		op   string
		n    int
		want float64
	}{
		{"add", 5, 15}, {"subtract", 3, 12}, {"set", 20, 20}, {"set", 0, 0}, {"add", 0, 0}, {"add", 9, 9},
	}
	for _, s := range steps {
		got := adjust(s.op, s.n).Expect(t, http.StatusOK).Map(t)
		if got["inventory"] != s.want {
			t.Fatalf("%s %d: inventory %v, want %v", s.op, s.n, got["inventory"], s.want)
		}
	}
	t.Run("never below committed plus reserved", func(t *testing.T) {
		e.exec(t, `UPDATE variants SET committed = 4, reserved = 2 WHERE id = ?`, v["id"]) // on hand 9
		eb := adjust("subtract", 4).ExpectError(t, http.StatusConflict, "CONFLICT")
		if eb.Error.Details["committed"] != 4.0 || eb.Error.Details["reserved"] != 2.0 {
			t.Fatalf("details %v", eb.Error.Details)
		}
		adjust("set", 5).ExpectError(t, http.StatusConflict, "CONFLICT")
		if got := adjust("subtract", 3).Expect(t, http.StatusOK).Map(t); got["inventory"] != 6.0 || got["available"] != 0.0 {
			t.Fatalf("got %v", got)
		}
	})
	t.Run("crossing the low-stock threshold publishes inventory.low_stock", func(t *testing.T) {
		var n int64
		e.app.DB.Model(&models.Event{}).Where("type = ? AND data->>'variantId' = ?", "inventory.low_stock", v["id"]).Count(&n)
		if n == 0 {
			t.Fatal("no inventory.low_stock event")
		}
	})
	e.expectFields(t, http.MethodPatch, path, []fieldCase{
		{name: "unknown operation", body: map[string]any{"operation": "multiply", "inventory": 1}, field: "operation"},
		{name: "missing operation", body: map[string]any{"inventory": 1}, field: "operation"},
		{name: "missing inventory", body: map[string]any{"operation": "add"}, field: "inventory"},
		{name: "negative inventory", body: map[string]any{"operation": "add", "inventory": -1}, field: "inventory"},
		{name: "fractional inventory", body: map[string]any{"operation": "add", "inventory": 0.5}, field: "inventory"},
		{name: "huge inventory", body: map[string]any{"operation": "set", "inventory": 5000000000}, field: "inventory"},
	})
	e.do(t, http.MethodPatch, "/variants/"+uuid.NewString()+"/inventory", map[string]any{"operation": "add", "inventory": 1}).
		ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	e.as(t, "viewer").do(t, http.MethodPatch, path, map[string]any{"operation": "add", "inventory": 1}).
		ExpectError(t, http.StatusForbidden, "FORBIDDEN")
	e.as(t, "staff").do(t, http.MethodPatch, path, map[string]any{"operation": "add", "inventory": 1}).Expect(t, http.StatusOK)
}

// TestConcurrentSubtract: 50 concurrent `subtract 1` on 20 units: exactly 20
// succeed, the rest are 409, and stock ends at 0 without going negative.
func TestConcurrentSubtract(t *testing.T) {
	e := newEnv(t)
	p := e.product(t, nil)
	v := e.variant(t, p["id"].(string), map[string]any{"inventory": 20})
	path := admin + "/variants/" + v["id"].(string) + "/inventory"

	var ok, conflict, other atomic.Int32
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			r := testkit.Do(t, http.MethodPatch, e.app.URL+path, testkit.Req{Token: e.tok, Body: map[string]any{"operation": "subtract", "inventory": 1}})
			switch r.Status {
			case http.StatusOK:
				ok.Add(1)
			case http.StatusConflict:
				conflict.Add(1)
			default:
				other.Add(1)
			}
		}()
	}
	close(start)
	wg.Wait()
	if ok.Load() != 20 || conflict.Load() != 30 || other.Load() != 0 {
		t.Fatalf("ok=%d conflict=%d other=%d, want 20/30/0", ok.Load(), conflict.Load(), other.Load())
	}
	var stock int
	e.app.DB.Raw(`SELECT inventory FROM variants WHERE id = ?`, v["id"]).Scan(&stock)
	if stock != 0 {
		t.Fatalf("stock %d, want 0", stock)
	}
}

// POST .../inventory/adjust takes the change as a signed number under
// adjustment, delta or quantity (or PATCH's inventory with operation),
// with PATCH's rules: the floor of committed plus reserved units, the
// low-stock event, the roles; the reason is kept in the audit entry.
func TestChangeInventoryBySignedNumber(t *testing.T) {
	e := newEnv(t)
	p := e.product(t, nil)
	v := e.variant(t, p["id"].(string), map[string]any{"inventory": 10, "lowStockThreshold": 4})
	path := "/variants/" + v["id"].(string) + "/inventory/adjust"
	steps := []struct {
		body map[string]any
		want float64
	}{
		{map[string]any{"adjustment": 5}, 15},
		{map[string]any{"delta": -3, "reason": "damaged in storage"}, 12},
		{map[string]any{"quantity": -2}, 10},
		{map[string]any{"inventory": 20, "operation": "set"}, 20},
		{map[string]any{"adjustment": -17}, 3},
	}
	for _, s := range steps {
		if got := e.do(t, http.MethodPost, path, s.body).Expect(t, http.StatusOK).Map(t); got["inventory"] != s.want {
			t.Fatalf("%v: inventory %v, want %v", s.body, got["inventory"], s.want)
		}
	}
	var reasons int64
	e.app.DB.Table("admin_audit_logs").Where("action = ? AND entity_id = ? AND metadata->>'reason' = ?", "inventory.update", v["id"],
		"damaged in storage").Count(&reasons)
	if reasons != 1 {
		t.Fatalf("%d audit entries with the reason", reasons)
	}
	var low int64
	e.app.DB.Model(&models.Event{}).Where("type = ? AND data->>'variantId' = ?", "inventory.low_stock", v["id"]).Count(&low)
	if low == 0 {
		t.Fatal("no inventory.low_stock event")
	}
	e.exec(t, `UPDATE variants SET committed = 2, reserved = 1 WHERE id = ?`, v["id"]) // on hand 3
	e.do(t, http.MethodPost, path, map[string]any{"adjustment": -1}).ExpectError(t, http.StatusConflict, "CONFLICT")

	e.expectFields(t, http.MethodPost, path, []fieldCase{
		{name: "no change", body: map[string]any{"reason": "count"}, field: "adjustment"},
		{name: "zero", body: map[string]any{"adjustment": 0}, field: "adjustment"},
		{name: "too large", body: map[string]any{"delta": -1000000001}, field: "delta"},
		{name: "two names", body: map[string]any{"adjustment": 1, "delta": 1}, field: "delta"},
		{name: "an operation with a signed change", body: map[string]any{"adjustment": 1, "operation": "add"}, field: "operation"},
		{name: "inventory without operation", body: map[string]any{"inventory": 1}, field: "operation"},
		{name: "fractional", body: map[string]any{"adjustment": 1.5}, field: "adjustment"},
		{name: "bad location", body: map[string]any{"adjustment": 1, "locationId": "x"}, field: "locationId"},
	})
	e.do(t, http.MethodPost, "/variants/"+uuid.NewString()+"/inventory/adjust", map[string]any{"adjustment": 1}).
		ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	e.as(t, "viewer").do(t, http.MethodPost, path, map[string]any{"adjustment": 1}).ExpectError(t, http.StatusForbidden, "FORBIDDEN")
	e.as(t, "staff").do(t, http.MethodPost, path, map[string]any{"adjustment": 1}).Expect(t, http.StatusOK)
}
