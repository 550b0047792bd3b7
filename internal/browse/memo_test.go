package browse

import (
	"fmt"
	"testing"

	"github.com/google/uuid"
)

func TestMemoVersionsAndCopies(t *testing.T) {
	m := newMemo(DefaultMemoBytes)
	p := &Page{Total: 1, ids: []uuid.UUID{uuid.New()}, counts: []int{2}, body: []byte(`{}`), avail: [][]int{{1, 2}}}
	m.put("k", "5", p)
	if m.get("k", "6") != nil || m.get("k", "") != nil || m.get("other", "5") != nil {
		t.Fatal("served under another version or key")
	}
	a, b := m.get("k", "5"), m.get("k", "5")
	if a == nil || b == nil || len(a.avail) != 1 || a.avail[0] != nil {
		t.Fatalf("copy: %+v", a)
	}
	a.avail[0] = []int{9, 9}
	if b.avail[0] != nil || p.avail[0][0] != 1 {
		t.Fatal("copies share availability")
	}
}

// A flood of one-off pages (random searches) stays within the byte budget
// and evicts other one-off pages, not the page that keeps being read.
func TestMemoEvictsLeastRecentlyUsed(t *testing.T) {
	m := newMemo(DefaultMemoBytes)
	hot := &Page{ids: []uuid.UUID{uuid.New()}, counts: []int{0}, body: make([]byte, 64<<10)}
	m.put("hot", "1", hot)
	for i := range 20_000 {
		m.put(fmt.Sprintf("search-%d", i), "1", &Page{body: make([]byte, 4<<10)})
		if m.get("hot", "1") == nil {
			t.Fatalf("the hot page was evicted after %d one-off pages", i)
		}
		if m.size > DefaultMemoBytes {
			t.Fatalf("memo holds %d bytes, over its %d budget", m.size, DefaultMemoBytes)
		}
	}
	if m.get("search-0", "1") != nil {
		t.Fatal("the oldest one-off page survived a flood past the budget")
	}
	// Tiny pages (empty results) are bounded too: each entry costs at least
	// its overhead.
	for i := range 200_000 {
		m.put(fmt.Sprintf("empty-%d", i), "1", &Page{})
	}
	if len(m.pages) > DefaultMemoBytes/memoEntryOverhead {
		t.Fatalf("%d entries for a budget of %d bytes", len(m.pages), DefaultMemoBytes)
	}
}

// A memo bound below the default (API_MEMORY_LIMIT_MIB sizes it) holds no
// more than its own bound.
func TestMemoKeepsItsLimit(t *testing.T) {
	m := newMemo(1 << 20)
	for i := range 1000 {
		m.put(fmt.Sprintf("page-%d", i), "1", &Page{body: make([]byte, 4<<10)})
		if m.size > 1<<20 {
			t.Fatalf("memo holds %d bytes after %d pages, over its 1 MiB bound", m.size, i+1)
		}
	}
	if len(m.pages) < 150 {
		t.Fatalf("%d pages kept of a 1 MiB bound", len(m.pages))
	}
}
