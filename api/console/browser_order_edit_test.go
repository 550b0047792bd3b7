package console_test

import (
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// On the order page an administrator edits a paid order (docs/DECISIONS.md
// "Order edits"): one more unit of its line, previewed first (the new total
// and what the customer will owe, nothing written), then applied after a
// confirmation; the order then owes the difference, and the page offers to
// record that balance or to make a payment link for it.
func TestConsoleEditsAnOrder(t *testing.T) {
	bin := needChromium(t)
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) { c.AdminGeneralRateLimit = 100000 }))
	admin, _ := testkit.MustAdmin(t, app, string(rbac.Admin))
	p := fixtures.MustProduct(t, app.DB, "Kurta", 120000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "Isha"),
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})

	b := newBrowser(t, bin, app.URL)
	b.open("/admin/orders/"+o.ID.String(), app.Config.AppName+" admin")
	signIn(b, admin.Email)
	b.waitHeading("Order " + o.OrderNumber)
	b.press("", "Edit order…")
	b.fill("Edit order", "Units of Kurta", "3")
	b.press("Edit order", "Preview")
	b.waitText("owed by the customer")
	var edits int64
	app.DB.Raw(`SELECT count(*) FROM order_edits WHERE order_id = ?`, o.ID).Scan(&edits)
	if edits != 0 {
		t.Fatalf("a preview wrote %d edits", edits)
	}
	b.press("Edit order", "Apply edit")
	b.waitUntil("the confirmation", `(document.querySelector('dialog[open]') || {innerText: ''}).innerText.includes('New total')`)
	b.press("", "Apply edit") // the confirmation
	b.waitText("Order edited.")
	b.waitText("Record payment…")
	b.press("", "Payment link for the balance")
	b.waitText("payments.simulator.invalid/pl/plink_sim_")
	b.accessible()
	b.check()

	var got models.Order
	app.DB.Preload("Items").Take(&got, "id = ?", o.ID)
	if got.PaymentStatus != models.PaymentPartiallyPaid || got.BalanceDue != 120000 || got.Items[0].Quantity != 3 {
		t.Fatalf("order %s due %s with %d units, want partially_paid, 1200.00 due, 3 units", got.PaymentStatus, got.BalanceDue, got.Items[0].Quantity)
	}
	if after := fixtures.Reload(t, app.DB, v); after.Committed != 3 {
		t.Fatalf("committed %d, want 3", after.Committed)
	}
}
