package catalogapi_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/pricing"
	"github.com/google/uuid"
)

func TestPriceLists(t *testing.T) {
	e := newEnv(t)
	g := e.group(t)
	gid := g["id"].(string)
	p := e.product(t, map[string]any{"price": 100})
	v1, v2 := e.variant(t, p["id"].(string), nil)["id"].(string), e.variant(t, p["id"].(string), nil)["id"].(string)

	l := e.create(t, "/price-lists", map[string]any{
		"name": "Trade", "customerGroupId": gid, "priority": 5,
		"rules": []any{map[string]any{"variantId": v1, "price": 70, "compareAtPrice": 100}},
	})
	if l["isActive"] != true || l["priority"] != 5.0 || len(l["rules"].([]any)) != 1 {
		t.Fatalf("got %v", l)
	}
	path := "/price-lists/" + l["id"].(string)
	resolve := func(vid string) pricing.Price {
		t.Helper()
		group, id := uuid.MustParse(gid), uuid.MustParse(vid)
		got, err := pricing.Resolve(context.Background(), e.app.DB, &group, []uuid.UUID{id})
		if err != nil {
			t.Fatal(err)
		}
		return got[id]
	}
	if pr := resolve(v1); pr.Amount != 7000 || pr.Source != pricing.SourcePriceList {
		t.Fatalf("effective %+v", pr)
	}

	t.Run("rules are replaced; other fields stay", func(t *testing.T) {
		got := e.do(t, http.MethodPatch, path, map[string]any{"rules": []any{map[string]any{"variantId": v2, "price": 60}}}).Expect(t, http.StatusOK).Map(t)
		rules := got["rules"].([]any)
		if len(rules) != 1 || rules[0].(map[string]any)["variantId"] != v2 || got["name"] != "Trade" || got["priority"] != 5.0 {
			t.Fatalf("got %v", got)
		}
		if pr := resolve(v1); pr.Source != pricing.SourceProduct {
			t.Fatalf("v1 still priced by the list: %+v", pr)
		}
	})
	t.Run("inactive lists do not price", func(t *testing.T) {
		e.do(t, http.MethodPatch, path, map[string]any{"isActive": false}).Expect(t, http.StatusOK)
		if pr := resolve(v2); pr.Source != pricing.SourceProduct {
			t.Fatalf("got %+v", pr)
		}
	})
	t.Run("get and list", func(t *testing.T) {
		if got := e.as(t, "viewer").do(t, http.MethodGet, path, nil).Expect(t, http.StatusOK).Map(t); got["isActive"] != false {
			t.Fatalf("got %v", got)
		}
		var list productList
		e.do(t, http.MethodGet, "/price-lists?customerGroupId="+gid, nil).Expect(t, http.StatusOK).JSON(t, &list)
		if list.Pagination.Total != 1 {
			t.Fatalf("list %+v", list.Pagination)
		}
		e.do(t, http.MethodGet, "/price-lists?customerGroupId="+uuid.NewString(), nil).Expect(t, http.StatusOK).JSON(t, &list)
		if list.Pagination.Total != 0 {
			t.Fatalf("list %+v", list.Pagination)
		}
	})
	ok := map[string]any{"name": "L", "customerGroupId": gid}
	rule := func(r map[string]any) map[string]any {
		return with(ok, map[string]any{"rules": []any{map[string]any{"variantId": v1, "price": 10}, r}})
	}
	e.expectFields(t, http.MethodPost, "/price-lists", []fieldCase{
		{name: "name missing", body: with(ok, map[string]any{"name": nil}), field: "name"},
		{name: "group missing", body: with(ok, map[string]any{"customerGroupId": nil}), field: "customerGroupId", issue: "is required"},
		{name: "group unknown", body: with(ok, map[string]any{"customerGroupId": uuid.NewString()}), field: "customerGroupId", issue: "does not exist"},
		{name: "group malformed", body: with(ok, map[string]any{"customerGroupId": "x"}), field: "customerGroupId"},
		{name: "rule variant unknown", body: rule(map[string]any{"variantId": uuid.NewString(), "price": 1}), field: "rules[1].variantId"},
		{name: "rule variant malformed", body: rule(map[string]any{"variantId": "v", "price": 1}), field: "rules[1].variantId"},
		{name: "rule variant twice", body: rule(map[string]any{"variantId": v1, "price": 1}), field: "rules[1].variantId"},
		{name: "rule price zero", body: rule(map[string]any{"variantId": v2, "price": 0}), field: "rules[1].price"},
		{name: "rule price bad money", body: rule(map[string]any{"variantId": v2, "price": 0.001}), field: "rules[1].price"},
		{name: "rule compare-at below price", body: rule(map[string]any{"variantId": v2, "price": 5, "compareAtPrice": 4}), field: "rules[1].compareAtPrice"},
		{name: "priority huge", body: with(ok, map[string]any{"priority": 2000000}), field: "priority"},
	})
	e.expectFields(t, http.MethodPatch, path, []fieldCase{
		{name: "name null", body: map[string]any{"name": null}, field: "name"},
		{name: "group null", body: map[string]any{"customerGroupId": null}, field: "customerGroupId"},
		{name: "group unknown", body: map[string]any{"customerGroupId": uuid.NewString()}, field: "customerGroupId"},
		{name: "rule price", body: map[string]any{"rules": []any{map[string]any{"variantId": v1, "price": -1}}}, field: "rules[0].price"},
		{name: "rule variant unknown", body: map[string]any{"rules": []any{map[string]any{"variantId": uuid.NewString(), "price": 1}}}, field: "rules[0].variantId"},
	})
	e.as(t, "staff").do(t, http.MethodPost, "/price-lists", ok).ExpectError(t, http.StatusForbidden, "FORBIDDEN")
	e.do(t, http.MethodDelete, path, nil).Expect(t, http.StatusNoContent)
	e.do(t, http.MethodGet, path, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	e.do(t, http.MethodPatch, path, map[string]any{"name": "x"}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	e.do(t, http.MethodDelete, path, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
}
