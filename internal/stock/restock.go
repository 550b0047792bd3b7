package stock

import "github.com/gocommerce/shop/internal/uow"

// StageRestock stages returned units back on hand at location to (a
// received return's restocked units, docs/DECISIONS.md "Returns"): they
// become available again where to sells. Only on-hand moves; the units
// left the commitment when they shipped.
func StageRestock(u *uow.Unit, to Place, items []Item) {
	for _, it := range merge(items) {
		if to.Sells {
			u.Update("variants", it.VariantID, `UPDATE variants SET inventory = inventory + ?, updated_at = now() WHERE id = ?`,
				it.Quantity, it.VariantID)
		}
		stageLevelAdd(u, to.ID, it)
	}
}
