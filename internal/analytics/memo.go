package analytics

import (
	"context"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// ProductsMemoTTL is how long a products report is reused for the same
// range, size and location. Ranking every product of a range reads one
// rollup row per product and day (tens of milliseconds over 10k products and
// 90 days), and every dashboard load asks for it; the figures are already up to a minute behind
// the orders (docs/DECISIONS.md, "Admin console").
const ProductsMemoTTL = 5 * time.Second

// memoLimit bounds the ranges remembered; a dashboard asks for a few.
const memoLimit = 64

// reportMemo remembers reports by key for a while, and lets concurrent
// callers of the same key share one computation.
type reportMemo[T any] struct {
	ttl    time.Duration
	flight singleflight.Group
	mu     sync.Mutex
	kept   map[string]memoEntry[T]
}

type memoEntry[T any] struct {
	value   T
	expires time.Time
}

func newReportMemo[T any](ttl time.Duration) *reportMemo[T] {
	return &reportMemo[T]{ttl: ttl, kept: map[string]memoEntry[T]{}}
}

// get returns the remembered value of key, or computes it once for every
// caller waiting on it. The computation does not end when the first
// caller's request does, so the others are not failed by it. Errors are not
// remembered.
func (m *reportMemo[T]) get(ctx context.Context, key string, compute func(context.Context) (T, error)) (T, error) {
	if v, ok := m.lookup(key); ok {
		return v, nil
	}
	ch := m.flight.DoChan(key, func() (any, error) {
		// A flight that finished after the lookup above has kept its report.
		if v, ok := m.lookup(key); ok {
			return v, nil
		}
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		defer cancel()
		v, err := compute(cctx)
		if err == nil {
			m.keep(key, v)
		}
		return v, err
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			var zero T
			return zero, res.Err
		}
		return res.Val.(T), nil
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// lookup returns key's report while it is fresh.
func (m *reportMemo[T]) lookup(key string) (T, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if e, ok := m.kept[key]; ok && time.Now().Before(e.expires) {
		return e.value, true
	}
	var zero T
	return zero, false
}

func (m *reportMemo[T]) keep(key string, v T) {
	now := time.Now()
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.kept) >= memoLimit {
		for k, e := range m.kept {
			if !now.Before(e.expires) {
				delete(m.kept, k)
			}
		}
		if len(m.kept) >= memoLimit {
			clear(m.kept)
		}
	}
	m.kept[key] = memoEntry[T]{value: v, expires: now.Add(m.ttl)}
}
