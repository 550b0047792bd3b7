package console_test

import (
	"slices"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// mustTaxSettings sets the store's tax identity through the API.
func mustTaxSettings(t *testing.T, app *testkit.App, token string) {
	t.Helper()
	g := "29AABCS1429B1Z"
	app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: token, Body: map[string]any{
		"legalName": "Sahyadri Handlooms Private Limited", "gstin": g + string(gstin.CheckChar(g)),
		"address": map[string]any{"line1": "14 Commercial Street", "line2": "Shivajinagar", "city": "Bengaluru", "state": "Karnataka", "pincode": "560001"}}}).
		Expect(t, 200)
}

// productRows are the titles the products list shows.
const productRows = `[...document.querySelectorAll('main table tbody tr')].map((tr) => tr.querySelector('a').textContent)`

// While an active product has no HSN code (health's taxDocuments
// hsn_missing), the dashboard says how many and links to the products list
// filtered to them, which shows exactly that product (not the draft
// without a code, not the one with a code); the list's own "Missing HSN
// code" filter does the same. The product form explains the code and
// offers the units; setting the code there clears the warning. A product
// a pending rate change names shows the scheduled rate in the list and on
// its page.
func TestConsoleMissingHSNAndScheduledRate(t *testing.T) {
	bin := needChromium(t)
	app := testkit.MustApp(t)
	_, owner := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	staff, _ := testkit.MustAdmin(t, app, string(rbac.Staff))
	mustTaxSettings(t, app, owner)
	saree := fixtures.MustProduct(t, app.DB, "Handloom Saree", 349900)
	if err := app.DB.Model(&models.Product{}).Where("id = ?", saree.ID).Update("hsn_code", "5208").Error; err != nil {
		t.Fatal(err)
	}
	shawl := fixtures.MustProduct(t, app.DB, "Legacy Shawl", 99900)
	stole := fixtures.MustProduct(t, app.DB, "Draft Stole", 59900)
	if err := app.DB.Model(&models.Product{}).Where("id = ?", stole.ID).Update("status", models.ProductDraft).Error; err != nil {
		t.Fatal(err)
	}
	day := time.Now().In(catalog.IST).AddDate(0, 0, 10).Format(time.DateOnly)
	app.Do(t, "POST", "/api/v1/admin/tax/rate-changes", testkit.Req{Token: owner,
		Body: map[string]any{"hsnPrefix": "52", "gstRate": 5, "effectiveFrom": day}}).Expect(t, 201)

	b := newBrowser(t, bin, app.URL)
	b.open("/admin/", app.Config.AppName+" admin")
	signIn(b, staff.Email)
	b.waitHeading("Dashboard")
	b.waitText("1 active product has no HSN code")
	b.accessible()
	b.press("", "Show the product")
	b.waitUntil("the filtered list", `location.search === '?missingHsn=true' && !!document.querySelector('main table tbody tr')`)
	if rows := eval[[]string](b, productRows); !slices.Equal(rows, []string{"Legacy Shawl"}) {
		t.Fatalf("the missing-HSN list shows %v, want only Legacy Shawl", rows)
	}
	if !eval[bool](b, `(() => { const l = [...document.querySelectorAll('main label')].find((l) => l.textContent.startsWith('Missing HSN code'));
		return !!l && document.getElementById(l.htmlFor).checked; })()`) {
		t.Fatal("the Missing HSN code filter is not shown ticked")
	}

	// The filter from the list's own form, and back.
	b.visit("/products")
	b.waitText("Handloom Saree")
	b.fill("Find products", "Missing HSN code", "true")
	b.press("Find products", "Search")
	b.waitUntil("the filter applied", `location.search.includes('missingHsn=true') && document.querySelectorAll('main table tbody tr').length === 1`)
	if rows := eval[[]string](b, productRows); !slices.Equal(rows, []string{"Legacy Shawl"}) {
		t.Fatalf("the Missing HSN code filter shows %v", rows)
	}
	b.fill("Find products", "Missing HSN code", "false")
	b.press("Find products", "Search")
	b.waitUntil("the whole list", `!location.search.includes('missingHsn') && document.querySelectorAll('main table tbody tr').length === 3`)
	// The scheduled rate beside the saree's rate.
	b.waitUntil("the saree's scheduled rate", `[...document.querySelectorAll('main table tbody tr')].some((tr) =>
		tr.textContent.includes('Handloom Saree') && tr.querySelector('.scheduled-rate')?.textContent.startsWith('5% from'))`)

	// The saree's page: its rate, and the change waiting.
	b.visit("/products/" + saree.ID.String())
	b.waitText("Changes to 5% from")
	b.visit("/products/" + shawl.ID.String())
	b.waitText("An active product needs one: 4, 6 or 8 digits")
	b.fill("Product details", "HSN code", "6214")
	b.fill("Product details", "Unit (UQC)", "PCS")
	b.fill("Product details", "Compensation cess (%)", "0")
	b.press("Product details", "Save product")
	b.waitText("Product saved.")
	var got models.Product
	if err := app.DB.Take(&got, "id = ?", shawl.ID).Error; err != nil {
		t.Fatal(err)
	}
	if got.HSNCode != "6214" || got.Unit != "PCS" {
		t.Fatalf("the shawl saved with HSN %q unit %q", got.HSNCode, got.Unit)
	}
	b.accessible()
	b.visit("/")
	b.waitHeading("Dashboard")
	if eval[bool](b, `!!document.querySelector('.hsn-warning')`) {
		t.Fatal("the dashboard still warns with every active product coded")
	}
	b.check()
}
