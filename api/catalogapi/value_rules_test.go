package catalogapi_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/taxrule"
	"github.com/gocommerce/shop/internal/testkit"
)

type valueRule struct {
	ID          string   `json:"id"`
	HSNPrefixes []string `json:"hsnPrefixes"`
	Threshold   float64  `json:"threshold"`
	RateUpTo    float64  `json:"rateUpTo"`
	RateAbove   float64  `json:"rateAbove"`
}

// Every store starts with the GST 2.0 apparel rule; a rule is created with
// its fields checked (400 naming the field, never 500), a prefix another
// rule has is 409, and a viewer reads but cannot write. A product answers
// the rule of its longest prefix and the rate at its price, on the admin
// product, the admin list and the storefront; deleting the rule gives it
// back its own rate.
func TestValueRulesCRUDAndTheProductAnswer(t *testing.T) {
	e := newEnv(t)
	var list struct{ Data []valueRule }
	e.do(t, http.MethodGet, "/tax/value-rules", nil).Expect(t, http.StatusOK).JSON(t, &list)
	if len(list.Data) != 1 || list.Data[0].ID != taxrule.GST2Apparel.String() || list.Data[0].Threshold != 2500 ||
		list.Data[0].RateUpTo != 5 || list.Data[0].RateAbove != 18 || len(list.Data[0].HSNPrefixes) != 4 ||
		list.Data[0].HSNPrefixes[0] != "61" || list.Data[0].HSNPrefixes[3] != "64" {
		t.Fatalf("a new store's rules: %+v", list.Data)
	}

	ok := map[string]any{"hsnPrefixes": []any{"6109", "640399"}, "threshold": 1000, "rateUpTo": 5, "rateAbove": 18}
	e.expectFields(t, http.MethodPost, "/tax/value-rules", []fieldCase{
		{name: "no prefixes", body: with(ok, map[string]any{"hsnPrefixes": []any{}}), field: "hsnPrefixes"},
		{name: "prefixes missing", body: with(ok, map[string]any{"hsnPrefixes": nil}), field: "hsnPrefixes"},
		{name: "one digit", body: with(ok, map[string]any{"hsnPrefixes": []any{"6"}}), field: "hsnPrefixes[0]"},
		{name: "nine digits", body: with(ok, map[string]any{"hsnPrefixes": []any{"61", "610910001"}}), field: "hsnPrefixes[1]"},
		{name: "letters", body: with(ok, map[string]any{"hsnPrefixes": []any{"61A"}}), field: "hsnPrefixes[0]"},
		{name: "twice", body: with(ok, map[string]any{"hsnPrefixes": []any{"6109", "6109"}}), field: "hsnPrefixes[1]"},
		{name: "threshold missing", body: with(ok, map[string]any{"threshold": nil}), field: "threshold"},
		{name: "threshold zero", body: with(ok, map[string]any{"threshold": 0}), field: "threshold"},
		{name: "threshold negative", body: with(ok, map[string]any{"threshold": -1}), field: "threshold"},
		{name: "threshold of three decimals", body: with(ok, map[string]any{"threshold": 10.001}), field: "threshold"},
		{name: "rateUpTo missing", body: with(ok, map[string]any{"rateUpTo": nil}), field: "rateUpTo"},
		{name: "rateUpTo not a GST rate", body: with(ok, map[string]any{"rateUpTo": 7}), field: "rateUpTo"},
		{name: "rateAbove not a GST rate", body: with(ok, map[string]any{"rateAbove": 20}), field: "rateAbove"},
		{name: "rates the wrong way", body: with(ok, map[string]any{"rateUpTo": 18, "rateAbove": 5}), field: "rateAbove"},
		{name: "rates equal", body: with(ok, map[string]any{"rateUpTo": 5, "rateAbove": 5}), field: "rateAbove"},
	})
	e.do(t, http.MethodPost, "/tax/value-rules", with(ok, map[string]any{"hsnPrefixes": []any{"62", "95"}})).
		ExpectError(t, http.StatusConflict, "CONFLICT")
	e.do(t, http.MethodDelete, "/tax/value-rules/"+taxrule.GST2Apparel.String()[:35]+"9", nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	e.do(t, http.MethodDelete, "/tax/value-rules/nope", nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	viewer := e.as(t, "viewer")
	viewer.do(t, http.MethodGet, "/tax/value-rules", nil).Expect(t, http.StatusOK)
	viewer.do(t, http.MethodPost, "/tax/value-rules", ok).ExpectError(t, http.StatusForbidden, "FORBIDDEN")

	// 6109 under both: the new rule's four digits beat the chapter's two.
	// A ₹999 tee is ₹951.43 taxable at 5 %: under 1000, 5 %; at ₹1,099
	// (1046.67), above: 18 %.
	var tees valueRule
	e.do(t, http.MethodPost, "/tax/value-rules", ok).Expect(t, http.StatusCreated).JSON(t, &tees)
	if tees.ID == "" || len(tees.HSNPrefixes) != 2 || tees.HSNPrefixes[1] != "640399" || tees.Threshold != 1000 {
		t.Fatalf("created %+v", tees)
	}
	var audits int64
	e.app.DB.Raw(`SELECT count(*) FROM admin_audit_logs WHERE action = 'tax.value_rule_create' AND entity_id = ?`, tees.ID).Scan(&audits)
	if audits != 1 {
		t.Fatalf("%d audit entries of the create", audits)
	}
	cheap := e.product(t, map[string]any{"price": 999, "gstRate": 12, "hsnCode": "61091000", "status": "active"})
	dear := e.product(t, map[string]any{"price": 1099, "gstRate": 12, "hsnCode": "6109", "status": "active"})
	shirt := e.product(t, map[string]any{"price": 1099, "gstRate": 12, "hsnCode": "6205", "status": "active"})
	speaker := e.product(t, map[string]any{"price": 1099, "gstRate": 12, "hsnCode": "8518", "status": "active"})
	want := map[string]struct {
		rule string
		rate float64
	}{cheap["id"].(string): {tees.ID, 5}, dear["id"].(string): {tees.ID, 18},
		shirt["id"].(string): {taxrule.GST2Apparel.String(), 5}, speaker["id"].(string): {"", 12}}
	check := func(where string, p map[string]any) {
		t.Helper()
		w := want[p["id"].(string)]
		rule, _ := p["gstRule"].(string)
		if rule != w.rule || p["gstRate"].(float64) != w.rate {
			t.Fatalf("%s: gstRule %v gstRate %v, want %q %v", where, p["gstRule"], p["gstRate"], w.rule, w.rate)
		}
	}
	for _, p := range []map[string]any{cheap, dear, shirt, speaker} {
		check("created", p)
		id := p["id"].(string)
		check("admin product", e.do(t, http.MethodGet, "/products/"+id, nil).Expect(t, http.StatusOK).Map(t))
		check("storefront product", e.app.Do(t, http.MethodGet, "/products/"+id, testkit.Req{}).Expect(t, http.StatusOK).Map(t))
	}
	var page struct{ Data []map[string]any }
	e.do(t, http.MethodGet, "/products?limit=100", nil).Expect(t, http.StatusOK).JSON(t, &page)
	for _, p := range page.Data {
		if _, ok := want[p["id"].(string)]; ok {
			check("admin list", p)
		}
	}

	// Deleted, the tees fall back to the chapter's rule (₹1,099 is 5 %
	// there); the speaker was never under one. A second delete is 404.
	e.do(t, http.MethodDelete, "/tax/value-rules/"+tees.ID, nil).Expect(t, http.StatusNoContent)
	e.do(t, http.MethodDelete, "/tax/value-rules/"+tees.ID, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	want[cheap["id"].(string)] = struct {
		rule string
		rate float64
	}{taxrule.GST2Apparel.String(), 5}
	want[dear["id"].(string)] = want[cheap["id"].(string)]
	for _, p := range []map[string]any{cheap, dear} {
		id := p["id"].(string)
		check("after the delete", e.do(t, http.MethodGet, "/products/"+id, nil).Expect(t, http.StatusOK).Map(t))
		check("storefront after the delete", e.app.Do(t, http.MethodGet, "/products/"+id, testkit.Req{}).Expect(t, http.StatusOK).Map(t))
	}
	e.app.DB.Raw(`SELECT count(*) FROM admin_audit_logs WHERE action = 'tax.value_rule_delete' AND entity_id = ?
		AND metadata->>'threshold' = '1000'`, tees.ID).Scan(&audits)
	if audits != 1 {
		t.Fatalf("%d audit entries of the delete with the rule's terms", audits)
	}
}
