package cache_test

import (
	"context"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/cache"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/redis/go-redis/v9"
)

func TestGetSetInvalidate(t *testing.T) {
	rdb, _ := testkit.MustRedis(t)
	ctx := context.Background()
	c := cache.New(rdb, "shop:cache:", time.Minute, true)

	var got string
	hit, v := c.Get(ctx, "catalog", "product:1", &got)
	if hit {
		t.Fatal("hit on empty cache")
	}
	c.Set(ctx, "catalog", v, "product:1", "tee")
	if hit, _ := c.Get(ctx, "catalog", "product:1", &got); !hit || got != "tee" {
		t.Fatalf("hit=%v got=%q", hit, got)
	}
	if err := c.Invalidate(ctx, "catalog"); err != nil {
		t.Fatal(err)
	}
	if hit, _ := c.Get(ctx, "catalog", "product:1", &got); hit {
		t.Fatal("hit after invalidation")
	}
	// A value computed before the invalidation, stored late, stays invisible.
	c.Set(ctx, "catalog", v, "product:1", "stale")
	if hit, _ := c.Get(ctx, "catalog", "product:1", &got); hit {
		t.Fatal("stale write became visible")
	}
}

func TestClearStaysInNamespace(t *testing.T) {
	rdb, _ := testkit.MustRedis(t)
	ctx := context.Background()
	c := cache.New(rdb, "shop:cache:", time.Minute, true)
	for _, k := range []string{"shop:cache:catalog:0:a", "shop:cache:catalog:0:b", "asynq:{default}:pending", "shop:ratelimit:x", "shop:webhook:dup:1"} {
		rdb.Set(ctx, k, "1", 0)
	}
	n, err := c.Clear(ctx, "*")
	if err != nil || n != 2 {
		t.Fatalf("cleared %d err %v", n, err)
	}
	for _, k := range []string{"asynq:{default}:pending", "shop:ratelimit:x", "shop:webhook:dup:1"} {
		if rdb.Exists(ctx, k).Val() != 1 {
			t.Fatalf("%s was removed", k)
		}
	}
	if _, err := c.Clear(ctx, "a\r\nFLUSHALL"); err != cache.ErrBadPattern {
		t.Fatalf("pattern with a newline: %v", err)
	}
}

func TestDisabledCacheMisses(t *testing.T) {
	rdb, _ := testkit.MustRedis(t)
	c := cache.New(rdb, "shop:cache:", time.Minute, false)
	c.Set(context.Background(), "catalog", "0", "k", 1)
	var n int
	if hit, _ := c.Get(context.Background(), "catalog", "k", &n); hit {
		t.Fatal("disabled cache hit")
	}
}

// The process's Cache sees its own invalidation at once, although it
// remembers the version it read; another process (another Cache and client)
// sees it within VersionTTL.
func TestInvalidationAcrossReplicas(t *testing.T) {
	rdb, url := testkit.MustRedis(t)
	ctx := context.Background()
	local := cache.New(rdb, "shop:cache:", time.Minute, true)
	opt, _ := redis.ParseURL(url)
	otherProcess := redis.NewClient(opt)
	defer otherProcess.Close()
	replica := cache.New(otherProcess, "shop:cache:", time.Minute, true)

	v0 := local.Version(ctx, "catalog")
	if replica.Version(ctx, "catalog") != v0 {
		t.Fatal("replica disagrees on the first version")
	}
	if err := local.Invalidate(ctx, "catalog"); err != nil {
		t.Fatal(err)
	}
	if local.Version(ctx, "catalog") == v0 {
		t.Fatal("the invalidating Cache still reads the old version")
	}
	testkit.Eventually(t, cache.VersionTTL+time.Second, "the replica to see the new version", func() bool {
		return replica.Version(ctx, "catalog") != v0
	})
}
