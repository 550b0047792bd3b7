package reconcile_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/testkit"
)

// Reconcile running while orders commit stock never mistakes an order in
// flight for drift: it recomputes each counter under the variant's lock, so
// an order is either fully counted or not yet there. A "repair" made from a
// half-seen order would leave committed wrong for good.
func TestRepairsNothingWhileOrdersCommit(t *testing.T) {
	_, redisURL := testkit.MustRedis(t)
	a := testkit.MustDeps(t, testkit.MustConfig(t, testkit.MustDatabaseURL(t), redisURL))
	p := fixtures.MustProduct(t, a.DB, "Mug", 29900)
	v := fixtures.MustVariant(t, a.DB, p.ID, 1_000_000)
	const writers, each = 6, 25

	var done atomic.Bool
	var runs, repairs atomic.Int64
	reconciled := make(chan error, 1)
	go func() {
		for !done.Load() {
			r, err := a.Reconcile.Run(context.Background())
			if err != nil {
				reconciled <- err
				return
			}
			runs.Add(1)
			repairs.Add(int64(len(r.Committed) + len(r.Reserved)))
		}
		reconciled <- nil
	}()
	var wg sync.WaitGroup
	for range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := fixtures.MustCustomer(t, a.DB, "Buyer")
			for range each {
				fixtures.MustOrder(t, a.DB, fixtures.OrderSpec{Customer: c,
					Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
			}
		}()
	}
	wg.Wait()
	done.Store(true)
	if err := <-reconciled; err != nil {
		t.Fatal(err)
	}
	if runs.Load() < 2 {
		t.Fatalf("reconcile ran %d times during the orders; the race was not exercised", runs.Load())
	}
	if n := repairs.Load(); n != 0 {
		t.Errorf("reconcile repaired %d counters that had not drifted", n)
	}
	if got := fixtures.Reload(t, a.DB, v); got.Committed != writers*each || got.Reserved != 0 {
		t.Fatalf("committed %d reserved %d, want %d and 0", got.Committed, got.Reserved, writers*each)
	}

	// A counter that did drift is put back from the orders, once.
	a.DB.Exec(`UPDATE variants SET committed = 3, reserved = 9 WHERE id = ?`, v.ID)
	r, err := a.Reconcile.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Committed) != 1 || r.Committed[0].Was != 3 || r.Committed[0].Now != writers*each || !r.Committed[0].Fixed ||
		len(r.Reserved) != 1 || r.Reserved[0].Was != 9 || r.Reserved[0].Now != 0 {
		t.Fatalf("drift reported %+v %+v", r.Committed, r.Reserved)
	}
	if again, _ := a.Reconcile.Run(context.Background()); len(again.Committed)+len(again.Reserved) != 0 {
		t.Fatalf("second run found drift again: %+v %+v", again.Committed, again.Reserved)
	}
}
