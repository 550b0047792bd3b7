package stock

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gocommerce/shop/internal/outbox"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Operations of an on-hand adjustment: set the units on hand, or add or
// subtract units.
const (
	OpSet      = "set"
	OpAdd      = "add"
	OpSubtract = "subtract"
)

// Ops lists the adjustment operations.
var Ops = []string{OpSet, OpAdd, OpSubtract}

// MaxUnits is the largest quantity an adjustment takes, and the largest
// on-hand figure it may leave (the inventory column is an int4).
const (
	MaxUnits  = 1_000_000_000
	maxOnHand = math.MaxInt32
)

// Adjustment is a change of a variant's units on hand.
type Adjustment struct {
	VariantID uuid.UUID
	Operation string // OpSet, OpAdd or OpSubtract
	Quantity  int
}

// Refusal explains an adjustment that cannot be applied; Adjust then
// applies none of its adjustments.
type Refusal struct {
	Adjustment
	Reason string // RefusedFloor, RefusedOverflow or RefusedMissing
	SKU    string
	// The variant's units when it was refused.
	Inventory, Committed, Reserved int
}

// Reasons of a Refusal.
const (
	// RefusedFloor: the result would be below the units committed to orders
	// plus those reserved by pending checkouts.
	RefusedFloor = "floor"
	// RefusedOverflow: the result would exceed the largest stock level.
	RefusedOverflow = "overflow"
	// RefusedMissing: the variant does not exist.
	RefusedMissing = "missing"
)

func (r *Refusal) Error() string {
	switch r.Reason {
	case RefusedMissing:
		return fmt.Sprintf("variant %s no longer exists", r.VariantID)
	case RefusedOverflow:
		return fmt.Sprintf("variant %s: %s %d would exceed the largest stock level", r.SKU, r.Operation, r.Quantity)
	}
	floor := r.Committed + r.Reserved
	after, _ := result(r.Inventory, r.Adjustment)
	return fmt.Sprintf("variant %s: %s %d would leave %d on hand, below the %d units committed to orders (%d) and reserved by checkouts (%d)",
		r.SKU, r.Operation, r.Quantity, after, floor, r.Committed, r.Reserved)
}

// Adjust applies adjustments to the units on hand in tx, all or none: the
// one place the floor rule lives, for a single variant's PATCH and for bulk
// updates alike. The variants are locked in id order (as every stock move
// locks them, so two adjustments never deadlock) and each result is checked
// against the floor, the units committed to orders plus those reserved by
// pending checkouts, while locked: nothing is read and written back
// unlocked. Any refusal is returned as a *Refusal and nothing is changed.
// inventory.low_stock is published, in tx, for each variant whose available
// units the adjustments took to or below its threshold (the variant's, else
// lowStockDefault); the alerts are returned.
func Adjust(tx *gorm.DB, adjustments []Adjustment, lowStockDefault int) ([]LowStock, error) {
	sorted := append([]Adjustment(nil), adjustments...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].VariantID.String() < sorted[j].VariantID.String() })
	ids := make([]uuid.UUID, len(sorted))
	for i, a := range sorted {
		ids[i] = a.VariantID
	}
	var rows []struct {
		ID                             uuid.UUID
		SKU                            string
		Inventory, Reserved, Committed int
	}
	if err := tx.Raw(`SELECT id, sku, inventory, reserved, committed FROM variants WHERE id IN ? ORDER BY id FOR UPDATE`, ids).
		Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("stock.adjust: %w", err)
	}
	locked := make(map[uuid.UUID]int, len(rows))
	for i, r := range rows {
		locked[r.ID] = i
	}
	onHand := make([]string, len(sorted))
	var decreases []Item
	for i, a := range sorted {
		k, ok := locked[a.VariantID]
		if !ok {
			return nil, &Refusal{Adjustment: a, Reason: RefusedMissing}
		}
		v := rows[k]
		refuse := func(reason string) error {
			return &Refusal{Adjustment: a, Reason: reason, SKU: v.SKU, Inventory: v.Inventory, Committed: v.Committed, Reserved: v.Reserved}
		}
		n, ok := result(v.Inventory, a)
		switch {
		case !ok:
			return nil, fmt.Errorf("stock.adjust: unknown operation %q", a.Operation)
		case n > maxOnHand:
			return nil, refuse(RefusedOverflow)
		case n < v.Committed+v.Reserved:
			return nil, refuse(RefusedFloor)
		}
		onHand[i] = strconv.Itoa(n)
		if n < v.Inventory {
			decreases = append(decreases, Item{VariantID: v.ID, Quantity: v.Inventory - n})
		}
	}
	idList := make([]string, len(ids))
	for i, id := range ids {
		idList[i] = id.String()
	}
	// Arrays as literals: GORM would expand a Go slice into a list.
	if err := tx.Exec(`UPDATE variants v SET inventory = u.inventory, updated_at = now()
		FROM unnest(?::uuid[], ?::int[]) AS u(id, inventory) WHERE v.id = u.id`,
		"{"+strings.Join(idList, ",")+"}", "{"+strings.Join(onHand, ",")+"}").Error; err != nil {
		return nil, fmt.Errorf("stock.adjust: %w", err)
	}
	low, err := CrossedLow(tx, decreases, lowStockDefault)
	if err != nil {
		return nil, err
	}
	for _, l := range low {
		if _, err := outbox.Publish(tx, outbox.InventoryLowStock, l); err != nil {
			return nil, err
		}
	}
	return low, nil
}

// result is the units on hand after a, from inventory; false for an
// unknown operation.
func result(inventory int, a Adjustment) (int, bool) {
	switch a.Operation {
	case OpSet:
		return a.Quantity, true
	case OpAdd:
		return inventory + a.Quantity, true
	case OpSubtract:
		return inventory - a.Quantity, true
	}
	return 0, false
}
