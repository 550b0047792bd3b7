package ratelimit_test

import (
	"context"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/ratelimit"
	"github.com/gocommerce/shop/internal/testkit"
)

func TestWindowAndRetryAfter(t *testing.T) {
	rdb, _ := testkit.MustRedis(t)
	l := ratelimit.New(rdb)
	ctx := context.Background()
	var res ratelimit.Result
	for i := 1; i <= 4; i++ {
		var err error
		if res, err = l.Allow(ctx, "k", 3, 10*time.Second); err != nil {
			t.Fatal(err)
		}
		if want := i <= 3; res.Allowed != want {
			t.Fatalf("request %d allowed=%v", i, res.Allowed)
		}
	}
	if res.Remaining != 0 || res.Limit != 3 {
		t.Fatalf("%+v", res)
	}
	now := time.Now()
	if s := res.RetryAfterSeconds(); s < 9 || s > 10 {
		t.Fatalf("Retry-After %d s for a 10 s window", s)
	}
	if res.Reset.Before(now) || res.Reset.After(now.Add(10*time.Second+time.Second)) || res.Reset.Nanosecond() != 0 {
		t.Fatalf("reset %s", res.Reset)
	}
}
