package seed

import (
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Demo shipping (docs/DECISIONS.md "Shipping"): one default zone covering every state,
// standard shipping free from DemoFreeShippingAbove, and express.
var (
	DemoStandardPrice     = money.FromMajor(79)
	DemoFreeShippingAbove = money.FromMajor(999)
	DemoExpressPrice      = money.FromMajor(199)
)

// seedShipping creates the default zone and its two methods.
func seedShipping(tx *gorm.DB) error {
	zone := models.ShippingZone{ID: uuid.New(), Name: "India", IsDefault: true}
	if err := tx.Create(&zone).Error; err != nil {
		return err
	}
	free := DemoFreeShippingAbove
	methods := []models.ShippingMethod{
		{ZoneID: zone.ID, Name: "Standard", Carrier: "India Post", Price: DemoStandardPrice, FreeAbove: &free,
			GSTRate: 1800, MinDays: 3, MaxDays: 7, IsActive: true},
		{ZoneID: zone.ID, Name: "Express", Carrier: "Blue Dart", Price: DemoExpressPrice,
			GSTRate: 1800, MinDays: 1, MaxDays: 2, IsActive: true},
	}
	return tx.Create(&methods).Error
}
