package browse

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/uuid"
	"github.com/redis/go-redis/v9"
)

// StockStore caches the availability of each product's variants in Redis,
// one key per product shared by every list page, product page and customer
// group. An entry remembers the catalog cache version it was read under and
// is ignored once the catalog moves on (an inventory edit invalidates the
// catalog), so it never outlives a catalog change.
//
// Only a reservation makes availability fall without a catalog change, and
// checkout forgets the products it reserved as soon as it commits; the
// other moves (a release on expiry or payment failure, a commit or ship)
// leave availability equal or higher. A cached figure is therefore never
// above the truth except in rare races, and may lag below it for at most
// StockTTL.
//
// Each process also keeps the figures it read for LocalStockTTL, so a hot
// product page costs no round trip. Checkout's Forget clears them in its own
// process at once; on other replicas a figure can stay above the truth for at
// most LocalStockTTL (checkout's conditional reservation still refuses the
// sale).
type StockStore struct {
	rdb     redis.Cmdable
	prefix  string
	ttl     time.Duration
	enabled bool

	mu    sync.Mutex
	local map[uuid.UUID]localStock
}

// LocalStockTTL bounds how long a process serves figures it read itself.
const LocalStockTTL = 5 * time.Second

// localEntriesMax bounds the in-process figures; past it they start afresh.
const localEntriesMax = 200000

type localStock struct {
	version string
	avail   []int
	read    time.Time
}

// NewStockStore returns the store under the cache prefix (so clearing the
// application cache clears it too).
func NewStockStore(rdb redis.Cmdable, prefix string, ttl time.Duration, enabled bool) *StockStore {
	return &StockStore{rdb: rdb, prefix: prefix + "stock:", ttl: ttl, enabled: enabled, local: map[uuid.UUID]localStock{}}
}

// An entry is "<catalog version>|<n1>,<n2>,...": the units available of the
// product's variants in catalog order (created_at, id), the order of its
// cached page, so reading one costs a split, not a JSON decode.
func encodeEntry(version string, avail []int) string {
	b := make([]byte, 0, len(version)+1+4*len(avail))
	b = append(b, version...)
	b = append(b, '|')
	for i, n := range avail {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(n), 10)
	}
	return string(b)
}

func decodeEntry(raw, version string, want int) ([]int, bool) {
	v, list, ok := strings.Cut(raw, "|")
	if !ok || v != version {
		return nil, false
	}
	out := make([]int, 0, want)
	for list != "" {
		var item string
		item, list, _ = strings.Cut(list, ",")
		n, err := strconv.Atoi(item)
		if err != nil {
			return nil, false
		}
		out = append(out, n)
	}
	return out, len(out) == want
}

// load returns, for each product whose entry was read under catalog
// version and has one figure per variant (wants[i] of them), its figures in
// catalog order; the others must be read from the database.
func (s *StockStore) load(ctx context.Context, version string, ids []uuid.UUID, wants []int) map[uuid.UUID][]int {
	out := make(map[uuid.UUID][]int, len(ids))
	if !s.enabled || version == "" || len(ids) == 0 {
		return out
	}
	var keys []string
	var missing []int
	now := time.Now()
	s.mu.Lock()
	for i, id := range ids {
		if e, ok := s.local[id]; ok && e.version == version && len(e.avail) == wants[i] && now.Sub(e.read) < LocalStockTTL {
			out[id] = e.avail
			continue
		}
		keys = append(keys, s.prefix+id.String())
		missing = append(missing, i)
	}
	s.mu.Unlock()
	if len(keys) == 0 {
		return out
	}
	vals, err := s.rdb.MGet(ctx, keys...).Result()
	if err != nil {
		return out // a Redis failure is a miss
	}
	for j, v := range vals {
		i := missing[j]
		if raw, ok := v.(string); ok {
			if avail, ok := decodeEntry(raw, version, wants[i]); ok {
				out[ids[i]] = avail
				s.keep(ids[i], version, avail, now)
			}
		}
	}
	return out
}

// store caches each product's figures (in catalog order) under version.
func (s *StockStore) store(ctx context.Context, version string, avail map[uuid.UUID][]int) {
	if !s.enabled || version == "" || len(avail) == 0 {
		return
	}
	pipe := s.rdb.Pipeline()
	now := time.Now()
	for pid, figures := range avail {
		pipe.Set(ctx, s.prefix+pid.String(), encodeEntry(version, figures), s.ttl)
		s.keep(pid, version, figures, now)
	}
	_, _ = pipe.Exec(ctx)
}

// keep remembers a product's figures in process.
func (s *StockStore) keep(id uuid.UUID, version string, avail []int, at time.Time) {
	s.mu.Lock()
	if len(s.local) >= localEntriesMax {
		s.local = map[uuid.UUID]localStock{}
	}
	s.local[id] = localStock{version: version, avail: avail, read: at}
	s.mu.Unlock()
}

// Forget drops the cached availability of products ids: checkout calls it
// after reserving their stock, so shoppers never see units that are gone.
// A failure only leaves the figure stale for StockTTL.
func (s *StockStore) Forget(ctx context.Context, ids []uuid.UUID) {
	if s == nil || !s.enabled || len(ids) == 0 {
		return
	}
	keys := make([]string, len(ids))
	s.mu.Lock()
	for i, id := range ids {
		keys[i] = s.prefix + id.String()
		delete(s.local, id)
	}
	s.mu.Unlock()
	_ = s.rdb.Del(ctx, keys...).Err()
}
