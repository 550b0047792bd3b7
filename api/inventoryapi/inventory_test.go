package inventoryapi_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

func TestOverview(t *testing.T) {
	app := testkit.MustApp(t)
	_, viewer := testkit.MustAdmin(t, app, string(rbac.Viewer))
	db := app.DB
	p := fixtures.MustProduct(t, db, "Tee", 50000) // ₹500
	priced := fixtures.MustVariant(t, db, p.ID, 50)
	db.Model(&priced).Update("price", 60000)         // own price ₹600
	fixtures.MustVariant(t, db, p.ID, 0)             // out of stock
	low := fixtures.MustVariant(t, db, p.ID, 20)     // 20 on hand, 8 held: 12 available
	reserved := fixtures.MustVariant(t, db, p.ID, 4) // all 4 reserved: out of stock
	db.Model(&reserved).Update("reserved", 4)
	db.Model(&low).Updates(map[string]any{"reserved": 3, "low_stock_threshold": 15})
	o := fixtures.MustOrder(t, db, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, db, "A"),
		Lines: []fixtures.Line{{Product: p, Variant: low, Qty: 5}}}) // commits 5
	_ = o

	var got struct {
		TotalVariants, InStockVariants, OutOfStockVariants, LowStockVariants int64
		TotalValue                                                           money.Amount
		ReservedInventory                                                    struct{ Total, ByCart, ByOrder int64 }
		Currency                                                             string
	}
	app.Do(t, "GET", "/api/v1/admin/inventory/overview", testkit.Req{Token: viewer}).Expect(t, 200).JSON(t, &got)
	// value: 50×600 + 0 + 20×500 + 4×500 = 42000 rupees
	if got.TotalVariants != 4 || got.InStockVariants != 2 || got.OutOfStockVariants != 2 || got.LowStockVariants != 1 ||
		got.TotalValue != money.FromMajor(42000) || got.ReservedInventory.ByCart != 7 || got.ReservedInventory.ByOrder != 5 ||
		got.ReservedInventory.Total != 12 || got.Currency != "INR" {
		t.Fatalf("overview %+v", got)
	}
	app.Do(t, "GET", "/api/v1/admin/inventory/overview", testkit.Req{}).ExpectError(t, 401, "UNAUTHORIZED")
}

// mustVariants inserts n variants of one product, with inventory 100 and,
// for every tenth, 30 units committed.
func mustVariants(t *testing.T, db *gorm.DB, n int) []models.Variant {
	t.Helper()
	p := fixtures.MustProduct(t, db, "Bulk", 10000)
	if err := db.Exec(`INSERT INTO variants (product_id, sku, inventory, committed)
		SELECT ?, 'BULK-' || lpad(g::text, 5, '0'), 100, CASE WHEN g % 10 = 0 THEN 30 ELSE 0 END
		FROM generate_series(1, ?) g`, p.ID, n).Error; err != nil {
		t.Fatal(err)
	}
	var vs []models.Variant
	db.Where("product_id = ?", p.ID).Order("sku").Find(&vs)
	return vs
}

type job struct {
	ID     string          `json:"id"`
	Type   string          `json:"type"`
	State  string          `json:"state"`
	Result json.RawMessage `json:"result"`
	Error  *string         `json:"error"`
}

func waitJob(t *testing.T, app *testkit.App, token, id string) job {
	t.Helper()
	var j job
	app.WaitJob(t, token, id, &j)
	return j
}

