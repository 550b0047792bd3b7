package browse

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"sync/atomic"
)

// DefaultMemoBytes bounds the memory of the rendered pages kept in process
// unless WithMemoBytes says otherwise (API_MEMORY_LIMIT_MIB sizes it). A
// memo smaller than the pages shoppers read evicts on every miss and sends
// each read to Redis (docs/BENCHMARKS.md "Storefront reads with images");
// docs/OPERATIONS.md "Memory" gives what a catalog of N products needs.
const DefaultMemoBytes = 64 << 20

// memoEntryOverhead is what an entry costs besides its page's slices: the
// map slot, the entry and the Page header. Counting it keeps a flood of
// tiny pages (empty search results) from growing the map without bound.
const memoEntryOverhead = 256

// memo keeps rendered pages in process, each tagged with the catalog
// version it was rendered under. Reads check it against the catalog's
// current version (cache.Version: this process's writes at once, other
// replicas' within cache.VersionTTL), so a catalog write retires every memo
// entry; a hit costs no round trip at all.
//
// It is the only cache of searches and deep pages (see ListQuery.shared),
// whose keys a client chooses freely, so it is bounded by limit bytes and
// evicts least recently used pages first: a flood of one-off searches
// pushes out other one-off searches, not the listing pages every shopper
// reads. A hit takes only the read lock: recency is the tick of the last
// put before the page's last read, kept in an atomic.
type memo struct {
	limit int
	mu    sync.RWMutex
	size  int
	pages map[string]*memoEntry
	clock atomic.Int64
}

type memoEntry struct {
	version string
	page    *Page
	cost    int
	used    atomic.Int64
}

func newMemo(limit int) *memo { return &memo{limit: limit, pages: map[string]*memoEntry{}} }

// get returns a copy of the page for key rendered under version, with its
// own availability to fill, or nil.
func (m *memo) get(key, version string) *Page {
	if version == "" {
		return nil
	}
	m.mu.RLock()
	e, ok := m.pages[key]
	m.mu.RUnlock()
	if !ok || e.version != version {
		return nil
	}
	// The clock moves on puts only, and a hot page already carries the
	// current tick: its hits then only read shared memory.
	if now := m.clock.Load(); e.used.Load() != now {
		e.used.Store(now)
	}
	p := *e.page
	p.avail = make([][]int, len(p.ids))
	return &p
}

// put keeps p for key under version, evicting the least recently used
// pages when the memo outgrows its limit.
func (m *memo) put(key, version string, p *Page) {
	if version == "" {
		return
	}
	keep := *p
	keep.avail = nil // per request; never shared
	e := &memoEntry{version: version, page: &keep, cost: memoEntryOverhead + len(key) + len(p.body) + 8*len(p.slots) + 16*len(p.ids) + 8*len(p.counts)}
	e.used.Store(m.clock.Add(1))
	m.mu.Lock()
	defer m.mu.Unlock()
	if old, ok := m.pages[key]; ok {
		m.size -= old.cost
	}
	m.pages[key] = e
	m.size += e.cost
	if m.size > m.limit {
		m.evict()
	}
}

// evict drops the least recently used pages until the memo is down to
// three quarters of its limit, so that the sort is paid once per quarter of
// the budget, not on every put. The caller holds the write lock.
func (m *memo) evict() {
	type lastUse struct {
		key  string
		used int64
	}
	order := make([]lastUse, 0, len(m.pages))
	for k, e := range m.pages {
		order = append(order, lastUse{k, e.used.Load()})
	}
	slices.SortFunc(order, func(a, b lastUse) int { return cmp.Compare(a.used, b.used) })
	for _, u := range order {
		if m.size <= m.limit*3/4 {
			return
		}
		m.size -= m.pages[u.key].cost
		delete(m.pages, u.key)
	}
}

// cached returns the page for key from the memo, else (for a shared key
// only) from the catalog cache in Redis, remembering it, with the catalog
// version read; nil when neither has it.
func (s *Service) cached(ctx context.Context, key string, shared bool) (*Page, string) {
	version := s.catalog.Version(ctx, CatalogNamespace)
	if version == "" {
		return nil, ""
	}
	if p := s.memo.get(key, version); p != nil {
		return p, version
	}
	if !shared {
		return nil, version
	}
	var page Page
	hit, version := s.catalog.Get(ctx, CatalogNamespace, key, &page)
	if !hit {
		return nil, version
	}
	s.memo.put(key, version, &page)
	return &page, version
}

// keep caches a page just read from the database under version: in the
// memo always, and in Redis only when its key is shared (its key space is
// bounded by the catalog, not by what clients ask for).
func (s *Service) keep(ctx context.Context, key, version string, shared bool, p *Page) {
	s.memo.put(key, version, p)
	if shared {
		s.catalog.Set(ctx, CatalogNamespace, version, key, p)
	}
}
