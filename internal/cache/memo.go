package cache

import (
	"context"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// Memo keeps values in process memory for a fixed time: figures that are
// costly to compute and may be a few seconds old, such as list totals. It
// holds at most max entries and starts afresh when full.
type Memo[K comparable, V any] struct {
	ttl        time.Duration
	max        int
	mu         sync.Mutex
	entries    map[K]memoEntry[V]
	refreshing map[K]bool
	loads      singleflight.Group
}

type memoEntry[V any] struct {
	value V
	at    time.Time
}

// NewMemo returns a memo whose entries live for ttl.
func NewMemo[K comparable, V any](ttl time.Duration, max int) *Memo[K, V] {
	return &Memo[K, V]{ttl: ttl, max: max, entries: map[K]memoEntry[V]{}, refreshing: map[K]bool{}}
}

// Get returns the value for k when it is younger than the TTL.
func (m *Memo[K, V]) Get(k K) (V, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[k]
	if !ok || time.Since(e.at) >= m.ttl {
		var zero V
		return zero, false
	}
	return e.value, true
}

// Put stores v for k.
func (m *Memo[K, V]) Put(k K, v V) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.entries) >= m.max {
		m.entries = map[K]memoEntry[V]{}
	}
	m.entries[k] = memoEntry[V]{value: v, at: time.Now()}
}

// GetOrLoad returns the value for k, loading it when absent. Concurrent
// callers missing the same key share one load. An expired value is still
// returned while one background load replaces it, so that expiry never makes
// every concurrent request pay for the load at once. The background load
// runs with its own timeout, not the request's.
func (m *Memo[K, V]) GetOrLoad(ctx context.Context, k K, load func(context.Context) (V, error)) (V, error) {
	m.mu.Lock()
	e, ok := m.entries[k]
	if ok && time.Since(e.at) >= m.ttl && !m.refreshing[k] {
		m.refreshing[k] = true
		go m.refresh(k, load)
	}
	m.mu.Unlock()
	if ok {
		return e.value, nil
	}
	v, err, _ := m.loads.Do(fmt.Sprint(k), func() (any, error) {
		v, err := load(ctx)
		if err == nil {
			m.Put(k, v)
		}
		return v, err
	})
	if err != nil {
		var zero V
		return zero, err
	}
	return v.(V), nil
}

func (m *Memo[K, V]) refresh(k K, load func(context.Context) (V, error)) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	v, err := load(ctx)
	m.mu.Lock()
	delete(m.refreshing, k)
	m.mu.Unlock()
	if err == nil {
		m.Put(k, v)
	}
}
