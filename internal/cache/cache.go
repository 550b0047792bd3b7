// Package cache keeps JSON values in Redis under the application's cache
// namespace (CACHE_PREFIX). Invalidation is by namespace version: a write
// bumps the version, and every key read under the old version is never read
// again (it expires with its TTL). That makes "invalidate every list page and
// product of the catalog" one INCR, correct across API replicas.
//
// Each Cache also remembers the namespace versions it read, for at most
// VersionTTL, so that a hit on an in-process copy costs no round trip. A
// process builds one Cache (internal/app) that every writer invalidates and
// every reader reads through, so the process that invalidates sees its new
// version at once; other replicas see it within VersionTTL.
package cache

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Cache reads and writes cached values. A disabled cache misses every read
// and drops every write.
type Cache struct {
	rdb     redis.Cmdable
	prefix  string
	ttl     time.Duration
	enabled bool

	mu sync.Mutex
	// versions are the namespace versions this Cache read or set, by namespace.
	versions map[string]localVersion
}

// VersionTTL bounds how long a process trusts a namespace version it read:
// the longest another replica's write can go unseen here.
const VersionTTL = 500 * time.Millisecond

type localVersion struct {
	value string
	read  time.Time
}

// New returns a cache on rdb whose keys all start with prefix.
func New(rdb redis.Cmdable, prefix string, ttl time.Duration, enabled bool) *Cache {
	return &Cache{rdb: rdb, prefix: prefix, ttl: ttl, enabled: enabled, versions: map[string]localVersion{}}
}

// Version returns namespace ns's current version: the one this Cache read
// less than VersionTTL ago, else Redis's. It is "" when the cache is off or
// Redis cannot be reached (callers then read the database).
func (c *Cache) Version(ctx context.Context, ns string) string {
	if !c.enabled {
		return ""
	}
	c.mu.Lock()
	lv, ok := c.versions[ns]
	c.mu.Unlock()
	if ok && time.Since(lv.read) < VersionTTL {
		return lv.value
	}
	v, err := c.rdb.Get(ctx, c.versionKey(ns)).Result()
	switch {
	case errors.Is(err, redis.Nil):
		v = "0"
	case err != nil:
		return ""
	}
	c.remember(ns, v)
	return v
}

func (c *Cache) remember(ns, v string) {
	c.mu.Lock()
	c.versions[ns] = localVersion{value: v, read: time.Now()}
	c.mu.Unlock()
}

func (c *Cache) forget(ns string) {
	c.mu.Lock()
	delete(c.versions, ns)
	c.mu.Unlock()
}

// Enabled reports whether reads can hit.
func (c *Cache) Enabled() bool { return c.enabled }

func (c *Cache) versionKey(ns string) string { return c.prefix + ns + ":version" }

func (c *Cache) dataKey(ns, version, key string) string {
	return c.prefix + ns + ":" + version + ":" + key
}

// Get looks key up in namespace ns (at its Version) and decodes it into dst.
// It reports a hit, and returns the version used, to be passed to Set so
// that a value computed before a concurrent invalidation is stored under the
// old version only. A Redis failure is a miss: the caller falls back to the
// database.
func (c *Cache) Get(ctx context.Context, ns, key string, dst any) (hit bool, version string) {
	version = c.Version(ctx, ns)
	if version == "" {
		return false, ""
	}
	raw, err := c.rdb.Get(ctx, c.dataKey(ns, version, key)).Bytes()
	if err != nil {
		return false, version
	}
	return json.Unmarshal(raw, dst) == nil, version
}

// Set stores v under key in namespace ns at version (from Get). Errors are
// ignored: a failed write only costs a later miss.
func (c *Cache) Set(ctx context.Context, ns, version, key string, v any) {
	if !c.enabled || version == "" {
		return
	}
	b, err := json.Marshal(v)
	if err != nil {
		return
	}
	c.rdb.Set(ctx, c.dataKey(ns, version, key), b, c.ttl)
}

// Invalidate makes every value of namespace ns stale. It must be called after
// the database change commits; an error means stale reads for up to the TTL,
// so callers log it.
func (c *Cache) Invalidate(ctx context.Context, ns string) error {
	v, err := c.rdb.Incr(ctx, c.versionKey(ns)).Result()
	if err != nil {
		c.forget(ns) // the next read asks Redis
		return fmt.Errorf("cache.invalidate %s: %w", ns, err)
	}
	c.remember(ns, strconv.FormatInt(v, 10))
	return nil
}

// MaxPatternLength bounds the pattern of Clear.
const MaxPatternLength = 200

// ErrBadPattern is returned by Clear for a pattern that could escape the
// namespace.
var ErrBadPattern = errors.New("cache: pattern must be a key pattern inside the cache namespace")

// Clear deletes the cache keys matching pattern (Redis glob syntax, relative
// to the cache namespace; "*" is everything). It walks with SCAN and deletes
// with UNLINK, never KEYS, so Redis is not blocked. Only keys under the cache
// prefix can match: queues, sessions and rate limits are out of reach.
func (c *Cache) Clear(ctx context.Context, pattern string) (int, error) {
	if pattern == "" {
		pattern = "*"
	}
	if len(pattern) > MaxPatternLength || strings.ContainsAny(pattern, "\x00\r\n") {
		return 0, ErrBadPattern
	}
	match := c.prefix + pattern
	cleared := 0
	var cursor uint64
	for {
		keys, next, err := c.rdb.Scan(ctx, cursor, match, 500).Result()
		if err != nil {
			return cleared, fmt.Errorf("cache.clear: %w", err)
		}
		var own []string
		for _, k := range keys {
			// SCAN's glob could only match under the prefix, but check anyway:
			// the guarantee matters more than the cycles.
			if strings.HasPrefix(k, c.prefix) {
				own = append(own, k)
			}
		}
		if len(own) > 0 {
			n, err := c.rdb.Unlink(ctx, own...).Result()
			if err != nil {
				return cleared, fmt.Errorf("cache.clear: %w", err)
			}
			cleared += int(n)
		}
		if next == 0 {
			return cleared, nil
		}
		cursor = next
	}
}

// Key joins parts into a cache key, e.g. Key("product", id, group).
func Key(parts ...string) string { return strings.Join(parts, ":") }

// Itoa is strconv.Itoa, for building keys.
func Itoa(n int) string { return strconv.Itoa(n) }
