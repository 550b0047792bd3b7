package stock_test

import (
	"errors"
	"sync"
	"testing"

	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// promise sets a variant's committed and reserved units (the floor).
func promise(t *testing.T, db *gorm.DB, id uuid.UUID, committed, reserved int) {
	t.Helper()
	if err := db.Exec(`UPDATE variants SET committed = ?, reserved = ? WHERE id = ?`, committed, reserved, id).Error; err != nil {
		t.Fatal(err)
	}
}

func adjust(db *gorm.DB, adj ...stock.Adjustment) ([]stock.LowStock, error) {
	var low []stock.LowStock
	err := db.Transaction(func(tx *gorm.DB) error {
		var err error
		low, err = stock.Adjust(tx, adj, 5)
		return err
	})
	return low, err
}

// Every operation stops at the floor (committed + reserved), alone or in a
// bulk with other variants, and a refused bulk changes nothing.
func TestAdjustKeepsTheFloor(t *testing.T) {
	db, _ := testkit.MustDB(t)
	a, _, _ := fixture(t, db, 20)
	b, _, _ := fixture(t, db, 20)
	promise(t, db, a, 6, 4) // floor 10

	cases := []struct {
		name   string
		op     string
		qty    int
		want   int // on hand after; -1: refused at the floor
		reason string
	}{
		{"set to the floor", stock.OpSet, 10, 10, ""},
		{"set below the floor", stock.OpSet, 9, -1, stock.RefusedFloor},
		{"add", stock.OpAdd, 5, 15, ""},
		{"subtract to the floor", stock.OpSubtract, 5, 10, ""},
		{"subtract below the floor", stock.OpSubtract, 1, -1, stock.RefusedFloor},
		{"add past the largest level", stock.OpAdd, 2_147_483_640, -1, stock.RefusedOverflow},
	}
	for _, c := range cases {
		before := counters(t, db, a).Inventory
		_, err := adjust(db, stock.Adjustment{VariantID: a, Operation: c.op, Quantity: c.qty})
		got := counters(t, db, a).Inventory
		var refused *stock.Refusal
		switch {
		case c.want >= 0 && (err != nil || got != c.want):
			t.Fatalf("%s: err %v, on hand %d, want %d", c.name, err, got, c.want)
		case c.want < 0 && (!errors.As(err, &refused) || refused.Reason != c.reason || got != before):
			t.Fatalf("%s: err %v, on hand %d (was %d), want a %s refusal and no change", c.name, err, got, before, c.reason)
		}
	}

	// A bulk whose one line breaks the floor applies none of its lines.
	_, err := adjust(db, stock.Adjustment{VariantID: b, Operation: stock.OpSet, Quantity: 50},
		stock.Adjustment{VariantID: a, Operation: stock.OpSubtract, Quantity: 1})
	var refused *stock.Refusal
	if !errors.As(err, &refused) || refused.VariantID != a || refused.Reason != stock.RefusedFloor {
		t.Fatalf("bulk: %v, want a floor refusal naming variant a", err)
	}
	if got := counters(t, db, b).Inventory; got != 20 {
		t.Fatalf("bulk refused, yet the other variant was set to %d", got)
	}
	if _, err := adjust(db, stock.Adjustment{VariantID: uuid.New(), Operation: stock.OpAdd, Quantity: 1}); !errors.As(err, &refused) ||
		refused.Reason != stock.RefusedMissing {
		t.Fatalf("unknown variant: %v, want a missing refusal", err)
	}
}

// Concurrent subtractions of one variant, each alone and in bulks with
// another variant in either order, never take it below its floor and never
// deadlock; exactly the units above the floor are taken.
func TestConcurrentAdjustmentsKeepTheFloor(t *testing.T) {
	db, _ := testkit.MustDB(t)
	a, _, _ := fixture(t, db, 100)
	b, _, _ := fixture(t, db, 1000)
	promise(t, db, a, 30, 10) // 60 units above the floor
	var mu sync.Mutex
	taken := 0
	// Behind one barrier; Race fails unless adjustments overlapped.
	testkit.Race(t, 40, func(i int) {
		adj := []stock.Adjustment{{VariantID: a, Operation: stock.OpSubtract, Quantity: 2}}
		if i%2 == 0 {
			adj = append([]stock.Adjustment{{VariantID: b, Operation: stock.OpSubtract, Quantity: 1}}, adj...)
		}
		_, err := adjust(db, adj...)
		var refused *stock.Refusal
		mu.Lock()
		defer mu.Unlock()
		switch {
		case err == nil:
			taken += 2
		case errors.As(err, &refused) && refused.Reason == stock.RefusedFloor:
		default:
			t.Errorf("adjustment %d: %v", i, err)
		}
	})
	v := counters(t, db, a)
	if taken != 60 || v.Inventory != 40 {
		t.Fatalf("took %d units, on hand %d; want 60 taken and 40 on hand (the floor)", taken, v.Inventory)
	}
}

// inventory.low_stock is published once, in the adjustment's transaction,
// when available units cross the threshold downwards; not when they stay
// below it or go up.
func TestAdjustPublishesLowStockOnceOnCrossing(t *testing.T) {
	db, _ := testkit.MustDB(t)
	a, _, _ := fixture(t, db, 20)
	promise(t, db, a, 2, 0) // available 18, threshold 5
	events := func() int64 {
		var n int64
		db.Model(&models.Event{}).Where("type = 'inventory.low_stock' AND data->>'variantId' = ?", a.String()).Count(&n)
		return n
	}
	steps := []struct {
		op        string
		qty       int
		wantLow   bool
		wantTotal int64
	}{
		{stock.OpSubtract, 10, false, 0}, // available 8
		{stock.OpSubtract, 3, true, 1},   // 5: at the threshold
		{stock.OpSubtract, 2, false, 1},  // 3: still below
		{stock.OpAdd, 10, false, 1},      // 13
		{stock.OpSet, 6, true, 2},        // 4: crosses again
	}
	for i, s := range steps {
		low, err := adjust(db, stock.Adjustment{VariantID: a, Operation: s.op, Quantity: s.qty})
		if err != nil {
			t.Fatal(err)
		}
		if (len(low) == 1) != s.wantLow || events() != s.wantTotal {
			t.Fatalf("step %d (%s %d): alerts %v, %d events; want alert %v, %d events", i, s.op, s.qty, low, events(), s.wantLow, s.wantTotal)
		}
	}
}
