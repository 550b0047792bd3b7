package inventoryapi_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
)

type variantStock struct {
	Data []struct {
		LocationID string `json:"locationId"`
		OnHand     int    `json:"onHand"`
		Available  int    `json:"available"`
	} `json:"data"`
	Total struct {
		OnHand, Committed, Reserved, Available int
	} `json:"total"`
}

// onHand is the variant's units at each location, by id.
func (s variantStock) onHand() map[string]int {
	out := map[string]int{}
	for _, l := range s.Data {
		out[l.LocationID] = l.OnHand
	}
	return out
}

// Bulk rows name their location: one job sets and adds a variant's units
// at two locations and its total follows; a row naming an unknown location
// is 400 naming it, and one whose location is deleted before the worker
// applies the job fails the whole job with that row's reason.
func TestBulkUpdateAtLocations(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	_, token := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	do := func(method, path string, body any) *testkit.Response {
		t.Helper()
		return app.Do(t, method, path, testkit.Req{Token: token, Body: body})
	}
	location := func(code string) string {
		t.Helper()
		var l struct{ ID string }
		do("POST", "/api/v1/admin/locations", map[string]any{"name": "Warehouse " + code, "code": code,
			"address": map[string]any{"line1": "1 Dock Road", "city": "Pune", "state": "Maharashtra", "pincode": "411001"}}).
			Expect(t, 201).JSON(t, &l)
		return l.ID
	}
	var locs struct {
		Data []struct {
			ID        string
			IsDefault bool
		}
	}
	do("GET", "/api/v1/admin/locations?limit=100", nil).Expect(t, 200).JSON(t, &locs)
	var def string
	for _, l := range locs.Data {
		if l.IsDefault {
			def = l.ID
		}
	}
	pune, gone := location("PUNE"), location("GONE")
	p := fixtures.MustProduct(t, app.DB, "Jar", 20000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 0)
	w := fixtures.MustVariant(t, app.DB, p.ID, 0)
	stockOf := func(id uuid.UUID) variantStock {
		t.Helper()
		var s variantStock
		do("GET", "/api/v1/admin/variants/"+id.String()+"/stock", nil).Expect(t, 200).JSON(t, &s)
		return s
	}
	bulk := func(rows ...map[string]any) *testkit.Response {
		t.Helper()
		return do("POST", "/api/v1/admin/inventory/bulk-update", map[string]any{"updates": rows})
	}

	bulk(map[string]any{"variantId": v.ID, "operation": "set", "inventory": 4},
		map[string]any{"variantId": v.ID, "operation": "set", "inventory": 1, "locationId": uuid.NewString()}).
		ExpectField(t, "updates[1].locationId")

	do("PATCH", "/api/v1/admin/variants/"+v.ID.String()+"/inventory",
		map[string]any{"operation": "set", "inventory": 20, "locationId": def}).Expect(t, 200)
	// v: 20 → 9 over two rows, below its threshold (10) once; w: 0 → 5,
	// below it already.
	accepted := bulk(map[string]any{"variantId": v.ID, "operation": "subtract", "inventory": 13, "locationId": def},
		map[string]any{"variantId": v.ID, "operation": "add", "inventory": 2, "locationId": pune},
		map[string]any{"variantId": w.ID, "operation": "set", "inventory": 3, "locationId": pune},
		map[string]any{"variantId": w.ID, "operation": "add", "inventory": 2}).Expect(t, 202).Map(t)
	j := waitJob(t, app, token, accepted["jobId"].(string))
	if j.State != "completed" || j.Error != nil {
		t.Fatalf("job %+v", j)
	}
	var res struct {
		Updated  int `json:"updated"`
		LowStock []struct {
			VariantID    string `json:"variantId"`
			CurrentStock int    `json:"currentStock"`
		} `json:"lowStock"`
	}
	if err := json.Unmarshal(j.Result, &res); err != nil || res.Updated != 4 || len(res.LowStock) != 1 ||
		res.LowStock[0].VariantID != v.ID.String() || res.LowStock[0].CurrentStock != 9 {
		t.Fatalf("result %s", j.Result)
	}
	var events int64
	app.DB.Table("events").Where("type = 'inventory.low_stock' AND data->>'variantId' = ?", v.ID.String()).Count(&events)
	if events != 1 {
		t.Fatalf("%d low-stock events of v, want 1", events)
	}
	levelsAre := func(t *testing.T, va models.Variant, want map[string]int, total int) {
		id := va.ID
		t.Helper()
		s := stockOf(id)
		got := s.onHand()
		for loc, n := range want {
			if got[loc] != n {
				t.Fatalf("variant %s: %v on hand by location, want %v", id, got, want)
			}
		}
		if s.Total.OnHand != total || s.Total.Available != total {
			t.Fatalf("variant %s: total %+v, want %d on hand and available", id, s.Total, total)
		}
		if inv := fixtures.Reload(t, app.DB, va).Inventory; inv != total {
			t.Fatalf("variant %s: inventory %d, want %d", id, inv, total)
		}
	}
	levelsAre(t, v, map[string]int{def: 7, pune: 2, gone: 0}, 9)
	levelsAre(t, w, map[string]int{def: 2, pune: 3, gone: 0}, 5)

	// Held in the queue while its location is deleted: the job fails as one.
	if err := app.Inspector.PauseQueue(tasks.QueueDefault); err != nil {
		t.Fatal(err)
	}
	held := bulk(map[string]any{"variantId": v.ID, "operation": "add", "inventory": 1, "locationId": def},
		map[string]any{"variantId": w.ID, "operation": "add", "inventory": 2, "locationId": gone}).Expect(t, 202).Map(t)
	do("DELETE", "/api/v1/admin/locations/"+gone, nil).Expect(t, 204)
	if err := app.Inspector.UnpauseQueue(tasks.QueueDefault); err != nil {
		t.Fatal(err)
	}
	j = waitJob(t, app, token, held["jobId"].(string))
	if want := fmt.Sprintf("location %s does not exist", gone); j.State != "failed" || j.Error == nil || *j.Error != want {
		t.Fatalf("job %+v, want failed: %s", j, want)
	}
	levelsAre(t, v, map[string]int{def: 7, pune: 2}, 9)
	levelsAre(t, w, map[string]int{def: 2, pune: 3}, 5)
}
