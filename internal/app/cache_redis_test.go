package app_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/redis/go-redis/v9"
)

// With CACHE_REDIS_URL set, the application cache (product pages, list
// pages, availability) lives on that Redis and nowhere else, and clearing
// the cache clears it there; queues and rate limits stay on REDIS_URL.
func TestCacheUsesCacheRedisURL(t *testing.T) {
	cacheRDB, cacheURL := testkit.MustRedis(t)
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) { c.CacheRedisURL = cacheURL }))
	if app.CacheRedis == app.Redis {
		t.Fatal("the cache shares the queues' client although CACHE_REDIS_URL names another Redis")
	}
	prefix := app.Config.CachePrefix
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Title: "Cached tee"})
	app.Do(t, "GET", "/products", testkit.Req{}).Expect(t, http.StatusOK)
	app.Do(t, "GET", "/products/"+p.ID.String(), testkit.Req{}).Expect(t, http.StatusOK)

	if n := len(keys(t, cacheRDB, prefix+"*")); n == 0 {
		t.Fatalf("no %s* key on CACHE_REDIS_URL after two storefront reads", prefix)
	}
	if k := keys(t, app.Redis, prefix+"*"); len(k) > 0 {
		t.Fatalf("cache keys on REDIS_URL: %v", k)
	}

	_, super := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	if len(keys(t, app.Redis, "shop:ratelimit:*")) == 0 {
		app.Do(t, "GET", "/api/v1/admin/auth/me", testkit.Req{Token: super}).Expect(t, http.StatusOK)
	}
	body := app.Do(t, "POST", "/api/v1/admin/system/cache/clear", testkit.Req{Token: super,
		Body: map[string]any{"pattern": "*", "confirm": true}}).Expect(t, http.StatusOK).Map(t)
	if cleared, _ := body["cleared"].(float64); cleared == 0 {
		t.Fatalf("cache clear answered %v, want the keys of CACHE_REDIS_URL cleared", body)
	}
	if k := keys(t, cacheRDB, prefix+"*"); len(k) > 0 {
		t.Fatalf("cache keys left on CACHE_REDIS_URL after a clear: %v", k)
	}
	if len(keys(t, app.Redis, "shop:ratelimit:*")) == 0 {
		t.Fatal("no rate-limit counter on REDIS_URL: the admin requests should count there")
	}
}

// Unset, the cache shares the one client of REDIS_URL.
func TestCacheSharesRedisByDefault(t *testing.T) {
	app := testkit.MustApp(t)
	if app.CacheRedis != app.Redis {
		t.Fatal("without CACHE_REDIS_URL the cache opened a second client")
	}
}

func keys(t *testing.T, rdb *redis.Client, pattern string) []string {
	t.Helper()
	var out []string
	iter := rdb.Scan(context.Background(), 0, pattern, 500).Iterator()
	for iter.Next(context.Background()) {
		if !strings.HasPrefix(iter.Val(), "shoptest:") {
			out = append(out, iter.Val())
		}
	}
	if err := iter.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
