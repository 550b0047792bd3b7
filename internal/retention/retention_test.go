package retention_test

import (
	"context"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/retention"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

// Prune deletes exactly what is past the retention period and unused, and
// keeps everything still in play: pending deliveries, undispatched events,
// recent rows, carts a checkout refers to, carts with recent lines, and
// customers' carts.
func TestPruneDeletesOnlyWhatIsDoneWith(t *testing.T) {
	db, _ := testkit.MustDB(t)
	ctx := context.Background()
	now := time.Now().UTC()
	old, recent := now.AddDate(0, 0, -100), now.AddDate(0, 0, -1)
	before := now.AddDate(0, 0, -90)

	exec := func(sql string, args ...any) {
		t.Helper()
		if err := db.Exec(sql, args...).Error; err != nil {
			t.Fatal(err)
		}
	}
	sub := uuid.New()
	exec(`INSERT INTO webhook_subscriptions (id, url, events, secret) VALUES (?, 'https://example.com/hook', '{order.created}', 'whsec_x')`, sub)
	event := func(dispatched *time.Time, delivery string) uuid.UUID {
		id := uuid.New()
		exec(`INSERT INTO events (id, type, data, created_at, dispatched_at) VALUES (?, 'order.created', '{}', ?, ?)`, id, old, dispatched)
		if delivery != "" {
			d := uuid.New()
			exec(`INSERT INTO webhook_deliveries (id, subscription_id, event_id, event_type, status) VALUES (?, ?, ?, 'order.created', ?)`, d, sub, id, delivery)
			exec(`INSERT INTO webhook_delivery_attempts (delivery_id, attempt, status_code, duration_ms) VALUES (?, 1, 200, 5)`, d)
		}
		return id
	}
	gone := []uuid.UUID{event(&old, "succeeded"), event(&old, "failed"), event(&old, "")}
	kept := []uuid.UUID{event(&old, "pending"), event(nil, ""), event(&recent, "succeeded")}
	// A backlog larger than one delete batch.
	exec(`INSERT INTO events (type, data, created_at, dispatched_at) SELECT 'order.created', '{}', ?, ? FROM generate_series(1, 2500)`, old, old)

	customer := uuid.New()
	exec(`INSERT INTO customers (id, email) VALUES (?, ?)`, customer, "retention-"+customer.String()[:8]+"@example.com")
	cart := func(session string, customerID *uuid.UUID, touched time.Time) uuid.UUID {
		id := uuid.New()
		var sid *string
		if session != "" {
			sid = &session
		}
		exec(`INSERT INTO carts (id, session_id, customer_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`, id, sid, customerID, touched, touched)
		return id
	}
	abandoned := cart("retention-abandoned", nil, old)
	idleCustomerCart := cart("", &customer, old)
	withRecentLine := cart("retention-recent-line", nil, old)
	p := testkit.MustStoreProduct(t, db, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 5}}})
	exec(`INSERT INTO cart_items (cart_id, variant_id, quantity, updated_at) VALUES (?, ?, 1, ?)`, withRecentLine, p.Variants[0].ID, recent)
	checkedOut := cart("retention-checked-out", nil, old)
	exec(`UPDATE carts SET updated_at = ? WHERE id = ?`, old, checkedOut)
	exec(`INSERT INTO checkout_sessions (cart_id, customer_id, state, cart_fingerprint, email, shipping_address, billing_address,
		lines, subtotal, total, currency, payment_provider, expires_at, created_at)
		VALUES (?, ?, 'EXPIRED', 'f', 'guest@example.com', '{}', '{}', '[]', 100, 100, 'INR', 'simulator', ?, ?)`, checkedOut, customer, old, old)

	admin := uuid.New()
	exec(`INSERT INTO admins (id, email, name, password_hash, role) VALUES (?, ?, 'R', 'x', 'staff')`, admin, "retention-"+admin.String()[:8]+"@example.com")
	adminEmail := func(ref string, sent *time.Time) uuid.UUID {
		id := uuid.New()
		exec(`INSERT INTO admin_emails (id, admin_id, kind, ref, created_at, sent_at) VALUES (?, ?, 'two_factor_lockout', ?, ?, ?)`, id, admin, ref, old, sent)
		return id
	}
	sentLongAgo := adminEmail("old-sent", &old)
	unsent := adminEmail("old-unsent", nil)
	sentRecently := adminEmail("recent-sent", &recent)

	rep, err := retention.Prune(ctx, db, before)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Events != 2503 || rep.GuestCarts != 1 || rep.AdminEmails != 1 {
		t.Fatalf("report %+v, want 2503 events, 1 guest cart and 1 admin email", rep)
	}
	exists := func(table string, id uuid.UUID) bool {
		var n int64
		db.Table(table).Where("id = ?", id).Count(&n)
		return n == 1
	}
	for _, id := range gone {
		if exists("events", id) {
			t.Errorf("event %s kept", id)
		}
	}
	for _, id := range kept {
		if !exists("events", id) {
			t.Errorf("event %s deleted", id)
		}
	}
	if exists("carts", abandoned) {
		t.Error("abandoned guest cart kept")
	}
	for name, id := range map[string]uuid.UUID{"customer's": idleCustomerCart, "recent line": withRecentLine, "checked out": checkedOut} {
		if !exists("carts", id) {
			t.Errorf("%s cart deleted", name)
		}
	}
	if exists("admin_emails", sentLongAgo) {
		t.Error("admin email sent long ago kept")
	}
	if !exists("admin_emails", unsent) || !exists("admin_emails", sentRecently) {
		t.Error("an unsent or recently sent admin email was deleted")
	}
	var attempts, deliveries int64
	db.Table("webhook_delivery_attempts").Count(&attempts)
	db.Table("webhook_deliveries").Count(&deliveries)
	if deliveries != 2 || attempts != 2 {
		t.Errorf("%d deliveries and %d attempts left, want those of the pending and the recent event", deliveries, attempts)
	}

	// A second run finds nothing more.
	if rep, err := retention.Prune(ctx, db, before); err != nil || rep != (retention.Report{}) {
		t.Fatalf("second run: %+v %v", rep, err)
	}
}
