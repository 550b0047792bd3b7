package seed

import "gorm.io/gorm"

// DemoPickupCode is the demo's default location's pickup location at the
// courier (docs/DECISIONS.md "Couriers"): with CARRIER=simulator, as
// `make run` sets it, its fulfilments are booked with the simulator.
const DemoPickupCode = "Primary"

// seedCourier gives the default location a pickup code and a pincode, so
// the demo's fulfilments are booked when a courier is configured (with
// CARRIER=manual the code is never read).
func seedCourier(tx *gorm.DB) error {
	return tx.Exec(`UPDATE locations SET pickup_code = ?,
		address = jsonb_set(address, '{pincode}', to_jsonb(coalesce(nullif(address->>'pincode', ''), '560001')))
		WHERE is_default`, DemoPickupCode).Error
}
