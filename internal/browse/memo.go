package browse

import (
	"context"
	"sync"
)

// memoBytes bounds the rendered pages kept in process memory.
const memoBytes = 32 << 20

// memo keeps rendered pages in process, each tagged with the catalog
// version it was rendered under. Reads check it against the catalog's
// current version (cache.Version: this process's writes at once, other
// replicas' within cache.VersionTTL), so a catalog write retires every memo
// entry; a hit costs no round trip at all. When it grows past memoBytes it
// starts afresh.
type memo struct {
	mu    sync.RWMutex
	size  int
	pages map[string]memoEntry
}

type memoEntry struct {
	version string
	page    *Page
}

func newMemo() *memo { return &memo{pages: map[string]memoEntry{}} }

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
	p := *e.page
	p.avail = make([][]int, len(p.ids))
	return &p
}

// put keeps p for key under version.
func (m *memo) put(key, version string, p *Page) {
	if version == "" {
		return
	}
	keep := *p
	keep.avail = nil // per request; never shared
	m.mu.Lock()
	defer m.mu.Unlock()
	if old, ok := m.pages[key]; ok {
		m.size -= len(old.page.body)
	}
	if m.size+len(p.body) > memoBytes {
		m.pages, m.size = map[string]memoEntry{}, 0
	}
	m.pages[key] = memoEntry{version: version, page: &keep}
	m.size += len(p.body)
}

// cached returns the page for key from the memo, else from the catalog
// cache (remembering it), with the catalog version read; nil when neither
// has it.
func (s *Service) cached(ctx context.Context, key string) (*Page, string) {
	if version := s.catalog.Version(ctx, CatalogNamespace); version != "" {
		if p := s.memo.get(key, version); p != nil {
			return p, version
		}
	}
	var page Page
	hit, version := s.catalog.Get(ctx, CatalogNamespace, key, &page)
	if !hit {
		return nil, version
	}
	s.memo.put(key, version, &page)
	return &page, version
}
