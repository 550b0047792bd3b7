package testkit

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// RedisServerURL is the Redis server tests use: TEST_REDIS_URL, else
// REDIS_URL, else the local default. Its database index is ignored.
func RedisServerURL() string {
	for _, k := range []string{"TEST_REDIS_URL", "REDIS_URL"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	return "redis://127.0.0.1:6379/0"
}

// MustRedis leases a Redis database index (1..15) for tb, flushed before and
// after use, so concurrently running test packages never share keys or
// queues. Index 0 is left to `make run`.
func MustRedis(tb testing.TB) (*redis.Client, string) {
	tb.Helper()
	ctx := context.Background()
	base := RedisServerURL()
	lockOpt, err := redis.ParseURL(base)
	if err != nil {
		tb.Fatalf("testkit: redis url: %v", err)
	}
	lockOpt.DB = 0
	locks := redis.NewClient(lockOpt)
	defer locks.Close()
	token := uuid.NewString()
	deadline := time.Now().Add(3 * time.Minute)
	for {
		for n := 1; n <= 15; n++ {
			ok, err := locks.SetNX(ctx, fmt.Sprintf("shoptest:redis-db:%d", n), token, 30*time.Minute).Result()
			if err != nil {
				tb.Fatalf("testkit: redis: %v", err)
			}
			if !ok {
				continue
			}
			u, _ := url.Parse(base)
			u.Path = fmt.Sprintf("/%d", n)
			opt, _ := redis.ParseURL(u.String())
			rdb := redis.NewClient(opt)
			rdb.FlushDB(ctx)
			tb.Cleanup(func() {
				rdb.FlushDB(context.Background())
				rdb.Close()
				release(base, n, token)
			})
			return rdb, u.String()
		}
		if time.Now().After(deadline) {
			tb.Fatal("testkit: no free Redis database index")
		}
		time.Sleep(200 * time.Millisecond)
	}
}

var releaseScript = redis.NewScript(`if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`)

func release(base string, n int, token string) {
	opt, err := redis.ParseURL(base)
	if err != nil {
		return
	}
	opt.DB = 0
	c := redis.NewClient(opt)
	defer c.Close()
	releaseScript.Run(context.Background(), c, []string{fmt.Sprintf("shoptest:redis-db:%d", n)}, token)
}
