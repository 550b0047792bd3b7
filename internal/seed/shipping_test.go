package seed_test

import (
	"context"
	"testing"

	"github.com/gocommerce/shop/internal/seed"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// The demo shop ships: a default zone with Standard (free from ₹999) and
// Express, created once however often the seed runs.
func TestDemoShopSeedsShipping(t *testing.T) {
	app := testkit.MustApp(t)
	for i := 0; i < 2; i++ {
		if _, err := seed.Run(context.Background(), app.DB, seed.Options{Products: 2, VariantsPerProduct: 1}); err != nil {
			t.Fatal(err)
		}
	}
	var zones []models.ShippingZone
	app.DB.Find(&zones)
	var methods []models.ShippingMethod
	app.DB.Order("price").Find(&methods)
	if len(zones) != 1 || !zones[0].IsDefault || len(methods) != 2 {
		t.Fatalf("%d zones, %d methods", len(zones), len(methods))
	}
	std, exp := methods[0], methods[1]
	if std.Name != "Standard" || std.Price != seed.DemoStandardPrice || std.FreeAbove == nil || *std.FreeAbove != seed.DemoFreeShippingAbove ||
		exp.Name != "Express" || exp.Price != seed.DemoExpressPrice || exp.FreeAbove != nil || !std.IsActive || !exp.IsActive {
		t.Fatalf("methods %+v", methods)
	}
}
