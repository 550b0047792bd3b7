package stock

import "github.com/gocommerce/shop/internal/uow"

// StageRestock stages returned units back on hand (a received return's
// restocked units, docs/DECISIONS.md "Returns"): they become available
// again. Only on-hand moves; the units left the commitment when they
// shipped.
func StageRestock(u *uow.Unit, items []Item) {
	for _, it := range merge(items) {
		u.Update("variants", it.VariantID, `UPDATE variants SET inventory = inventory + ?, updated_at = now() WHERE id = ?`,
			it.Quantity, it.VariantID)
	}
}
