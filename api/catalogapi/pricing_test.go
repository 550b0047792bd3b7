package catalogapi_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/pricing"
	"github.com/google/uuid"
)

func TestUpdatePricing(t *testing.T) {
	e := newEnv(t)
	p := e.product(t, map[string]any{"price": 100})
	id := p["id"].(string)
	path := "/products/" + id + "/pricing"
	gold, silver := e.group(t)["id"].(string), e.group(t)["id"].(string)

	got := e.do(t, http.MethodPatch, path, map[string]any{
		"price": 90, "compareAtPrice": 120, "customerGroupOverrides": map[string]any{gold: 80, silver: 85.5},
	}).Expect(t, http.StatusOK).Map(t)
	if got["price"] != 90.0 || got["compareAtPrice"] != 120.0 {
		t.Fatalf("got %v", got)
	}
	if o := got["customerGroupOverrides"].(map[string]any); len(o) != 2 || o[gold] != 80.0 || o[silver] != 85.5 {
		t.Fatalf("overrides %v", o)
	}

	t.Run("overrides reach the effective price", func(t *testing.T) {
		v := e.variant(t, id, nil)
		vid := uuid.MustParse(v["id"].(string))
		g := uuid.MustParse(gold)
		prices, err := pricing.Resolve(context.Background(), e.app.DB, &g, []uuid.UUID{vid})
		if err != nil || prices[vid].Amount != 8000 || prices[vid].Source != pricing.SourceGroupOverride {
			t.Fatalf("price %+v, err %v", prices[vid], err)
		}
	})
	t.Run("overrides replace the whole set; absent leaves them", func(t *testing.T) {
		got := e.do(t, http.MethodPatch, path, map[string]any{"customerGroupOverrides": map[string]any{silver: 70}}).Expect(t, http.StatusOK).Map(t)
		if o := got["customerGroupOverrides"].(map[string]any); len(o) != 1 || o[silver] != 70.0 {
			t.Fatalf("overrides %v", o)
		}
		got = e.do(t, http.MethodPatch, path, map[string]any{"price": 95}).Expect(t, http.StatusOK).Map(t)
		if o := got["customerGroupOverrides"].(map[string]any); len(o) != 1 {
			t.Fatalf("overrides %v", o)
		}
		got = e.do(t, http.MethodPatch, path, map[string]any{"customerGroupOverrides": null, "compareAtPrice": null}).Expect(t, http.StatusOK).Map(t)
		if o := got["customerGroupOverrides"].(map[string]any); len(o) != 0 || got["compareAtPrice"] != nil {
			t.Fatalf("got %v", got)
		}
	})
	e.do(t, http.MethodPatch, path, map[string]any{"compareAtPrice": 100}).Expect(t, http.StatusOK)
	e.expectFields(t, http.MethodPatch, path, []fieldCase{
		{name: "price zero", body: map[string]any{"price": 0}, field: "price", issue: "must be greater than 0"},
		{name: "price null", body: map[string]any{"price": null}, field: "price"},
		{name: "compare-at below price", body: map[string]any{"price": 50, "compareAtPrice": 40}, field: "compareAtPrice"},
		{name: "price above stored compare-at", body: map[string]any{"price": 150}, field: "price"},
		{name: "compare-at zero", body: map[string]any{"compareAtPrice": 0}, field: "compareAtPrice"},
		{name: "unknown group", body: map[string]any{"customerGroupOverrides": map[string]any{uuid.NewString(): 10}}, field: "customerGroupOverrides"},
		{name: "key not a uuid", body: map[string]any{"customerGroupOverrides": map[string]any{"wholesale": 10}}, field: "customerGroupOverrides"},
		{name: "override zero", body: map[string]any{"customerGroupOverrides": map[string]any{gold: 0}}, field: "customerGroupOverrides"},
		{name: "override bad money", body: map[string]any{"customerGroupOverrides": map[string]any{gold: 1.001}}, field: "customerGroupOverrides"},
		{name: "overrides not an object", body: map[string]any{"customerGroupOverrides": []int{1}}, field: "customerGroupOverrides"},
	})
	t.Run("a refused change changes nothing", func(t *testing.T) {
		e.do(t, http.MethodPatch, path, map[string]any{"price": 1, "customerGroupOverrides": map[string]any{uuid.NewString(): 10}}).ExpectField(t, "customerGroupOverrides")
		if got := e.do(t, http.MethodGet, "/products/"+id, nil).Expect(t, http.StatusOK).Map(t); got["price"] != 95.0 {
			t.Fatalf("price %v", got["price"])
		}
	})
	e.do(t, http.MethodPatch, "/products/"+uuid.NewString()+"/pricing", map[string]any{"price": 1}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	e.as(t, "staff").do(t, http.MethodPatch, path, map[string]any{"price": 1}).ExpectError(t, http.StatusForbidden, "FORBIDDEN")
}
