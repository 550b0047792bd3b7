package cart

import (
	"testing"

	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// plan takes what an add would accept, line by line, and reports the rest.
func TestMergePlan(t *testing.T) {
	a, b, c, d := uuid.New(), uuid.New(), uuid.New(), uuid.New()
	sel := uuid.New()
	room := &mergeRoom{
		lines:     MaxLines - 2,
		plain:     map[uuid.UUID]int{a: 3, c: 990},
		inCart:    map[uuid.UUID]int{a: 3, c: 990},
		available: map[uuid.UUID]int{a: 5, b: 1, c: 5000, d: 10},
	}
	line := func(v uuid.UUID, q int, bundle *uuid.UUID) models.CartItem {
		return models.CartItem{ID: uuid.New(), VariantID: v, Quantity: q, BundleSelection: bundle}
	}
	guest := []models.CartItem{
		line(a, 4, nil),  // 2 fit the stock
		line(c, 20, nil), // 10 fit the line
		line(d, 1, &sel), // the bundle needs 2 lines, 2 are left: moves
		line(b, 1, &sel),
		line(b, 2, nil), // the bundle took the 1 available
		line(d, 1, nil), // a new line in a full cart
	}
	p := room.plan(guest)
	if len(p.plainIDs) != 2 || p.plainQty[0] != "2" || p.plainQty[1] != "10" || len(p.selections) != 1 {
		t.Fatalf("plan %+v", p)
	}
	want := []struct {
		code      string
		variant   uuid.UUID
		requested int
		merged    int
	}{
		{WarnNotEnoughStock, a, 4, 2},
		{WarnLineLimit, c, 20, 10},
		{WarnNotEnoughStock, b, 2, 0},
		{WarnCartFull, d, 1, 0},
	}
	if len(p.warnings) != len(want) {
		t.Fatalf("warnings %+v", p.warnings)
	}
	for i, w := range want {
		got := p.warnings[i]
		if got.Code != w.code || got.VariantID != w.variant || got.Requested != w.requested || got.Merged != w.merged || got.Message == "" {
			t.Errorf("warning %d: %+v, want %+v", i, got, w)
		}
	}
	if room.lines != MaxLines || room.inCart[a] != 5 || room.inCart[b] != 1 || room.inCart[c] != 1000 {
		t.Fatalf("room after the plan %+v", room)
	}
}
