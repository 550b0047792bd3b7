package console_test

import (
	"os"
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// On the order page a staff member cancels the units of a partly shipped
// order that will not ship (docs/DECISIONS.md "Returned units and unshipped units"): the
// button names how many are left, a confirmation says what happens, and the
// page then shows them cancelled, the order shipped and fulfilled, and the
// fulfil form gone; their commitment is released.
func TestConsoleCancelsUnshippedUnits(t *testing.T) {
	bin := testkit.Chromium()
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium not installed: CI must run the console browser tests (scripts/chromium.sh)")
		}
		t.Skip("chromium not installed (run `make chromium` or scripts/chromium.sh); skipping the console browser test")
	}
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) { c.AdminGeneralRateLimit = 100000 }))
	staff, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	p := fixtures.MustProduct(t, app.DB, "Kurta", 120000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "Isha"),
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 3}}})
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/fulfillments", testkit.Req{Token: token, Body: map[string]any{
		"carrier": "Delhivery", "trackingNumber": "DL1", "items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 1}}}}).
		Expect(t, 201)

	b := newBrowser(t, bin, app.URL)
	b.open("/admin/orders/"+o.ID.String(), app.Config.AppName+" admin")
	signIn(b, staff.Email)
	b.waitHeading("Order " + o.OrderNumber)
	b.press("", "Cancel 2 unshipped units…")
	b.waitUntil("the confirmation", `(document.querySelector('dialog[open]') || {innerText: ''}).innerText.includes('Refund the payment separately.')`)
	b.press("", "Cancel units") // the confirmation
	b.waitText("Unshipped units cancelled; their stock is released.")
	b.waitUntil("the cancelled column and no fulfil form", `[...document.querySelectorAll('main th')].some((th) => th.textContent === 'Cancelled')
		&& !document.querySelector('form[aria-label="Fulfil"]')
		&& ![...document.querySelectorAll('main button')].some((e) => e.textContent.startsWith('Cancel 2 unshipped'))`)
	b.accessible()
	b.check()

	var got models.Order
	app.DB.Preload("Items").Take(&got, "id = ?", o.ID)
	if got.Status != models.OrderShipped || got.FulfillmentStatus != models.FulfillmentFulfilled || got.Items[0].CancelledQuantity != 2 {
		t.Fatalf("order %s/%s with %d units cancelled, want shipped/fulfilled with 2", got.Status, got.FulfillmentStatus, got.Items[0].CancelledQuantity)
	}
	if after := fixtures.Reload(t, app.DB, v); after.Committed != 0 || after.Inventory != 9 {
		t.Fatalf("stock %d on hand, %d committed; want 9 and 0", after.Inventory, after.Committed)
	}
}
