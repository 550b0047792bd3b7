package stock

import (
	"fmt"
	"sort"

	"github.com/gocommerce/shop/internal/uow"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// A shipment cancelled back to a location that does not sell puts its
// units on that shelf again while its order still needs them, and the
// selling pool may have sold the units it freed when the shipment left.
// So the order line's commitment rests on those shelf units instead: they
// are held for the line (stock_holds), counted in the level's held and in
// the variant's inventory while held. Invariants: a variant's inventory is
// its selling locations' on-hand plus every level's held; a level's held
// is at most its on-hand and is the sum of its holds; a line's holds are at
// most the units it still has to ship. A hold ends when the line no longer
// needs it (its units ship or are cancelled: Releases) or when the
// location starts selling (MoveSelling).

// Line is units of an order line's variant.
type Line struct {
	OrderItemID, VariantID uuid.UUID
	Quantity               int
}

// ItemsOf returns the variant units of lines.
func ItemsOf(lines []Line) []Item {
	out := make([]Item, len(lines))
	for i, l := range lines {
		out[i] = Item{VariantID: l.VariantID, Quantity: l.Quantity}
	}
	return out
}

// Hold is units of an order line held at a location that does not sell.
type Hold struct {
	OrderItemID uuid.UUID `json:"order_item_id"`
	LocationID  uuid.UUID `json:"location_id"`
	VariantID   uuid.UUID `json:"variant_id"`
	Quantity    int       `json:"quantity"`
}

// HoldsOf returns the holds of order orderID's lines.
func HoldsOf(tx *gorm.DB, orderID uuid.UUID) ([]Hold, error) {
	var hs []Hold
	if err := tx.Raw(`SELECT h.order_item_id, h.location_id, h.variant_id, h.quantity
		FROM stock_holds h JOIN order_items i ON i.id = h.order_item_id
		WHERE i.order_id = ? ORDER BY h.order_item_id, h.location_id`, orderID).Scan(&hs).Error; err != nil {
		return nil, fmt.Errorf("stock.holds: %w", err)
	}
	return hs, nil
}

// Releases returns the parts of holds to end when lines have fewer units
// left to ship: left maps a line to the units it still has to ship after
// the change (lines not in it keep their holds). A line keeps at most that
// many units held; the rest are released at location first (the shelf a
// shipment just left, whose units went with it), then from the highest
// location id down, so the same holds always release the same way.
func Releases(holds []Hold, first uuid.UUID, left map[uuid.UUID]int) []HoldRelease {
	byLine := map[uuid.UUID][]Hold{}
	for _, h := range holds {
		if _, ok := left[h.OrderItemID]; ok {
			byLine[h.OrderItemID] = append(byLine[h.OrderItemID], h)
		}
	}
	var out []HoldRelease
	for line, hs := range byLine {
		total := 0
		for _, h := range hs {
			total += h.Quantity
		}
		excess := total - max(left[line], 0)
		if excess <= 0 {
			continue
		}
		sort.Slice(hs, func(i, j int) bool {
			if (hs[i].LocationID == first) != (hs[j].LocationID == first) {
				return hs[i].LocationID == first
			}
			return hs[i].LocationID.String() > hs[j].LocationID.String()
		})
		for _, h := range hs {
			if excess == 0 {
				break
			}
			r := min(h.Quantity, excess)
			excess -= r
			out = append(out, HoldRelease{Hold: Hold{OrderItemID: h.OrderItemID, LocationID: h.LocationID, VariantID: h.VariantID,
				Quantity: r}, Ends: r == h.Quantity})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].OrderItemID != out[j].OrderItemID {
			return out[i].OrderItemID.String() < out[j].OrderItemID.String()
		}
		return out[i].LocationID.String() < out[j].LocationID.String()
	})
	return out
}

// HoldRelease is a part of a hold to end: Quantity is the units released;
// Ends is set when they are all it held.
type HoldRelease struct {
	Hold
	Ends bool
}

// released sums a release per variant and per level.
func released(release []HoldRelease) (perVariant map[uuid.UUID]int, perLevel map[[2]uuid.UUID]int) {
	perVariant, perLevel = map[uuid.UUID]int{}, map[[2]uuid.UUID]int{}
	for _, r := range release {
		perVariant[r.VariantID] += r.Quantity
		perLevel[[2]uuid.UUID{r.VariantID, r.LocationID}] += r.Quantity
	}
	return perVariant, perLevel
}

// stageHoldRows stages the hold rows' part of a release: each hold ends
// (its row goes) or shrinks.
func stageHoldRows(u *uow.Unit, release []HoldRelease) {
	for _, r := range release {
		if r.Ends {
			u.Add(`DELETE FROM stock_holds WHERE order_item_id = ? AND location_id = ?`, r.OrderItemID, r.LocationID)
			continue
		}
		u.Update("stock_holds", r.OrderItemID.String()+"/"+r.LocationID.String(),
			`UPDATE stock_holds SET quantity = quantity - ? WHERE order_item_id = ? AND location_id = ?`,
			r.Quantity, r.OrderItemID, r.LocationID)
	}
}

// stageLevelRelease stages a level's held going down by n (a level a
// release touches that no other staged move changes).
func stageLevelRelease(u *uow.Unit, variantID, locationID uuid.UUID, n int) {
	u.Update("stock_levels", levelKey(variantID, locationID),
		`UPDATE stock_levels l SET held = l.held - ? FROM (`+variantFirst+`) v
		WHERE l.variant_id = v.id AND l.location_id = ?`,
		n, variantID, locationID)
}
