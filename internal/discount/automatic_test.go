package discount_test

import (
	"context"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

func TestRecentAutomaticDiscountsAreAtMostTTLOld(t *testing.T) {
	db, _ := testkit.MustDB(t)
	ctx := context.Background()
	add := func() {
		if err := db.Create(&models.Discount{Type: models.DiscountFixedAmount, Value: 100, ApplicationType: models.DiscountAutomatic,
			Scope: models.DiscountScopeOrder, IsActive: true}).Error; err != nil {
			t.Fatal(err)
		}
	}
	add()
	recent := discount.NewRecent(300 * time.Millisecond)
	if got, _ := recent.Automatic(ctx, db); len(got) != 1 {
		t.Fatalf("%d automatic discounts, want 1", len(got))
	}
	add()
	if got, _ := recent.Automatic(ctx, db); len(got) != 1 {
		t.Fatalf("re-read within the TTL: %d", len(got))
	}
	if got, _ := discount.Fresh.Automatic(ctx, db); len(got) != 2 {
		t.Fatalf("Fresh sees %d, want 2", len(got))
	}
	time.Sleep(350 * time.Millisecond)
	if got, _ := recent.Automatic(ctx, db); len(got) != 2 {
		t.Fatalf("after the TTL: %d, want 2", len(got))
	}
}
