package checkout_test

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/cart"
	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// Sweeps running at once, and again, expire each session once and return
// each unit once.
func TestExpireDueConcurrentAndRepeated(t *testing.T) {
	db, _ := testkit.MustDB(t)
	ctx := context.Background()
	p := testkit.MustStoreProduct(t, db, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 50}}})
	v := p.Variants[0].ID
	carts := cart.New(db, "INR", checkout.EnsureEditable)
	svc := checkout.New(db, nil, gateway.NewSimulator(), checkout.Settings{TTL: time.Minute, Currency: "INR"}, nil, slog.New(slog.DiscardHandler))
	const sessions = 20
	for i := 0; i < sessions; i++ {
		owner := cart.Owner{SessionID: fmt.Sprintf("sweep-guest-%03d", i)}
		if _, err := carts.AddItem(ctx, owner, v, 2); err != nil {
			t.Fatal(err)
		}
		_, err := svc.Checkout(ctx, owner, checkout.Input{Guest: &checkout.Guest{Email: fmt.Sprintf("g%d@example.com", i), Name: "G",
			Phone: "9876543210", Address: models.Address{Street: "1 Road", City: "Pune", State: "Maharashtra", Pincode: "411001", Country: "IN"}}})
		if err != nil {
			t.Fatal(err)
		}
	}
	var reserved int
	db.Raw(`SELECT reserved FROM variants WHERE id = ?`, v).Scan(&reserved)
	if reserved != 2*sessions {
		t.Fatalf("reserved %d", reserved)
	}
	// Not due yet: nothing happens.
	if n, err := svc.ExpireDue(ctx, time.Now()); err != nil || n != 0 {
		t.Fatalf("early sweep: %d, %v", n, err)
	}
	later := time.Now().Add(2 * time.Minute)
	var total atomic.Int64
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n, err := svc.ExpireDue(ctx, later)
			if err != nil {
				t.Error(err)
			}
			total.Add(int64(n))
		}()
	}
	wg.Wait()
	if n, _ := svc.ExpireDue(ctx, later); n != 0 || total.Load() != sessions {
		t.Fatalf("expired %d concurrently, %d on the repeat; want %d and 0", total.Load(), n, sessions)
	}
	var row struct{ Inventory, Reserved int }
	db.Raw(`SELECT inventory, reserved FROM variants WHERE id = ?`, v).Scan(&row)
	var pending, locked, reservations int64
	db.Raw(`SELECT count(*) FROM checkout_sessions WHERE state <> 'EXPIRED'`).Scan(&pending)
	db.Raw(`SELECT count(*) FROM carts WHERE locked_by IS NOT NULL`).Scan(&locked)
	db.Raw(`SELECT count(*) FROM stock_reservations`).Scan(&reservations)
	if row.Reserved != 0 || row.Inventory != 50 || pending != 0 || locked != 0 || reservations != 0 {
		t.Fatalf("after the sweeps: %+v, not expired %d, locked carts %d, reservations %d", row, pending, locked, reservations)
	}
}
