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

// A request counted in two buckets reports the refusing one, else the one
// with fewer requests left.
func TestTighter(t *testing.T) {
	rdb, _ := testkit.MustRedis(t)
	l := ratelimit.New(rdb)
	ctx := context.Background()
	allow := func(key string, limit int) ratelimit.Result {
		res, err := l.Allow(ctx, key, limit, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	wide, narrow := allow("wide", 30), allow("narrow", 10)
	if got := ratelimit.Tighter(wide, narrow); got.Limit != 10 || got.Remaining != 9 {
		t.Fatalf("tighter of 29/30 and 9/10: %+v", got)
	}
	allow("full", 1)
	full := allow("full", 1)
	if got := ratelimit.Tighter(full, narrow); got.Allowed || got.Limit != 1 {
		t.Fatalf("a refusal must win: %+v", got)
	}
	if got := ratelimit.Tighter(narrow, full); got.Allowed || got.Limit != 1 {
		t.Fatalf("a refusal must win either way round: %+v", got)
	}
	until := time.Now().Add(90 * time.Second)
	locked := ratelimit.Refused(10, until)
	if locked.Allowed || locked.Remaining != 0 || locked.RetryAfterSeconds() < 89 || locked.RetryAfterSeconds() > 90 || locked.Reset.Before(until) {
		t.Fatalf("refused until %s: %+v, Retry-After %d", until, locked, locked.RetryAfterSeconds())
	}
}
