package orderapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

var allStatuses = []string{"pending", "confirmed", "processing", "shipped", "delivered", "cancelled"}

var legal = map[string]bool{
	"pending>confirmed": true, "pending>cancelled": true,
	"confirmed>processing": true, "confirmed>cancelled": true,
	"processing>shipped": true, "processing>cancelled": true,
	"shipped>delivered": true,
}

// Every move outside the table is 409 and changes nothing.
func TestIllegalStatusMovesAreConflicts(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	p := fixtures.MustProduct(t, app.DB, "Tee", 50000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 100)
	cust := fixtures.MustCustomer(t, app.DB, "Asha")
	for _, from := range allStatuses {
		o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Status: from,
			Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
		for _, to := range allStatuses {
			if legal[from+">"+to] {
				continue
			}
			t.Run(from+">"+to, func(t *testing.T) {
				e := app.Do(t, "PATCH", "/api/v1/admin/orders/"+o.ID.String()+"/status", testkit.Req{Token: token,
					Body: map[string]any{"status": to, "note": "try"}}).ExpectError(t, http.StatusConflict, "CONFLICT")
				if e.Error.Details["from"] != from || e.Error.Details["to"] != to {
					t.Fatalf("details %v", e.Error.Details)
				}
			})
		}
		var got models.Order
		app.DB.First(&got, "id = ?", o.ID)
		if got.Status != from {
			t.Fatalf("order %s moved to %s by refused moves", from, got.Status)
		}
	}
	before := fixtures.Reload(t, app.DB, v)
	if before.Committed != 3 || before.Inventory != 98 { // pending+confirmed+processing committed; shipped+delivered left
		t.Fatalf("stock after refused moves: inventory %d committed %d", before.Inventory, before.Committed)
	}
}

// confirmed → processing → shipped → delivered: stock leaves on shipping,
// each note is kept with the admin, and the events are in the outbox.
func TestLegalStatusPath(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	adm, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	p := fixtures.MustProduct(t, app.DB, "Kurta", 120000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	cust := fixtures.MustCustomer(t, app.DB, "Ravi")
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust,
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 3}}})
	if s := fixtures.Reload(t, app.DB, v); s.Inventory != 10 || s.Committed != 3 {
		t.Fatalf("seeded stock %d/%d", s.Inventory, s.Committed)
	}

	path := "/api/v1/admin/orders/" + o.ID.String() + "/status"
	steps := []struct{ status, note string }{
		{"processing", "packing started"}, {"shipped", "AWB 1234 via BlueDart"}, {"delivered", "signed by Ravi"},
	}
	for _, s := range steps {
		body := app.Do(t, "PATCH", path, testkit.Req{Token: token, Body: map[string]any{"status": s.status, "note": s.note}}).
			Expect(t, http.StatusOK).Map(t)
		if body["status"] != s.status {
			t.Fatalf("status %v, want %s", body["status"], s.status)
		}
		if s.status == "processing" {
			if st := fixtures.Reload(t, app.DB, v); st.Inventory != 10 || st.Committed != 3 {
				t.Fatalf("processing touched stock: %d/%d", st.Inventory, st.Committed)
			}
		}
	}
	if st := fixtures.Reload(t, app.DB, v); st.Inventory != 7 || st.Committed != 0 {
		t.Fatalf("after shipping: inventory %d committed %d, want 7 and 0", st.Inventory, st.Committed)
	}

	var detail struct {
		History []struct {
			FromStatus *string `json:"fromStatus"`
			ToStatus   string  `json:"toStatus"`
			Note       string  `json:"note"`
			AdminID    *string `json:"adminId"`
		} `json:"history"`
	}
	app.Do(t, "GET", "/api/v1/admin/orders/"+o.ID.String(), testkit.Req{Token: token}).Expect(t, 200).JSON(t, &detail)
	if len(detail.History) != 3 {
		t.Fatalf("history %+v", detail.History)
	}
	for i, s := range steps {
		h := detail.History[i]
		if h.ToStatus != s.status || h.Note != s.note || h.AdminID == nil || *h.AdminID != adm.ID.String() {
			t.Fatalf("history[%d] = %+v, want %s %q by %s", i, h, s.status, s.note, adm.ID)
		}
	}

	counts := map[string]int64{}
	for _, typ := range []string{"order.status_changed", "order.shipped"} {
		var n int64
		app.DB.Table("events").Where("type = ? AND data->>'orderId' = ?", typ, o.ID.String()).Count(&n)
		counts[typ] = n
	}
	if counts["order.status_changed"] != 3 || counts["order.shipped"] != 1 {
		t.Fatalf("events %v, want 3 status_changed and 1 shipped", counts)
	}
	var audits int64
	app.DB.Table("admin_audit_logs").Where("action = ? AND entity_id = ?", "order.status_update", o.ID.String()).Count(&audits)
	if audits != 3 {
		t.Fatalf("audit entries %d, want 3", audits)
	}
}

// Cancelling returns committed units to available.
func TestCancelReturnsStock(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	p := fixtures.MustProduct(t, app.DB, "Saree", 250000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 5)
	cust := fixtures.MustCustomer(t, app.DB, "Meera")
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Status: "processing",
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})
	app.Do(t, "PATCH", "/api/v1/admin/orders/"+o.ID.String()+"/status", testkit.Req{Token: token,
		Body: map[string]any{"status": "cancelled", "note": "customer asked"}}).Expect(t, 200)
	if st := fixtures.Reload(t, app.DB, v); st.Inventory != 5 || st.Committed != 0 {
		t.Fatalf("after cancel: %d/%d", st.Inventory, st.Committed)
	}
}

func TestStatusRequestErrors(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, staff := testkit.MustAdmin(t, app, string(rbac.Staff))
	_, viewer := testkit.MustAdmin(t, app, string(rbac.Viewer))
	p := fixtures.MustProduct(t, app.DB, "Cap", 30000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 5)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "A"),
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
	path := "/api/v1/admin/orders/" + o.ID.String() + "/status"
	app.Do(t, "PATCH", path, testkit.Req{Token: staff, Body: map[string]any{"status": "lost"}, Invalid: true}).ExpectField(t, "status")
	app.Do(t, "PATCH", path, testkit.Req{Token: staff, Body: map[string]any{}, Invalid: true}).ExpectField(t, "status")
	app.Do(t, "PATCH", path, testkit.Req{Token: viewer, Body: map[string]any{"status": "processing"}}).ExpectError(t, 403, "FORBIDDEN")
	app.Do(t, "PATCH", path, testkit.Req{Body: map[string]any{"status": "processing"}}).ExpectError(t, 401, "UNAUTHORIZED")
	app.Do(t, "PATCH", fmt.Sprintf("/api/v1/admin/orders/%s/status", uuid.New()), testkit.Req{Token: staff,
		Body: map[string]any{"status": "processing"}}).ExpectError(t, 404, "NOT_FOUND")
}
