package draftapi_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// A staff member may build drafts but not set a line's price (403 naming
// items[i].price); an admin may, and the audit entry records the price
// with the one it replaced. The draft's total follows the override.
func TestDraftPriceOverrideNeedsPricingAndIsAudited(t *testing.T) {
	e := newEnv(t)
	p := testkit.MustStoreProduct(t, e.app.DB, testkit.StoreProduct{Price: 49900, GSTRate: 1800})
	body := func(price any) map[string]any {
		item := map[string]any{"variantId": p.Variants[0].ID, "quantity": 2}
		if price != nil {
			item["price"] = price
		}
		return map[string]any{"email": "o-" + uuid.NewString()[:8] + "@example.com", "name": "Owner", "items": []any{item},
			"shippingAddress": address("Karnataka"), "shippingCost": 0}
	}
	if eb := e.do(t, http.MethodPost, draftsPath, e.staff, body(399)).ExpectError(t, http.StatusForbidden, "FORBIDDEN"); eb.Error.Details["field"] != "items[0].price" {
		t.Fatalf("403 names %v", eb.Error.Details)
	}
	plain := e.createDraft(t, e.staff, body(nil))
	if paise(plain["total"]) != 99800 {
		t.Fatalf("staff draft %v", plain)
	}
	d := e.createDraft(t, e.admin, body(399))
	line := d["items"].([]any)[0].(map[string]any)
	if paise(d["total"]) != 79800 || line["priceOverridden"] != true || paise(line["listPrice"]) != 49900 || paise(line["unitPrice"]) != 39900 {
		t.Fatalf("overridden draft %v", d)
	}
	var entry struct{ Metadata []byte }
	e.app.DB.Raw(`SELECT metadata FROM admin_audit_logs WHERE action = 'draft_order.create' AND entity_id = ?`, d["id"]).Scan(&entry)
	var meta struct {
		PriceOverrides []struct {
			VariantID string  `json:"variantId"`
			Price     float64 `json:"price"`
			ListPrice float64 `json:"listPrice"`
		} `json:"priceOverrides"`
	}
	if err := json.Unmarshal(entry.Metadata, &meta); err != nil || len(meta.PriceOverrides) != 1 ||
		meta.PriceOverrides[0].Price != 399 || meta.PriceOverrides[0].ListPrice != 499 {
		t.Fatalf("audit metadata %s (%v)", entry.Metadata, err)
	}
	// A staff PATCH may change other fields of a draft with an override,
	// but not set a price.
	e.do(t, http.MethodPatch, draftsPath+"/"+d["id"].(string), e.staff, map[string]any{"items": body(1)["items"]}).
		ExpectError(t, http.StatusForbidden, "FORBIDDEN")
	got := e.do(t, http.MethodPatch, draftsPath+"/"+d["id"].(string), e.staff, map[string]any{"note": "call back at 5"}).Expect(t, http.StatusOK).Map(t)
	if got["note"] != "call back at 5" || paise(got["total"]) != 79800 {
		t.Fatalf("patched %v", got)
	}
}

