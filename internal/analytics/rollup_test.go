package analytics_test

import (
	"context"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/analytics"
	"github.com/gocommerce/shop/internal/testkit"
)

// A shop with no orders (a new one, or one whose orders were all deleted)
// rolls up nothing and keeps no rollup rows; min(created_at) is NULL there.
func TestRollupAllWithoutOrders(t *testing.T) {
	db, _ := testkit.MustDB(t)
	ctx := context.Background()
	if err := db.Exec(`INSERT INTO analytics_daily (day, orders, revenue_orders, gross, refunds, updated_at)
		VALUES ('2026-01-05', 3, 3, 30000, 0, now())`).Error; err != nil {
		t.Fatal(err)
	}
	days, err := analytics.New(db, 5, "INR", nil).RollupAll(ctx, time.Now())
	if err != nil || days != 0 {
		t.Fatalf("RollupAll = %d, %v; want 0, nil", days, err)
	}
	var left int64
	db.Raw(`SELECT count(*) FROM analytics_daily`).Scan(&left)
	if left != 0 {
		t.Fatalf("%d rollup rows left without orders", left)
	}
}
