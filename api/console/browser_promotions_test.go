package console_test

import (
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// The discounts page creates each promotion type (buy X get Y over a
// product, spend tiers, free shipping), shows what each gives and what it
// combines with, puts the API's complaint beside the field it names, and
// edits a tier. A draft order's preview lists the promotions applied.
func TestConsolePromotions(t *testing.T) {
	bin := needChromium(t)
	app := testkit.MustApp(t)
	admin, token := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	kurta := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Title: "Indigo kurta", Price: 99900})
	row := func(b *browser, text string) string {
		return eval[string](b, `(() => {
			const tr = [...document.querySelectorAll('main tbody tr')].find((r) => r.innerText.includes(`+"`"+text+"`"+`));
			return tr ? tr.innerText.replace(/\s+/g, ' ').trim() : '';
		})()`)
	}

	b := newBrowser(t, bin, app.URL)
	b.open("/admin/discounts", app.Config.AppName+" admin")
	signIn(b, admin.Email)
	b.waitHeading("Discounts")

	b.press("", "New discount")
	b.fill("New discount", "Description", "Kurta: buy 2 get 1")
	b.fill("New discount", "Type", "buy_x_get_y")
	b.fill("New discount", "Applied", "AUTOMATIC")
	b.fill("New discount", "Buy X: units", "2")
	b.pick("New discount", "Buy X: products", "Indigo", "Indigo kurta")
	b.fill("New discount", "Get Y: units", "1")
	b.press("New discount", "Create discount")
	b.waitUntil("the get side's error", `document.body.innerText.includes("name the products by productIds, collectionIds or categoryIds")`)
	b.pick("New discount", "Get Y: products", "Indigo", "Indigo kurta")
	b.tick(`form[aria-label="New discount"] input[type=checkbox][value=order]`)
	b.press("New discount", "Create discount")
	b.waitText("Discount created.")
	if got := row(b, "Kurta: buy 2 get 1"); !strings.Contains(got, "Buy 2 get 1 free") || !strings.Contains(got, "Indigo kurta") ||
		!strings.Contains(got, "order discounts") {
		t.Fatalf("buy X get Y row %q", got)
	}

	b.press("", "New discount")
	b.fill("New discount", "Code", "SPENDMORE")
	b.fill("New discount", "Description", "Spend more, save more")
	b.fill("New discount", "Type", "tiered")
	b.fill("New discount", "Spend tiers", "1499: 200\n2999: 10%")
	b.press("New discount", "Create discount")
	b.waitUntil("the tiered row", `[...document.querySelectorAll('main tbody tr')].some((r) => r.innerText.includes('SPENDMORE'))`)
	if got := row(b, "SPENDMORE"); !strings.Contains(got, "₹1,499.00+: ₹200.00; ₹2,999.00+: 10%") {
		t.Fatalf("tiered row %q", got)
	}

	b.press("", "New discount")
	b.fill("New discount", "Description", "Free shipping over 999")
	b.fill("New discount", "Type", "free_shipping")
	b.fill("New discount", "Applied", "AUTOMATIC")
	b.fill("New discount", "Free shipping from", "999")
	b.press("New discount", "Create discount")
	b.waitUntil("the free shipping row", `[...document.querySelectorAll('main tbody tr')].some((r) => r.innerText.includes('Free shipping over 999'))`)
	if got := row(b, "Free shipping over 999"); !strings.Contains(got, "Free shipping from ₹999.00") || !strings.Contains(got, "Every zone") {
		t.Fatalf("free shipping row %q", got)
	}

	b.press("", "Edit SPENDMORE")
	b.fill("Edit discount", "Spend tiers", "1499: 250\n2999: 10%")
	b.press("Edit discount", "Save")
	b.waitUntil("the edited row", `[...document.querySelectorAll('main tbody tr')].some((r) => r.innerText.includes('₹250.00'))`)
	if got := row(b, "SPENDMORE"); !strings.Contains(got, "₹1,499.00+: ₹250.00") {
		t.Fatalf("edited tiered row %q", got)
	}
	var d models.Discount
	if err := app.DB.Take(&d, "code = ?", "SPENDMORE").Error; err != nil {
		t.Fatal(err)
	}
	if len(d.Rules.Tiers) != 2 || d.Rules.Tiers[0].AmountOff == nil || *d.Rules.Tiers[0].AmountOff != 25000 {
		t.Fatalf("stored tiers %+v", d.Rules.Tiers)
	}

	// Three kurtas in a draft: the automatic buy 2 get 1 frees one, and
	// the preview says so.
	var draft struct{ ID string }
	app.Do(t, "POST", "/api/v1/admin/draft-orders", testkit.Req{Token: token, Body: map[string]any{
		"email": "kiran@example.com", "name": "Kiran Rao", "phone": "+91 98450 11111", "shippingCost": 0,
		"items":           []any{map[string]any{"variantId": kurta.Variants[0].ID.String(), "quantity": 3}},
		"shippingAddress": map[string]any{"street": "3 Park Street", "city": "Mysuru", "state": "Karnataka", "pincode": "570001", "country": "India"}}}).
		Expect(t, 201).JSON(t, &draft)
	b.open("/admin/draft-orders/"+draft.ID, "Draft order for Kiran Rao")
	b.waitUntil("the promotions applied", `(document.querySelector('.draft-totals ul.applied-discounts') || {}).innerText === 'Kurta: buy 2 get 1 − ₹999.00'`)
	b.accessible()
}
