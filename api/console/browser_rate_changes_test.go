package console_test

import (
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

type rateChangeView struct {
	ID            string      `json:"id"`
	HSNPrefix     *string     `json:"hsnPrefix"`
	ProductIDs    []uuid.UUID `json:"productIds"`
	GSTRate       money.Rate  `json:"gstRate"`
	EffectiveFrom string      `json:"effectiveFrom"`
	Status        string      `json:"status"`
}

func rateChanges(t *testing.T, app *testkit.App, token string) []rateChangeView {
	t.Helper()
	var list struct {
		Data []rateChangeView `json:"data"`
	}
	app.Do(t, "GET", "/api/v1/admin/tax/rate-changes", testkit.Req{Token: token}).Expect(t, 200).JSON(t, &list)
	return list.Data
}

// A staff member schedules a GST rate change for a product picked by name
// on the rate changes page (the server's refusal of an HSN prefix shows
// beside the field), sees it listed as pending, and withdraws it after a
// confirmation; a viewer sees the list without the form or the withdraw
// button. The page stays within its request budget.
func TestConsoleGSTRateChanges(t *testing.T) {
	bin := needChromium(t)
	app := testkit.MustApp(t)
	staff, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	viewer, _ := testkit.MustAdmin(t, app, string(rbac.Viewer))
	kurta := fixtures.MustProduct(t, app.DB, "Cotton Kurta", 129900)
	fixtures.MustProduct(t, app.DB, "Linen Shirt", 189900)
	day := time.Now().In(catalog.IST).AddDate(0, 0, 30).Format(time.DateOnly)

	b := newBrowser(t, bin, app.URL)
	b.open("/admin/products", app.Config.AppName+" admin")
	signIn(b, staff.Email)
	b.waitHeading("Products")
	if n := b.visit("/rate-changes"); n > pageBudget {
		t.Errorf("the rate changes page cost %d requests, more than %d", n, pageBudget)
	}
	b.waitText("No rate change is scheduled.")
	b.accessible()

	// The server checks the prefix: its refusal sits beside the field.
	form := "Schedule a rate change"
	b.fill(form, "HSN code prefix", "6")
	b.fill(form, "New GST rate", "5")
	b.fill(form, "Effective from", day)
	b.press(form, "Schedule rate change")
	b.waitUntil("the prefix error beside the prefix", `(() => {
		const l = [...document.querySelectorAll('label')].find((l) => l.textContent.startsWith('HSN code prefix'));
		const input = document.getElementById(l.htmlFor);
		return input.getAttribute('aria-invalid') === 'true' &&
			document.getElementById(input.id + '-err').textContent === 'HSN code prefix must be 2 to 8 digits';
	})()`)
	if got := rateChanges(t, app, token); len(got) != 0 {
		t.Fatalf("a refused form scheduled %+v", got)
	}

	b.fill(form, "HSN code prefix", "")
	b.pick(form, "Products", "Cotton", "Cotton Kurta")
	b.press(form, "Schedule rate change")
	b.waitText("Scheduled: the change to 5%")
	b.waitUntil("the pending change listed", `(() => {
		const row = document.querySelector('main table tbody tr');
		return !!row && row.textContent.includes('Pending') && row.textContent.includes('Cotton Kurta') && row.textContent.includes('5%');
	})()`)
	got := rateChanges(t, app, token)
	if len(got) != 1 || got[0].Status != "pending" || got[0].HSNPrefix != nil || len(got[0].ProductIDs) != 1 ||
		got[0].ProductIDs[0] != kurta.ID || got[0].GSTRate != 500 || got[0].EffectiveFrom != day {
		t.Fatalf("rate changes %+v, want one pending for Cotton Kurta at 5%% from %s", got, day)
	}
	b.accessible()

	// Withdrawing asks first; keeping it changes nothing.
	b.press("", "Withdraw")
	b.waitUntil("the confirmation", `!!document.querySelector('dialog.confirm[open]')`)
	b.press("", "Keep rate change")
	if got := rateChanges(t, app, token); got[0].Status != "pending" {
		t.Fatalf("keeping the change made it %s", got[0].Status)
	}
	b.press("", "Withdraw")
	b.press("", "Withdraw rate change")
	b.waitText("Withdrawn: the change to 5%")
	b.waitUntil("the change shown withdrawn", `(() => {
		const row = document.querySelector('main table tbody tr');
		return !!row && row.textContent.includes('Withdrawn') && !row.querySelector('button');
	})()`)
	if got := rateChanges(t, app, token); got[0].Status != "withdrawn" {
		t.Fatalf("the change is %s after withdrawing", got[0].Status)
	}
	b.check()

	// A viewer reads the list, with no write the API would refuse.
	v := b.newTab(t)
	v.open("/admin/rate-changes", app.Config.AppName+" admin")
	signIn(v, viewer.Email)
	v.waitHeading("GST rate changes")
	v.waitText("Cotton Kurta")
	if n := eval[int](v, `document.querySelectorAll('main form[aria-label="Schedule a rate change"], main table button').length`); n != 0 {
		t.Fatalf("a viewer sees %d write controls", n)
	}
	v.check()
}
