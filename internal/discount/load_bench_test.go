package discount_test

import (
	"context"
	"testing"

	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// BenchmarkLoadAutomatic50 reads 50 automatic discounts from Postgres, as
// checkout did on every order before it kept them by version (Fresh).
func BenchmarkLoadAutomatic50(b *testing.B) {
	db, _ := testkit.MustDB(b)
	for i := range 50 {
		d := models.Discount{Type: models.DiscountTiered, ApplicationType: models.DiscountAutomatic, Scope: models.DiscountScopeOrder, IsActive: true,
			Description: "x", Rules: models.DiscountRules{MinSubtotal: 100}, CombinesWith: models.CombinesWith{Shipping: i%2 == 0}}
		if err := db.Create(&d).Error; err != nil {
			b.Fatal(err)
		}
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := discount.LoadAutomatic(ctx, db); err != nil {
			b.Fatal(err)
		}
	}
}
