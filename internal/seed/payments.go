package seed

import (
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
)

// Demo cash on delivery (docs/DECISIONS.md "Cash on delivery and offline
// payments"): on in every zone for orders up to DemoCODLimit, with a fee.
var (
	DemoCODLimit = money.FromMajor(10000)
	DemoCODFee   = money.FromMajor(49)
)

// seedPayments turns cash on delivery on, as an Indian shop runs it.
func seedPayments(tx *gorm.DB) error {
	return tx.Create(&models.PaymentSettings{ID: 1, CODEnabled: true, CODMaxOrderAmount: DemoCODLimit, CODFee: DemoCODFee,
		CODFeeGSTRate: 1800, CODZoneIDs: models.StringArray{}, CODMaxOpenPerCustomer: 3, UpdatedAt: time.Now().UTC()}).Error
}
