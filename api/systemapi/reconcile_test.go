package systemapi_test

import (
	"encoding/json"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

type reconcileReport struct {
	ExpiredSessions int `json:"expiredSessions"`
	Reserved        []struct {
		VariantID string `json:"variantId"`
		SKU       string `json:"sku"`
		Was       int    `json:"was"`
		Now       int    `json:"now"`
		Fixed     bool   `json:"fixed"`
	} `json:"reserved"`
	Committed []struct {
		VariantID string `json:"variantId"`
		Was       int    `json:"was"`
		Now       int    `json:"now"`
		Fixed     bool   `json:"fixed"`
	} `json:"committed"`
	Orphans struct {
		Reservations, CartLocks, CartItems, ClaimTokens, AdminSessions int64
	} `json:"orphans"`
	Problems []struct {
		Kind   string `json:"kind"`
		Entity string `json:"entity"`
	} `json:"problems"`
	RollupDays int `json:"rollupDays"`
	Found      int `json:"found"`
	Fixed      int `json:"fixed"`
}

func runReconcile(t *testing.T, app *testkit.App, token string) reconcileReport {
	t.Helper()
	body := app.Do(t, "POST", "/api/v1/admin/system/database/reconcile", testkit.Req{Token: token}).Expect(t, 202).Map(t)
	id, _ := body["jobId"].(string)
	if body["status"] != "queued" || id == "" {
		t.Fatalf("answer %v", body)
	}
	var j struct {
		State  string          `json:"state"`
		Type   string          `json:"type"`
		Result json.RawMessage `json:"result"`
		Error  *string         `json:"error"`
	}
	app.WaitJob(t, token, id, &j)
	if j.State != "completed" || j.Type != "system:reconcile" {
		t.Fatalf("job %s: %+v", j.State, j)
	}
	var r reconcileReport
	if err := json.Unmarshal(j.Result, &r); err != nil {
		t.Fatalf("result %s: %v", j.Result, err)
	}
	return r
}

// Reconcile repairs a corrupted reserved count (and the other drifts it
// looks for), reports each, and finds nothing more the second time.
func TestReconcileRepairsAndReports(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	superAdm, super := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	_, admin := testkit.MustAdmin(t, app, string(rbac.Admin))
	db := app.DB
	p := fixtures.MustProduct(t, db, "Tee", 50000)
	corrupted := fixtures.MustVariant(t, db, p.ID, 10)
	uncommitted := fixtures.MustVariant(t, db, p.ID, 10)
	held := fixtures.MustVariant(t, db, p.ID, 10)
	cust := fixtures.MustCustomer(t, db, "R")

	// 1. reserved says 7, but no checkout holds any unit.
	db.Model(&corrupted).Update("reserved", 7)
	// 2. an open order holds 2 units, but committed says 0.
	o := fixtures.MustOrder(t, db, fixtures.OrderSpec{Customer: cust,
		Lines: []fixtures.Line{{Product: p, Variant: uncommitted, Qty: 2}}})
	db.Model(&uncommitted).Update("committed", 0)
	// 3. a checkout that expired an hour ago still holds 3 units and its cart.
	sessionID := mustStaleCheckout(t, db, cust, held, 3)
	// 4. a cart locked by a failed checkout, an expired claim token and an
	// expired admin session.
	failed := mustStaleCheckout(t, db, cust2(t, db), held, 0)
	db.Exec(`UPDATE checkout_sessions SET state = 'FAILED' WHERE id = ?`, failed)
	must(t, db.Exec(`INSERT INTO claim_tokens (customer_id, token_hash, expires_at) VALUES (?, 'h1', now() - interval '1 hour')`, cust.ID).Error)
	must(t, db.Exec(`INSERT INTO admin_sessions (admin_id, refresh_token_hash, device_id, expires_at, refresh_expires_at)
		VALUES (?, 'stale', 'old-laptop', now() - interval '1 day', now() - interval '1 day')`, superAdm.ID).Error)
	// 5. money that does not add up is reported, not changed.
	db.Model(&models.Order{}).Where("id = ?", o.ID).Update("refunded_total", 500)

	app.Do(t, "POST", "/api/v1/admin/system/database/reconcile", testkit.Req{Token: admin}).ExpectError(t, 403, "FORBIDDEN")
	r := runReconcile(t, app, super)

	if len(r.Reserved) != 1 || r.Reserved[0].VariantID != corrupted.ID.String() || r.Reserved[0].Was != 7 ||
		r.Reserved[0].Now != 0 || !r.Reserved[0].Fixed || r.Reserved[0].SKU != corrupted.SKU {
		t.Fatalf("reserved drift %+v", r.Reserved)
	}
	if len(r.Committed) != 1 || r.Committed[0].VariantID != uncommitted.ID.String() || r.Committed[0].Was != 0 ||
		r.Committed[0].Now != 2 || !r.Committed[0].Fixed {
		t.Fatalf("committed drift %+v", r.Committed)
	}
	if r.ExpiredSessions != 1 || r.Orphans.CartLocks != 1 || r.Orphans.ClaimTokens != 1 || r.Orphans.AdminSessions != 1 {
		t.Fatalf("report %+v", r)
	}
	if len(r.Problems) != 1 || r.Problems[0].Kind != "refund_total_mismatch" || r.Problems[0].Entity != o.ID.String() {
		t.Fatalf("problems %+v", r.Problems)
	}
	if r.RollupDays < 1 || r.Found != 7 || r.Fixed != 6 {
		t.Fatalf("found %d fixed %d rollup days %d", r.Found, r.Fixed, r.RollupDays)
	}
	for _, c := range []struct {
		v                   models.Variant
		reserved, committed int
	}{{corrupted, 0, 0}, {uncommitted, 0, 2}, {held, 0, 0}} {
		got := fixtures.Reload(t, db, c.v)
		if got.Reserved != c.reserved || got.Committed != c.committed {
			t.Fatalf("variant %s: reserved %d committed %d, want %d %d", got.SKU, got.Reserved, got.Committed, c.reserved, c.committed)
		}
	}
	var state string
	db.Raw(`SELECT state FROM checkout_sessions WHERE id = ?`, sessionID).Scan(&state)
	var locked int64
	db.Table("carts").Where("locked_by IS NOT NULL").Count(&locked)
	if state != "EXPIRED" || locked != 0 {
		t.Fatalf("session %s, %d carts still locked", state, locked)
	}

	again := runReconcile(t, app, super)
	if again.Found != 1 || again.Fixed != 0 || len(again.Reserved)+len(again.Committed) != 0 {
		t.Fatalf("second run %+v", again)
	}
}

// mustStaleCheckout makes a pending checkout of a new cart of cust that
// expired an hour ago, holding qty units of v (none when qty is 0).
func mustStaleCheckout(t *testing.T, db *gorm.DB, cust models.Customer, v models.Variant, qty int) uuid.UUID {
	t.Helper()
	var cartID uuid.UUID
	must(t, db.Raw(`INSERT INTO carts (customer_id) VALUES (?) RETURNING id`, cust.ID).Row().Scan(&cartID))
	id := uuid.New()
	must(t, db.Exec(`INSERT INTO checkout_sessions (id, cart_id, customer_id, cart_fingerprint, email,
			shipping_address, billing_address, lines, subtotal, total, currency, payment_provider, expires_at)
		VALUES (?, ?, ?, 'fp', ?, '{}', '{}', '[]', 100, 100, 'INR', 'simulator', now() - interval '1 hour')`,
		id, cartID, cust.ID, cust.Email).Error)
	must(t, db.Exec(`UPDATE carts SET locked_by = ? WHERE id = ?`, id, cartID).Error)
	if qty > 0 {
		must(t, db.Exec(`INSERT INTO stock_reservations (checkout_session_id, variant_id, quantity) VALUES (?, ?, ?)`, id, v.ID, qty).Error)
		must(t, db.Exec(`UPDATE variants SET reserved = reserved + ? WHERE id = ?`, qty, v.ID).Error)
	}
	return id
}

func cust2(t *testing.T, db *gorm.DB) models.Customer {
	return fixtures.MustCustomer(t, db, "R2")
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
