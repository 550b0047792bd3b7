package browse

import (
	"testing"

	"github.com/google/uuid"
)

func TestMemoVersionsAndCopies(t *testing.T) {
	m := newMemo()
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
	big := &Page{ids: []uuid.UUID{uuid.New()}, counts: []int{0}, body: make([]byte, memoBytes-1)}
	m.put("big", "5", big)
	if m.get("k", "5") != nil || m.get("big", "5") == nil || m.size != memoBytes-1 {
		t.Fatalf("past the byte cap the memo starts afresh: size %d", m.size)
	}
}
