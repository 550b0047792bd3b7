// Package ratelimit counts requests per key in fixed windows kept in Redis,
// so every API replica shares the same buckets.
package ratelimit

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// KeyPrefix namespaces the counters; cache clearing never reaches it.
const KeyPrefix = "shop:ratelimit:"

// Result is the state of a bucket after counting one request.
type Result struct {
	Allowed   bool
	Limit     int
	Remaining int
	// Reset is when the current window ends, rounded up to a second.
	Reset time.Time
	// left is the window's remaining time as Redis reported it.
	left time.Duration
}

// ceilSecond rounds t up to a whole second, so that a client waiting until
// Reset never arrives early, and never more than a second late.
func ceilSecond(t time.Time) time.Time {
	if t2 := t.Truncate(time.Second); !t2.Equal(t) {
		return t2.Add(time.Second)
	}
	return t
}

// RetryAfterSeconds is the value of the Retry-After header: the window's
// remaining time in whole seconds, rounded up, at least 1.
func (r Result) RetryAfterSeconds() int {
	if s := int((r.left + time.Second - 1) / time.Second); s > 1 {
		return s
	}
	return 1
}

// Limiter counts requests in Redis.
type Limiter struct{ rdb redis.Cmdable }

// New returns a limiter on rdb.
func New(rdb redis.Cmdable) *Limiter { return &Limiter{rdb: rdb} }

// incr counts a hit and starts the window on the first one, atomically, and
// returns the count and the window's remaining milliseconds.
var incr = redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}
`)

// Allow counts one request against bucket key and reports whether it is
// within limit per window. A Redis failure is returned as an error: callers
// refuse the request rather than let it through unlimited.
func (l *Limiter) Allow(ctx context.Context, key string, limit int, window time.Duration) (Result, error) {
	res, err := incr.Run(ctx, l.rdb, []string{KeyPrefix + key}, window.Milliseconds()).Int64Slice()
	if err != nil {
		return Result{}, fmt.Errorf("ratelimit: %w", err)
	}
	count, ttl := int(res[0]), time.Duration(res[1])*time.Millisecond
	remaining := limit - count
	if remaining < 0 {
		remaining = 0
	}
	return Result{
		Allowed:   count <= limit,
		Limit:     limit,
		Remaining: remaining,
		Reset:     ceilSecond(time.Now().Add(ttl)),
		left:      ttl,
	}, nil
}

// Tighter is the result to report for a request counted in two buckets: a
// refusal over an allowance (the later Reset when both refuse), else the
// bucket with fewer requests remaining.
func Tighter(a, b Result) Result {
	switch {
	case a.Allowed != b.Allowed:
		if !a.Allowed {
			return a
		}
		return b
	case !a.Allowed:
		if b.Reset.After(a.Reset) {
			return b
		}
		return a
	case b.Remaining < a.Remaining:
		return b
	}
	return a
}

// Refused is the result of a bucket of limit that refuses every request
// until until: a lockout kept outside Redis (the admin second factor's),
// reported with the same headers as any refused limit.
func Refused(limit int, until time.Time) Result {
	return Result{Limit: limit, Reset: ceilSecond(until), left: time.Until(until)}
}
