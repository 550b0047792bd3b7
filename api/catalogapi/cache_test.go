package catalogapi_test

import (
	"context"
	"net/http"
	"testing"
)

// TestWritesInvalidateCatalogCache: every catalog write bumps the version of
// the "catalog" cache namespace that storefront product reads live under.
func TestWritesInvalidateCatalogCache(t *testing.T) {
	e := newEnv(t)
	key := e.app.Config.CachePrefix + "catalog:version"
	version := func() int64 {
		n, _ := e.app.Redis.Get(context.Background(), key).Int64()
		return n
	}
	bumps := func(name string, write func()) {
		t.Helper()
		before := version()
		write()
		if version() <= before {
			t.Errorf("%s did not invalidate the catalog cache", name)
		}
	}
	var p, v, col, g map[string]any
	bumps("product create", func() { p = e.product(t, nil) })
	pid := p["id"].(string)
	bumps("product update", func() { e.do(t, http.MethodPatch, "/products/"+pid, map[string]any{"title": "x"}).Expect(t, 200) })
	bumps("variant create", func() { v = e.variant(t, pid, nil) })
	vid := v["id"].(string)
	bumps("variant update", func() { e.do(t, http.MethodPatch, "/variants/"+vid, map[string]any{"size": "S"}).Expect(t, 200) })
	bumps("inventory", func() {
		e.do(t, http.MethodPatch, "/variants/"+vid+"/inventory", map[string]any{"operation": "add", "inventory": 1}).Expect(t, 200)
	})
	bumps("pricing", func() {
		e.do(t, http.MethodPatch, "/products/"+pid+"/pricing", map[string]any{"price": 5}).Expect(t, 200)
	})
	bumps("category", func() { e.category(t, nil) })
	bumps("collection", func() { col = e.create(t, "/collections", map[string]any{"name": "C"}) })
	bumps("collection add", func() {
		e.do(t, http.MethodPost, "/collections/"+col["id"].(string)+"/products/"+pid, nil).Expect(t, http.StatusNoContent)
	})
	g = e.group(t)
	bumps("price list", func() {
		e.create(t, "/price-lists", map[string]any{"name": "L", "customerGroupId": g["id"], "rules": []any{map[string]any{"variantId": vid, "price": 1}}})
	})
	bumps("bundle", func() { e.create(t, "/bundles", map[string]any{"title": "B"}) })
	bumps("group delete", func() {
		e.do(t, http.MethodDelete, "/customer-groups/"+g["id"].(string), nil).Expect(t, http.StatusNoContent)
	})
	bumps("variant delete", func() { e.do(t, http.MethodDelete, "/variants/"+vid, nil).Expect(t, http.StatusNoContent) })
	bumps("product delete", func() { e.do(t, http.MethodDelete, "/products/"+pid, nil).Expect(t, http.StatusNoContent) })
}
