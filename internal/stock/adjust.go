package stock

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
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

// Adjustment is a change of a variant's units on hand at a location.
type Adjustment struct {
	VariantID uuid.UUID
	// LocationID is where the units are; uuid.Nil: the default location.
	LocationID uuid.UUID
	Operation  string // OpSet, OpAdd or OpSubtract
	Quantity   int
}

// Refusal explains an adjustment that cannot be applied; Adjust then
// applies none of its adjustments.
type Refusal struct {
	Adjustment
	Reason string // RefusedFloor, RefusedLevel, RefusedOverflow, RefusedMissing or RefusedLocation
	SKU    string
	// The variant's units when it was refused, and the location's.
	Inventory, Committed, Reserved, OnHand int
}

// Reasons of a Refusal.
const (
	// RefusedFloor: the result would be below the units committed to orders
	// plus those reserved by pending checkouts.
	RefusedFloor = "floor"
	// RefusedLevel: the location holds fewer units than subtracted.
	RefusedLevel = "level"
	// RefusedOverflow: the result would exceed the largest stock level.
	RefusedOverflow = "overflow"
	// RefusedMissing: the variant does not exist.
	RefusedMissing = "missing"
	// RefusedLocation: the location does not exist.
	RefusedLocation = "location"
)

func (r *Refusal) Error() string {
	switch r.Reason {
	case RefusedMissing:
		return fmt.Sprintf("variant %s no longer exists", r.VariantID)
	case RefusedLocation:
		return fmt.Sprintf("location %s does not exist", r.LocationID)
	case RefusedOverflow:
		return fmt.Sprintf("variant %s: %s %d would exceed the largest stock level", r.SKU, r.Operation, r.Quantity)
	case RefusedLevel:
		return fmt.Sprintf("variant %s: %s %d would leave fewer than 0 units at the location, which holds %d",
			r.SKU, r.Operation, r.Quantity, r.OnHand)
	}
	floor := r.Committed + r.Reserved
	return fmt.Sprintf("variant %s: %s %d would leave %d on hand, below the %d units committed to orders (%d) and reserved by checkouts (%d)",
		r.SKU, r.Operation, r.Quantity, r.Inventory-r.OnHand+mustResult(r.OnHand, r.Adjustment), floor, r.Committed, r.Reserved)
}

// mustResult is result without its check.
func mustResult(onHand int, a Adjustment) int {
	n, _ := result(onHand, a)
	return n
}

