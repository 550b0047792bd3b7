package invoiceapi_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
)

// The tax identity: not set, the health report says so; an admin may not
// set it; a GSTIN with a changed check character or another state's code
// is refused naming gstin; so is a valid GSTIN of another state than the
// default location's (Karnataka: checkout charges GST from it); the
// change is audited.
func TestTaxSettings(t *testing.T) {
	app := testkit.MustApp(t)
	_, super := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	_, admin := testkit.MustAdmin(t, app, string(rbac.Admin))
	_, viewer := testkit.MustAdmin(t, app, string(rbac.Viewer))

	var got map[string]any
	app.Do(t, "GET", "/api/v1/admin/settings/tax", testkit.Req{Token: viewer}).Expect(t, http.StatusOK).JSON(t, &got)
	if got["configured"] != false || got["invoicePrefix"] != "INV" || got["creditNotePrefix"] != "CN" || got["b2clLimit"] != 100000.0 {
		t.Fatalf("defaults %v", got)
	}
	healthIs(t, app, viewer, "not_configured")

	app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: admin, Body: settingsBody(storeGSTIN, "Karnataka")}).
		ExpectError(t, http.StatusForbidden, "FORBIDDEN")

	changed := storeGSTIN[:14] + string("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[(indexOf(storeGSTIN[14])+1)%36])
	for _, tt := range []struct {
		name, gstin, state string
	}{
		{"changed check character", changed, "Karnataka"},
		{"state code of another state", storeGSTIN, "Kerala"},
		{"not 15 characters", storeGSTIN[:14], "Karnataka"},
		{"not the pattern", "29ABCDE12345Z1Z", "Karnataka"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: super, Body: settingsBody(tt.gstin, tt.state)}).
				ExpectField(t, "gstin")
		})
	}
	healthIs(t, app, viewer, "not_configured")

	for _, tt := range []struct{ code, state string }{{"27", "Maharashtra"}, {"33", "Tamil Nadu"}, {"07", "Delhi"}} {
		app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: super, Body: settingsBody(gstinOf(tt.code, "AAFCV2449G"), tt.state)}).
			ExpectField(t, "gstin")
	}
	healthIs(t, app, viewer, "not_configured")
	g := gstinOf("29", "AAFCV2449G")
	body := settingsBody(g, "karnataka")
	body["invoicePrefix"], body["b2clLimit"] = "inv", 250000
	app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: super, Body: body}).Expect(t, http.StatusOK).JSON(t, &got)
	if got["gstin"] != g || got["configured"] != true || got["invoicePrefix"] != "INV" || got["b2clLimit"] != 250000.0 {
		t.Fatalf("karnataka: %v", got)
	}
	healthIs(t, app, viewer, "ok")

	// A retried save with the same Idempotency-Key is answered from the
	// first, not applied twice.
	keyed := testkit.Req{Token: super, Body: settingsBody(storeGSTIN, "Karnataka"), Headers: map[string]string{"Idempotency-Key": "tax-1"}}
	app.Do(t, "PUT", "/api/v1/admin/settings/tax", keyed).Expect(t, http.StatusOK)
	if r := app.Do(t, "PUT", "/api/v1/admin/settings/tax", keyed).Expect(t, http.StatusOK); r.Header.Get("Idempotent-Replayed") != "true" {
		t.Fatal("the repeat was not replayed")
	}

	body = settingsBody(storeGSTIN, "Karnataka")
	body["creditNotePrefix"] = "INV"
	app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: super, Body: body}).ExpectField(t, "creditNotePrefix")
	body = settingsBody(storeGSTIN, "Karnataka")
	body["invoicePrefix"] = "FCN" // the financial credit notes' series
	app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: super, Body: body}).ExpectField(t, "invoicePrefix")
	body = settingsBody(storeGSTIN, "Karnataka")
	body["address"].(map[string]any)["pincode"] = "56001"
	app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: super, Body: body}).ExpectField(t, "address.pincode")

	var n int64
	app.DB.Table("admin_audit_logs").Where("action = ?", "tax_settings.update").Count(&n)
	if n != 2 {
		t.Fatalf("%d audit entries, want one per change made (2)", n)
	}
}

func indexOf(c byte) int {
	for i, x := range "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ" {
		if byte(x) == c {
			return i
		}
	}
	return -1
}

func healthIs(t *testing.T, app *testkit.App, token, want string) {
	t.Helper()
	var h struct {
		Services struct {
			TaxDocuments string `json:"taxDocuments"`
		} `json:"services"`
	}
	app.Do(t, "GET", "/api/v1/admin/health", testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &h)
	if h.Services.TaxDocuments != want {
		t.Fatalf("health taxDocuments %q, want %q", h.Services.TaxDocuments, want)
	}
}