// Bad input is 400 naming the field; nothing is written.
func TestDraftValidation(t *testing.T) {
	e := newEnv(t)
	p := testkit.MustStoreProduct(t, e.app.DB, testkit.StoreProduct{})
	good := func() map[string]any {
		return map[string]any{"email": "v@example.com", "name": "V", "items": []any{map[string]any{"variantId": p.Variants[0].ID, "quantity": 1}},
			"shippingAddress": address("Karnataka")}
	}
	tests := []struct {
		name  string
		edit  func(b map[string]any)
		field string
	}{
		{"no buyer", func(b map[string]any) { delete(b, "email"); delete(b, "name") }, "email"},
		{"neither email nor phone", func(b map[string]any) { delete(b, "email") }, "email"},
		{"no name", func(b map[string]any) { delete(b, "name") }, "name"},
		{"bad email", func(b map[string]any) { b["email"] = "nope" }, "email"},
		{"unknown customer", func(b map[string]any) { b["customerId"] = uuid.New() }, "customerId"},
		{"no items", func(b map[string]any) { delete(b, "items") }, "items"},
		{"zero quantity", func(b map[string]any) {
			b["items"] = []any{map[string]any{"variantId": p.Variants[0].ID, "quantity": 0}}
		}, "items[0].quantity"},
		{"unknown variant", func(b map[string]any) { b["items"] = []any{map[string]any{"variantId": uuid.New(), "quantity": 1}} }, "items[0].variantId"},
		{"negative price", func(b map[string]any) {
			b["items"] = []any{map[string]any{"variantId": p.Variants[0].ID, "quantity": 1, "price": -1}}
		}, "items[0].price"},
		{"no address", func(b map[string]any) { delete(b, "shippingAddress") }, "shippingAddress"},
		{"bad pincode", func(b map[string]any) { a := address("Karnataka"); a["pincode"] = "12"; b["shippingAddress"] = a }, "shippingAddress.pincode"},
		{"bad gstin", func(b map[string]any) { b["buyerGstin"] = "29ABCDE1234F1Z0" }, "buyerGstin"},
		{"cost too high", func(b map[string]any) { b["shippingCost"] = 100001 }, "shippingCost"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := good()
			tt.edit(b)
			e.app.Do(t, http.MethodPost, draftsPath, testkit.Req{Token: e.admin, Body: b, Invalid: true}).ExpectField(t, tt.field)
		})
	}
	var n int64
	e.app.DB.Model(&models.DraftOrder{}).Count(&n)
	if n != 0 {
		t.Fatalf("%d drafts written", n)
	}
	e.app.Do(t, http.MethodPost, draftsPath+"/"+uuid.NewString()+"/complete", testkit.Req{Token: e.staff, Body: map[string]any{"payment": "bitcoin"}, Invalid: true}).
		ExpectField(t, "payment")
	e.do(t, http.MethodGet, draftsPath+"/"+uuid.NewString(), e.staff, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
}

// Reading, listing, changing and deleting a draft; what checkout would
// refuse is an issue on the draft and a refusal to complete it; a shortage
// at completion is 409 naming the variant and reserves nothing.
func TestDraftLifecycle(t *testing.T) {
	e := newEnv(t)
	p := testkit.MustStoreProduct(t, e.app.DB, testkit.StoreProduct{Price: 10000, Variants: []testkit.StoreVariant{{Inventory: 2}}})
	c, _ := testkit.MustCustomer(t, e.app)
	d := e.createDraft(t, e.staff, map[string]any{"customerId": c.ID, "items": []any{map[string]any{"variantId": p.Variants[0].ID, "quantity": 3}},
		"shippingAddress": address("Karnataka"), "discountCode": "NOSUCHCODE"})
	id := d["id"].(string)
	if d["email"] != c.Email || d["name"] != c.Name || d["status"] != "open" || len(d["issues"].([]any)) != 1 || d["discountMessage"] == nil {
		t.Fatalf("draft %v", d)
	}
	e.do(t, http.MethodPost, draftsPath+"/"+id+"/complete", e.staff, map[string]any{"payment": "link"}).ExpectError(t, http.StatusConflict, "CONFLICT")
	d = e.do(t, http.MethodPatch, draftsPath+"/"+id, e.staff, map[string]any{"discountCode": ""}).Expect(t, http.StatusOK).Map(t)
	if d["discountCode"] != nil || len(d["issues"].([]any)) != 0 {
		t.Fatalf("code removed: %v", d)
	}
	short := e.do(t, http.MethodPost, draftsPath+"/"+id+"/complete", e.staff, map[string]any{"payment": "link"}).ExpectError(t, http.StatusConflict, "CONFLICT")
	if short.Error.Details["variantId"] != p.Variants[0].ID.String() {
		t.Fatalf("shortage %v", short.Error.Details)
	}
	if _, reserved, _ := counters(t, e.app, p.Variants[0].ID); reserved != 0 {
		t.Fatalf("a refused completion reserved %d", reserved)
	}
	list := e.do(t, http.MethodGet, draftsPath+"?customerId="+c.ID.String(), e.staff, nil).Expect(t, http.StatusOK).Map(t)
	if data := list["data"].([]any); len(data) != 1 || data[0].(map[string]any)["id"] != id {
		t.Fatalf("list %v", list)
	}
	e.do(t, http.MethodDelete, draftsPath+"/"+id, e.staff, nil).Expect(t, http.StatusNoContent)
	e.do(t, http.MethodGet, draftsPath+"/"+id, e.staff, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
}
