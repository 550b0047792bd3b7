package catalogapi_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/discount"
	"github.com/google/uuid"
)

func TestCreateDiscount(t *testing.T) {
	e := newEnv(t)
	d := e.create(t, "/discounts", map[string]any{
		"code": "summer-25", "type": "PERCENTAGE", "value": 12.5, "scope": "ORDER", "minOrderAmount": 999.99,
		"usageLimit": 100, "customerUsageLimit": 1, "startDate": "2026-06-01T00:00:00Z", "endDate": "2026-06-30T23:59:59+05:30",
		"usageCount": 50,
	})
	for k, want := range map[string]any{"code": "SUMMER-25", "type": "PERCENTAGE", "valueType": "PERCENTAGE", "value": 12.5,
		"applicationType": "MANUAL", "scope": "ORDER", "minOrderAmount": 999.99, "usageLimit": 100.0, "customerUsageLimit": 1.0,
		"usageCount": 0.0, "isActive": true, "startDate": "2026-06-01T00:00:00Z", "endDate": "2026-06-30T18:29:59Z"} {
		if d[k] != want {
			t.Errorf("%s = %v, want %v", k, d[k], want)
		}
	}
	t.Run("the code is found case-insensitively by the storefront", func(t *testing.T) {
		target, err := discount.LoadByCode(context.Background(), e.app.DB, "Summer-25")
		if err != nil || target.Discount.Value != 1250 {
			t.Fatalf("target %+v err %v", target, err)
		}
	})
	t.Run("codes are unique without case", func(t *testing.T) {
		eb := e.do(t, http.MethodPost, "/discounts", map[string]any{"code": "SUMMER-25", "valueType": "FIXED_AMOUNT", "value": 10}).
			ExpectError(t, http.StatusConflict, "CONFLICT")
		if eb.Error.Details["field"] != "code" {
			t.Fatalf("details %v", eb.Error.Details)
		}
	})
	t.Run("valueType alone, fixed amount, automatic without code, product scope", func(t *testing.T) {
		p := e.product(t, nil)
		cat := e.category(t, nil)
		d := e.create(t, "/discounts", map[string]any{"valueType": "FIXED_AMOUNT", "value": 150, "applicationType": "AUTOMATIC",
			"scope": "PRODUCT", "productIds": []any{p["id"], p["id"]}, "categoryIds": []any{cat["id"]}, "isActive": false})
		if d["type"] != "FIXED_AMOUNT" || d["valueType"] != "FIXED_AMOUNT" || d["value"] != 150.0 || d["code"] != nil || d["isActive"] != false {
			t.Fatalf("got %v", d)
		}
		if ps := d["productIds"].([]any); len(ps) != 1 || ps[0] != p["id"] {
			t.Fatalf("productIds %v", ps)
		}
		if cs := d["categoryIds"].([]any); len(cs) != 1 || cs[0] != cat["id"] {
			t.Fatalf("categoryIds %v", cs)
		}
	})
	ok := map[string]any{"code": "OK10", "type": "PERCENTAGE", "value": 10}
	e.expectFields(t, http.MethodPost, "/discounts", []fieldCase{
		{name: "no type", body: with(ok, map[string]any{"type": nil}), field: "type"},
		{name: "unknown type", body: with(ok, map[string]any{"type": "BOGO"}), field: "type"},
		{name: "type and valueType differ", body: with(ok, map[string]any{"valueType": "FIXED_AMOUNT"}), field: "valueType"},
		{name: "percentage zero", body: with(ok, map[string]any{"value": 0}), field: "value", issue: "must be greater than 0"},
		{name: "percentage over 100", body: with(ok, map[string]any{"value": 100.01}), field: "value"},
		{name: "fixed zero", body: with(ok, map[string]any{"type": "FIXED_AMOUNT", "value": 0}), field: "value"},
		{name: "fixed negative", body: with(ok, map[string]any{"type": "FIXED_AMOUNT", "value": -1}), field: "value"},
		{name: "value three decimals", body: with(ok, map[string]any{"value": 1.234}), field: "value"},
		{name: "manual without code", body: with(ok, map[string]any{"code": nil}), field: "code"},
		{name: "code with spaces", body: with(ok, map[string]any{"code": "TWO WORDS"}), field: "code"},
		{name: "unknown application type", body: with(ok, map[string]any{"applicationType": "SOMETIMES"}), field: "applicationType"},
		{name: "unknown scope", body: with(ok, map[string]any{"scope": "CART"}), field: "scope"},
		{name: "product scope without targets", body: with(ok, map[string]any{"scope": "PRODUCT"}), field: "productIds"},
		{name: "order scope with products", body: with(ok, map[string]any{"productIds": []any{uuid.NewString()}}), field: "productIds"},
		{name: "unknown product", body: with(ok, map[string]any{"scope": "PRODUCT", "productIds": []any{uuid.NewString()}}), field: "productIds"},
		{name: "unknown category", body: with(ok, map[string]any{"scope": "PRODUCT", "categoryIds": []any{uuid.NewString()}}), field: "categoryIds"},
		{name: "malformed product id", body: with(ok, map[string]any{"scope": "PRODUCT", "productIds": []any{"x"}}), field: "productIds[0]"},
		{name: "start after end", body: with(ok, map[string]any{"startDate": "2026-02-01T00:00:00Z", "endDate": "2026-01-01T00:00:00Z"}), field: "endDate"},
		{name: "start equals end", body: with(ok, map[string]any{"startDate": "2026-02-01T00:00:00Z", "endDate": "2026-02-01T00:00:00Z"}), field: "endDate"},
		{name: "bad date", body: with(ok, map[string]any{"startDate": "next tuesday"}), field: "startDate"},
		{name: "min order negative", body: with(ok, map[string]any{"minOrderAmount": -1}), field: "minOrderAmount"},
		{name: "usage limit zero", body: with(ok, map[string]any{"usageLimit": 0}), field: "usageLimit"},
		{name: "customer limit zero", body: with(ok, map[string]any{"customerUsageLimit": 0}), field: "customerUsageLimit"},
	})
	t.Run("percentage of exactly 100 is allowed", func(t *testing.T) {
		e.create(t, "/discounts", with(ok, map[string]any{"code": "FREE", "value": 100}))
	})
	e.as(t, "staff").do(t, http.MethodPost, "/discounts", ok).ExpectError(t, http.StatusForbidden, "FORBIDDEN")
}