// Adjust applies adjustments to the units on hand in tx, all or none: the
// one place the floor rule lives, for a single variant's PATCH and for bulk
// updates alike. Each adjustment sets or moves the level of its variant at
// its location (the default one when none is named); the variant's
// inventory moves with it when the location sells. The locations are
// key-share locked first (LockPlace), then the variants in id order (as
// every stock move locks them, so two adjustments never deadlock), then
// their levels, and each result is checked while locked against the
// location's units and the floor, the units committed to orders plus those
// reserved by pending checkouts: nothing is read and written back unlocked.
// Any refusal is returned as a *Refusal and nothing is changed.
// inventory.low_stock is published, in tx, for each variant whose available
// units the adjustments took to or below its threshold (the variant's, else
// lowStockDefault); the alerts are returned.
func Adjust(tx *gorm.DB, adjustments []Adjustment, lowStockDefault int) ([]LowStock, error) {
	sorted := append([]Adjustment(nil), adjustments...)
	places := map[uuid.UUID]Place{} // by the id asked for (uuid.Nil: the default)
	sells := map[uuid.UUID]bool{}   // by location id
	for i, a := range sorted {
		p, ok := places[a.LocationID]
		if !ok {
			var err error
			if p, err = LockPlace(tx, a.LocationID); err != nil {
				var e *apperr.Error
				if errors.As(err, &e) {
					return nil, &Refusal{Adjustment: a, Reason: RefusedLocation}
				}
				return nil, err
			}
			places[a.LocationID] = p
			sells[p.ID] = p.Sells
		}
		sorted[i].LocationID = p.ID
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].VariantID.String() < sorted[j].VariantID.String() })
	ids := make([]uuid.UUID, 0, len(sorted))
	for i, a := range sorted {
		if i == 0 || sorted[i-1].VariantID != a.VariantID {
			ids = append(ids, a.VariantID)
		}
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
	var levelRows []struct {
		VariantID, LocationID uuid.UUID
		OnHand, Held          int
	}
	if err := tx.Raw(`SELECT variant_id, location_id, on_hand, held FROM stock_levels WHERE variant_id IN ?
		ORDER BY variant_id, location_id FOR UPDATE`, ids).Scan(&levelRows).Error; err != nil {
		return nil, fmt.Errorf("stock.adjust: levels: %w", err)
	}
	levels := make(map[string]int, len(levelRows))
	held := make(map[string]int, len(levelRows)) // units held for orders (holds.go)
	for _, l := range levelRows {
		levels[levelKey(l.VariantID, l.LocationID)] = l.OnHand
		held[levelKey(l.VariantID, l.LocationID)] = l.Held
	}
	locked := make(map[uuid.UUID]int, len(rows))
	for i, r := range rows {
		locked[r.ID] = i
	}
	inventory := make(map[uuid.UUID]int, len(rows))
	for _, r := range rows {
		inventory[r.ID] = r.Inventory
	}
	var levelVariants, levelLocations, levelOnHand []string
	for _, a := range sorted {
		k, ok := locked[a.VariantID]
		if !ok {
			return nil, &Refusal{Adjustment: a, Reason: RefusedMissing}
		}
		v := rows[k]
		key := levelKey(a.VariantID, a.LocationID)
		before := levels[key]
		refuse := func(reason string) error {
			return &Refusal{Adjustment: a, Reason: reason, SKU: v.SKU, Inventory: inventory[v.ID], Committed: v.Committed,
				Reserved: v.Reserved, OnHand: before}
		}
		n, ok := result(before, a)
		switch {
		case !ok:
			return nil, fmt.Errorf("stock.adjust: unknown operation %q", a.Operation)
		case n > maxOnHand:
			return nil, refuse(RefusedOverflow)
		case n < 0:
			return nil, refuse(RefusedLevel)
		case n < held[key]:
			return nil, refuse(RefusedFloor)
		}
		if sells[a.LocationID] {
			after := inventory[v.ID] + n - before
			switch {
			case after > maxOnHand:
				return nil, refuse(RefusedOverflow)
			case n < before && after < v.Committed+v.Reserved:
				return nil, refuse(RefusedFloor)
			}
			inventory[v.ID] = after
		}
		levels[key] = n
		levelVariants = append(levelVariants, a.VariantID.String())
		levelLocations = append(levelLocations, a.LocationID.String())
		levelOnHand = append(levelOnHand, strconv.Itoa(n))
	}
	idList := make([]string, len(rows))
	onHand := make([]string, len(rows))
	var decreases []Item
	for i, r := range rows {
		idList[i] = r.ID.String()
		onHand[i] = strconv.Itoa(inventory[r.ID])
		if inventory[r.ID] < r.Inventory {
			decreases = append(decreases, Item{VariantID: r.ID, Quantity: r.Inventory - inventory[r.ID]})
		}
	}
	// Arrays as literals: GORM would expand a Go slice into a list.
	if err := tx.Exec(`UPDATE variants v SET inventory = u.inventory, updated_at = now()
		FROM unnest(?::uuid[], ?::int[]) AS u(id, inventory) WHERE v.id = u.id AND v.inventory <> u.inventory`,
		pgArray(idList), pgArray(onHand)).Error; err != nil {
		return nil, fmt.Errorf("stock.adjust: %w", err)
	}
	if err := tx.Exec(`INSERT INTO stock_levels (variant_id, location_id, on_hand)
		SELECT * FROM unnest(?::uuid[], ?::uuid[], ?::int[])
		ON CONFLICT (variant_id, location_id) DO UPDATE SET on_hand = EXCLUDED.on_hand`,
		pgArray(levelVariants), pgArray(levelLocations), pgArray(levelOnHand)).Error; err != nil {
		return nil, fmt.Errorf("stock.adjust: levels: %w", err)
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

// pgArray is a Postgres array literal of elems (uuids or integers).
func pgArray(elems []string) string { return "{" + strings.Join(elems, ",") + "}" }

// result is the units on hand after a, from inventory; false for an
// unknown operation.
func result(onHand int, a Adjustment) (int, bool) {
	switch a.Operation {
	case OpSet:
		return a.Quantity, true
	case OpAdd:
		return onHand + a.Quantity, true
	case OpSubtract:
		return onHand - a.Quantity, true
	}
	return 0, false
}
