package catalogapi_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
)

// A product's GST rate is one of the 2025 schedule's or 12 or 28; its cess
// rate and unit are kept and answered; an active goods product needs a 4, 6
// or 8 digit HSN code (6 or 8 once the turnover is above 5 crore), a service
// a SAC starting 99.
func TestProductRatesUnitsAndHSN(t *testing.T) {
	e := newEnv(t)
	for _, rate := range []float64{0, 0.25, 1.5, 3, 5, 12, 18, 28, 40} {
		// Loudspeakers (8518): no value rule decides their rate.
		p := e.product(t, map[string]any{"gstRate": rate, "hsnCode": "8518", "status": "active"})
		if p["gstRate"].(float64) != rate || p["cessRate"].(float64) != 0 || p["unit"] != "NOS" || p["scheduledGstRate"] != nil {
			t.Fatalf("rate %v: %v", rate, p)
		}
	}
	for _, rate := range []float64{7, 2.5, 0.1} {
		e.invalid(t, http.MethodPost, "/products", map[string]any{"title": "X", "price": 10, "gstRate": rate}).ExpectField(t, "gstRate")
	}
	tobacco := e.product(t, map[string]any{"gstRate": 28, "cessRate": 12, "unit": "PCS", "hsnCode": "24022090", "status": "active"})
	if tobacco["cessRate"].(float64) != 12 || tobacco["unit"] != "PCS" {
		t.Fatalf("cess product: %v", tobacco)
	}
	e.invalid(t, http.MethodPost, "/products", map[string]any{"title": "X", "price": 10, "gstRate": 5, "cessRate": -1}).
		ExpectField(t, "cessRate")
	e.invalid(t, http.MethodPost, "/products", map[string]any{"title": "X", "price": 10, "gstRate": 5, "unit": "PIECES"}).
		ExpectField(t, "unit")
	id := tobacco["id"].(string)
	got := e.do(t, http.MethodPatch, "/products/"+id, map[string]any{"unit": "BOX", "cessRate": 0}).Expect(t, http.StatusOK).Map(t)
	if got["unit"] != "BOX" || got["cessRate"].(float64) != 0 {
		t.Fatalf("patched: %v", got)
	}
	e.invalid(t, http.MethodPatch, "/products/"+id, map[string]any{"unit": "box"}).ExpectField(t, "unit")

	// HSN and SAC.
	for _, bad := range []string{"", "123", "12345", "610910A", "9901"} {
		e.do(t, http.MethodPost, "/products", map[string]any{"title": "X", "price": 10, "gstRate": 5, "hsnCode": bad, "status": "active"}).
			ExpectField(t, "hsnCode")
	}
	e.product(t, map[string]any{"hsnCode": "998599", "status": "active"}) // a service's SAC
	e.product(t, map[string]any{"hsnCode": "", "status": "draft"})        // a draft may wait
	draft := e.product(t, map[string]any{"hsnCode": "", "status": "draft"})["id"].(string)
	e.do(t, http.MethodPatch, "/products/"+draft, map[string]any{"status": "active"}).ExpectField(t, "hsnCode")
	e.do(t, http.MethodPatch, "/products/"+draft, map[string]any{"status": "active", "hsnCode": "6109"}).Expect(t, http.StatusOK)
	e.do(t, http.MethodPatch, "/products/"+draft, map[string]any{"hsnCode": ""}).ExpectField(t, "hsnCode")

	// Above 5 crore: 6 or 8 digits.
	_, super := testkit.MustAdmin(t, e.app, string(rbac.SuperAdmin))
	g := "29AABCS1429B1Z"
	g += string(gstin.CheckChar(g))
	e.app.Do(t, http.MethodPut, admin+"/settings/tax", testkit.Req{Token: super, Body: map[string]any{
		"legalName": "Sahyadri Handlooms Private Limited", "gstin": g, "turnoverAbove5Cr": true,
		"address": map[string]any{"line1": "14 Commercial Street", "line2": "", "city": "Bengaluru", "state": "Karnataka",
			"pincode": "560001"}}}).
		Expect(t, http.StatusOK)
	e.do(t, http.MethodPost, "/products", map[string]any{"title": "X", "price": 10, "gstRate": 5, "hsnCode": "6109", "status": "active"}).
		ExpectField(t, "hsnCode")
	e.product(t, map[string]any{"hsnCode": "610910", "status": "active"})
	e.product(t, map[string]any{"hsnCode": "61091000", "status": "active"})
}

// Active products without an HSN code from before the rule keep selling
// and can be changed; missingHsn lists them and the health report says
// hsn_missing until the last has a code.
func TestMissingHSN(t *testing.T) {
	e := newEnv(t)
	_, super := testkit.MustAdmin(t, e.app, string(rbac.SuperAdmin))
	g := "29AABCS1429B1Z"
	g += string(gstin.CheckChar(g))
	e.app.Do(t, http.MethodPut, admin+"/settings/tax", testkit.Req{Token: super, Body: map[string]any{
		"legalName": "Sahyadri Handlooms Private Limited", "gstin": g,
		"address": map[string]any{"line1": "14 Commercial Street", "line2": "", "city": "Bengaluru", "state": "Karnataka",
			"pincode": "560001"}}}).
		Expect(t, http.StatusOK)
	health := func() string {
		var h struct {
			Services struct {
				TaxDocuments string `json:"taxDocuments"`
			} `json:"services"`
		}
		e.do(t, http.MethodGet, "/health", nil).Expect(t, http.StatusOK).JSON(t, &h)
		return h.Services.TaxDocuments
	}
	e.product(t, map[string]any{"status": "active"}) // with its code
	e.product(t, map[string]any{"hsnCode": "", "status": "draft"})
	if got := health(); got != "ok" {
		t.Fatalf("taxDocuments %q with every active product coded, want ok", got)
	}
	legacy := fixtures.MustProduct(t, e.app.DB, "Legacy lamp", 99900) // active, no code: written before the rule
	var page struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	e.do(t, http.MethodGet, "/products?missingHsn=true", nil).Expect(t, http.StatusOK).JSON(t, &page)
	if len(page.Data) != 1 || page.Data[0].ID != legacy.ID.String() {
		t.Fatalf("missingHsn lists %+v, want only %s", page.Data, legacy.ID)
	}
	if got := health(); got != "hsn_missing" {
		t.Fatalf("taxDocuments %q, want hsn_missing", got)
	}
	// It keeps working: a change that is not its code or status is taken.
	e.do(t, http.MethodPatch, "/products/"+legacy.ID.String(), map[string]any{"title": "Legacy lamp II"}).Expect(t, http.StatusOK)
	e.do(t, http.MethodPatch, "/products/"+legacy.ID.String(), map[string]any{"hsnCode": "9405"}).Expect(t, http.StatusOK)
	e.do(t, http.MethodGet, "/products?missingHsn=true", nil).Expect(t, http.StatusOK).JSON(t, &page)
	if len(page.Data) != 0 {
		t.Fatalf("missingHsn lists %+v after the code was set", page.Data)
	}
	if got := health(); got != "ok" {
		t.Fatalf("taxDocuments %q, want ok", got)
	}
}