func TestUpdateListDeleteDiscount(t *testing.T) {
	e := newEnv(t)
	d := e.create(t, "/discounts", map[string]any{"code": "TEN", "type": "PERCENTAGE", "value": 10, "usageLimit": 5,
		"startDate": "2026-01-01T00:00:00Z", "endDate": "2026-12-31T00:00:00Z"})
	path := "/discounts/" + d["id"].(string)
	e.exec(t, `UPDATE discounts SET usage_count = 3 WHERE id = ?`, d["id"])

	got := e.do(t, http.MethodPatch, path, map[string]any{"value": 15, "usageLimit": null, "endDate": null, "usageCount": 0, "code": "ten-plus"}).
		Expect(t, http.StatusOK).Map(t)
	for k, want := range map[string]any{"value": 15.0, "usageLimit": nil, "endDate": nil, "startDate": "2026-01-01T00:00:00Z",
		"usageCount": 3.0, "code": "TEN-PLUS", "type": "PERCENTAGE"} {
		if got[k] != want {
			t.Errorf("%s = %v, want %v", k, got[k], want)
		}
	}
	t.Run("switching type re-checks the value", func(t *testing.T) {
		got := e.do(t, http.MethodPatch, path, map[string]any{"valueType": "FIXED_AMOUNT", "value": 250}).Expect(t, http.StatusOK).Map(t)
		if got["type"] != "FIXED_AMOUNT" || got["valueType"] != "FIXED_AMOUNT" || got["value"] != 250.0 {
			t.Fatalf("got %v", got)
		}
		e.do(t, http.MethodPatch, path, map[string]any{"type": "PERCENTAGE"}).ExpectField(t, "value") // 250 % is too much
	})
	t.Run("scope PRODUCT then back to ORDER", func(t *testing.T) {
		p := e.product(t, nil)
		got := e.do(t, http.MethodPatch, path, map[string]any{"scope": "PRODUCT", "productIds": []any{p["id"]}}).Expect(t, http.StatusOK).Map(t)
		if len(got["productIds"].([]any)) != 1 {
			t.Fatalf("got %v", got)
		}
		got = e.do(t, http.MethodPatch, path, map[string]any{"scope": "ORDER"}).Expect(t, http.StatusOK).Map(t)
		if len(got["productIds"].([]any)) != 0 {
			t.Fatalf("got %v", got)
		}
	})
	e.expectFields(t, http.MethodPatch, path, []fieldCase{
		{name: "code null on a manual discount", body: map[string]any{"code": null}, field: "code"},
		{name: "value null", body: map[string]any{"value": null}, field: "value"},
		{name: "value zero", body: map[string]any{"value": 0}, field: "value"},
		{name: "start after stored end", body: map[string]any{"endDate": "2025-01-01T00:00:00Z"}, field: "endDate"},
		{name: "scope product without targets", body: map[string]any{"scope": "PRODUCT"}, field: "productIds"},
		{name: "type unknown", body: map[string]any{"type": "X"}, field: "type"},
	})
	t.Run("automatic discounts may drop their code", func(t *testing.T) {
		got := e.do(t, http.MethodPatch, path, map[string]any{"applicationType": "AUTOMATIC", "code": null}).Expect(t, http.StatusOK).Map(t)
		if got["code"] != nil || got["applicationType"] != "AUTOMATIC" {
			t.Fatalf("got %v", got)
		}
	})
	t.Run("code taken", func(t *testing.T) {
		e.create(t, "/discounts", map[string]any{"code": "OTHER", "type": "PERCENTAGE", "value": 5})
		e.do(t, http.MethodPatch, path, map[string]any{"code": "other"}).ExpectError(t, http.StatusConflict, "CONFLICT")
	})
	t.Run("list and get", func(t *testing.T) {
		var l productList
		e.as(t, "viewer").do(t, http.MethodGet, "/discounts", nil).Expect(t, http.StatusOK).JSON(t, &l)
		if l.Pagination.Total != 2 {
			t.Fatalf("list %+v", l.Pagination)
		}
		e.do(t, http.MethodGet, "/discounts?applicationType=AUTOMATIC", nil).Expect(t, http.StatusOK).JSON(t, &l)
		if l.Pagination.Total != 1 || l.Data[0].ID != d["id"] {
			t.Fatalf("list %+v", l)
		}
		e.do(t, http.MethodGet, "/discounts?isActive=false", nil).Expect(t, http.StatusOK).JSON(t, &l)
		if l.Pagination.Total != 0 {
			t.Fatalf("list %+v", l.Pagination)
		}
		e.invalid(t, http.MethodGet, "/discounts?isActive=maybe", nil).ExpectField(t, "isActive")
		e.invalid(t, http.MethodGet, "/discounts?applicationType=X", nil).ExpectField(t, "applicationType")
		e.do(t, http.MethodGet, path, nil).Expect(t, http.StatusOK)
	})
	e.do(t, http.MethodDelete, path, nil).Expect(t, http.StatusNoContent)
	e.do(t, http.MethodGet, path, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	e.do(t, http.MethodPatch, path, map[string]any{"value": 1}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	e.do(t, http.MethodDelete, path, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	e.invalid(t, http.MethodGet, "/discounts/x", nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
}