// 1000 updates in one job, applied in one transaction, with low-stock events.
func TestBulkUpdateThousandVariants(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	_, token := testkit.MustAdmin(t, app, string(rbac.Admin))
	_, viewer := testkit.MustAdmin(t, app, string(rbac.Viewer))
	vs := mustVariants(t, app.DB, 1000)
	want := map[uuid.UUID]int{}
	updates := make([]map[string]any, len(vs))
	for i, v := range vs {
		switch i % 3 {
		case 0:
			updates[i] = map[string]any{"variantId": v.ID, "operation": "set", "inventory": 200 + i}
			want[v.ID] = 200 + i
		case 1:
			updates[i] = map[string]any{"variantId": v.ID, "operation": "add", "inventory": 5}
			want[v.ID] = 105
		case 2:
			updates[i] = map[string]any{"variantId": v.ID, "operation": "subtract", "inventory": 55}
			want[v.ID] = 45 // available stays above the default threshold (10) ...
		}
	}
	// ... except these two, which cross it: 100 → 8 and 100 → 40 (30 committed: 10 available).
	updates[2] = map[string]any{"variantId": vs[2].ID, "operation": "subtract", "inventory": 92}
	want[vs[2].ID] = 8
	updates[9] = map[string]any{"variantId": vs[9].ID, "operation": "set", "inventory": 40}
	want[vs[9].ID] = 40

	body := app.Do(t, "POST", "/api/v1/admin/inventory/bulk-update", testkit.Req{Token: token,
		Body: map[string]any{"updates": updates}}).Expect(t, 202).Map(t)
	if body["status"] != "queued" || body["jobId"] == "" {
		t.Fatalf("answer %v", body)
	}
	j := waitJob(t, app, viewer, body["jobId"].(string))
	if j.State != "completed" || j.Type != tasks.TypeInventoryBulk || j.Error != nil {
		t.Fatalf("job %+v", j)
	}
	var res struct {
		Updated  int `json:"updated"`
		LowStock []struct {
			VariantID    string `json:"variantId"`
			CurrentStock int    `json:"currentStock"`
		} `json:"lowStock"`
	}
	if err := json.Unmarshal(j.Result, &res); err != nil || res.Updated != 1000 || len(res.LowStock) != 2 {
		t.Fatalf("result %s", j.Result)
	}
	var got []models.Variant
	app.DB.Where("id IN ?", ids(vs)).Find(&got)
	for _, v := range got {
		if v.Inventory != want[v.ID] {
			t.Fatalf("variant %s: inventory %d, want %d", v.SKU, v.Inventory, want[v.ID])
		}
	}
	var events int64
	app.DB.Table("events").Where("type = 'inventory.low_stock' AND data->>'variantId' IN ?",
		[]string{vs[2].ID.String(), vs[9].ID.String()}).Count(&events)
	if events != 2 {
		t.Fatalf("low stock events %d, want 2", events)
	}
	var audit int64
	app.DB.Table("admin_audit_logs").Where("action = 'inventory.bulk_update' AND entity_id = ?", j.ID).Count(&audit)
	if audit != 1 {
		t.Fatalf("audit entries %d", audit)
	}
}

// One bad entry among 1000 rejects the request and queues nothing.
func TestBulkUpdateValidatesEverything(t *testing.T) {
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Admin))
	_, staff := testkit.MustAdmin(t, app, string(rbac.Staff))
	vs := mustVariants(t, app.DB, 1000)
	valid := func() []map[string]any {
		out := make([]map[string]any, len(vs))
		for i, v := range vs {
			out[i] = map[string]any{"variantId": v.ID.String(), "operation": "add", "inventory": 1}
		}
		return out
	}
	cases := []struct {
		name  string
		edit  func([]map[string]any) []map[string]any
		field string
	}{
		{"unknown variant", func(u []map[string]any) []map[string]any { u[517]["variantId"] = uuid.NewString(); return u }, "updates[517].variantId"},
		{"bad operation", func(u []map[string]any) []map[string]any { u[3]["operation"] = "multiply"; return u }, "updates[3].operation"},
		{"negative units", func(u []map[string]any) []map[string]any { u[999]["inventory"] = -1; return u }, "updates[999].inventory"},
		{"missing units", func(u []map[string]any) []map[string]any { delete(u[10], "inventory"); return u }, "updates[10].inventory"},
		{"malformed id", func(u []map[string]any) []map[string]any { u[0]["variantId"] = "abc"; return u }, "updates[0].variantId"},
		{"repeated variant", func(u []map[string]any) []map[string]any { u[800]["variantId"] = u[20]["variantId"]; return u }, "updates[800].variantId"},
		{"too many", func(u []map[string]any) []map[string]any { return append(u, u[0]) }, "updates"},
		{"empty", func(u []map[string]any) []map[string]any { return []map[string]any{} }, "updates"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			app.Do(t, "POST", "/api/v1/admin/inventory/bulk-update", testkit.Req{Token: token,
				Body: map[string]any{"updates": c.edit(valid())}, Invalid: true}).ExpectField(t, c.field)
		})
	}
	app.Do(t, "POST", "/api/v1/admin/inventory/bulk-update", testkit.Req{Token: staff,
		Body: map[string]any{"updates": valid()[:1]}}).ExpectError(t, 403, "FORBIDDEN")
	info, err := app.Inspector.GetQueueInfo(tasks.QueueDefault)
	if err == nil && info.Size != 0 {
		t.Fatalf("%d tasks queued by refused requests", info.Size)
	}
}

// An update that would go below the committed (and reserved) units fails
// the whole job, with the reason, and changes nothing; reserved units count
// as a floor too.
func TestBulkUpdateJobFailsAsOne(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	_, token := testkit.MustAdmin(t, app, string(rbac.Admin))
	vs := mustVariants(t, app.DB, 20) // vs[9] has 30 committed
	updates := []map[string]any{}
	for _, v := range vs {
		updates = append(updates, map[string]any{"variantId": v.ID, "operation": "set", "inventory": 50})
	}
	// 100 on hand, 5 reserved: subtracting 96 would leave 4, below 5.
	app.DB.Model(&vs[3]).Update("reserved", 5)
	reservedJob := app.Do(t, "POST", "/api/v1/admin/inventory/bulk-update", testkit.Req{Token: token,
		Body: map[string]any{"updates": []map[string]any{{"variantId": vs[3].ID, "operation": "subtract", "inventory": 96}}}}).
		Expect(t, 202).Map(t)
	if j := waitJob(t, app, token, reservedJob["jobId"].(string)); j.State != "failed" || j.Error == nil ||
		*j.Error != fmt.Sprintf("variant %s: subtract 96 would leave 4 on hand, below the 5 units committed to orders (0) and reserved by checkouts (5)", vs[3].SKU) {
		t.Fatalf("reserved floor: %+v", j)
	}

	updates[9]["inventory"] = 29
	body := app.Do(t, "POST", "/api/v1/admin/inventory/bulk-update", testkit.Req{Token: token,
		Body: map[string]any{"updates": updates}}).Expect(t, 202).Map(t)
	j := waitJob(t, app, token, body["jobId"].(string))
	if j.State != "failed" || j.Error == nil {
		t.Fatalf("job %+v", j)
	}
	wantErr := fmt.Sprintf("variant %s: set 29 would leave 29 on hand, below the 30 units committed to orders (30) and reserved by checkouts (0)", vs[9].SKU)
	if *j.Error != wantErr {
		t.Fatalf("error %q, want %q", *j.Error, wantErr)
	}
	var changed int64
	app.DB.Model(&models.Variant{}).Where("id IN ? AND inventory <> 100", ids(vs)).Count(&changed)
	if changed != 0 {
		t.Fatalf("%d variants changed by a failed job", changed)
	}
	app.Do(t, "GET", "/api/v1/admin/jobs/"+uuid.NewString(), testkit.Req{Token: token}).ExpectError(t, 404, "NOT_FOUND")
}

func ids(vs []models.Variant) []uuid.UUID {
	out := make([]uuid.UUID, len(vs))
	for i, v := range vs {
		out[i] = v.ID
	}
	return out
}

// A stock sheet names variants by SKU: lines by SKU and by id mix in one
// job; an unknown SKU, a line naming neither or both, or one variant named
// twice (by SKU and id) is 400 naming the line, and nothing is queued.
func TestBulkUpdateBySKU(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	_, token := testkit.MustAdmin(t, app, string(rbac.Admin))
	vs := mustVariants(t, app.DB, 3)
	post := func(updates []map[string]any, invalid bool) *testkit.Response {
		return app.Do(t, "POST", "/api/v1/admin/inventory/bulk-update", testkit.Req{Token: token,
			Body: map[string]any{"updates": updates}, Invalid: invalid})
	}
	for _, c := range []struct {
		name    string
		updates []map[string]any
		field   string
	}{
		{"unknown SKU", []map[string]any{{"sku": vs[0].SKU, "operation": "add", "inventory": 1},
			{"sku": "NOPE-1", "operation": "add", "inventory": 1}}, "updates[1].sku"},
		{"neither", []map[string]any{{"operation": "add", "inventory": 1}}, "updates[0].variantId"},
		{"both", []map[string]any{{"sku": vs[0].SKU, "variantId": vs[0].ID, "operation": "add", "inventory": 1}}, "updates[0].sku"},
		{"one variant twice", []map[string]any{{"sku": vs[1].SKU, "operation": "add", "inventory": 1},
			{"variantId": vs[1].ID, "operation": "set", "inventory": 1}}, "updates[1].variantId"},
	} {
		post(c.updates, c.field == "updates[0].variantId").ExpectField(t, c.field)
	}
	if info, err := app.Inspector.GetQueueInfo(tasks.QueueDefault); err == nil && info.Pending != 0 {
		t.Fatalf("%d tasks queued by refused requests", info.Pending)
	}

	body := post([]map[string]any{
		{"sku": vs[0].SKU, "operation": "set", "inventory": 7},
		{"variantId": vs[1].ID, "operation": "add", "inventory": 2},
		{"sku": vs[2].SKU, "operation": "subtract", "inventory": 1},
	}, false).Expect(t, 202).Map(t)
	if j := waitJob(t, app, token, body["jobId"].(string)); j.State != "completed" {
		t.Fatalf("job %+v", j)
	}
	var got []models.Variant
	app.DB.Where("id IN ?", ids(vs)).Order("sku").Find(&got)
	if got[0].Inventory != 7 || got[1].Inventory != 102 || got[2].Inventory != 99 {
		t.Fatalf("after the update: %d %d %d", got[0].Inventory, got[1].Inventory, got[2].Inventory)
	}
}
