// Package stock moves units between a variant's counters, each move one
// conditional SQL update inside the caller's transaction:
//
//	inventory  units on hand
//	reserved   held by pending checkouts (stock_reservations rows)
//	committed  sold to unshipped orders
//	available  inventory − reserved − committed
//
// Reserve: available → reserved. Release: reserved → available.
// Commit: reserved → committed. Ship: committed and inventory both go down
// (Unship: both back up, a cancelled fulfilment).
// Uncommit (cancel, of the order or of its unshipped units): committed →
// available. Restock (a return received): inventory goes up.
// Adjust (an administrator's set, add or subtract, one variant or a bulk):
// on hand changes, never below committed + reserved.
//
// Variants are always locked in ascending id order, so two transactions
// touching the same variants never deadlock. The moves of an order change
// are staged in its unit of work (Stage<Move>, package uow), one update per
// variant; those of a checkout run at once where their row count decides.
package stock

import (
	"errors"
	"fmt"
	"sort"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Item is a quantity of a variant.
type Item struct {
	VariantID uuid.UUID
	Quantity  int
}

// ErrShortage is returned (wrapped in a CONFLICT) when a variant lacks units.
var ErrShortage = errors.New("stock: not enough units")

// merge sums quantities per variant and sorts by variant id.
func merge(items []Item) []Item {
	sum := map[uuid.UUID]int{}
	for _, it := range items {
		sum[it.VariantID] += it.Quantity
	}
	out := make([]Item, 0, len(sum))
	for id, q := range sum {
		if q > 0 {
			out = append(out, Item{VariantID: id, Quantity: q})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].VariantID.String() < out[j].VariantID.String() })
	return out
}

// Shortage is the CONFLICT returned when a variant cannot supply a quantity;
// details name the variant.
func Shortage(variantID uuid.UUID) *apperr.Error {
	return apperr.Wrap(apperr.Conflict, "not enough stock", ErrShortage).
		WithDetails(map[string]any{"variantId": variantID.String(), "issue": "insufficient stock"})
}

// StageReserve holds items for checkout session sessionID in u: each
// variant is updated at once, only if it has the units available (the
// update's row count tells a shortage), and the reservation rows are staged.
// Errors: CONFLICT naming the first variant short of units (nothing is
// reserved once the caller rolls back).
func StageReserve(u *uow.Unit, sessionID uuid.UUID, items []Item) error {
	items = merge(items)
	rows := make([][]any, len(items))
	for i, it := range items {
		res := u.Tx().Exec(`UPDATE variants SET reserved = reserved + ?, updated_at = now()
			WHERE id = ? AND inventory - reserved - committed >= ?`, it.Quantity, it.VariantID, it.Quantity)
		if res.Error != nil {
			return fmt.Errorf("stock.reserve: %w", res.Error)
		}
		if res.RowsAffected == 0 {
			return Shortage(it.VariantID)
		}
		rows[i] = []any{sessionID, it.VariantID, it.Quantity}
	}
	u.Insert("stock_reservations", []string{"checkout_session_id", "variant_id", "quantity"}, rows...)
	return nil
}

// reservations deletes and returns a session's reservation rows, locking
// them; a second caller finds none, which makes Release and Commit
// idempotent.
func reservations(tx *gorm.DB, sessionID uuid.UUID) ([]Item, error) {
	var rows []struct {
		VariantID uuid.UUID
		Quantity  int
	}
	err := tx.Raw(`DELETE FROM stock_reservations WHERE checkout_session_id = ? RETURNING variant_id, quantity`, sessionID).
		Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("stock.reservations: %w", err)
	}
	items := make([]Item, len(rows))
	for i, r := range rows {
		items[i] = Item{VariantID: r.VariantID, Quantity: r.Quantity}
	}
	return merge(items), nil
}

// Release returns a session's reserved units to available. Releasing twice
// is harmless. It returns what was released.
func Release(tx *gorm.DB, sessionID uuid.UUID) ([]Item, error) {
	items, err := reservations(tx, sessionID)
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		if err := tx.Exec(`UPDATE variants SET reserved = GREATEST(reserved - ?, 0), updated_at = now() WHERE id = ?`,
			it.Quantity, it.VariantID).Error; err != nil {
			return nil, fmt.Errorf("stock.release: %w", err)
		}
	}
	return items, nil
}

// Commit turns a session's reservations into commitments for its order and
// returns the items committed (none when already committed).
func Commit(tx *gorm.DB, sessionID uuid.UUID) ([]Item, error) {
	items, err := reservations(tx, sessionID)
	if err != nil {
		return nil, err
	}
	for _, it := range items {
		if err := tx.Exec(`UPDATE variants SET reserved = GREATEST(reserved - ?, 0), committed = committed + ?, updated_at = now() WHERE id = ?`,
			it.Quantity, it.Quantity, it.VariantID).Error; err != nil {
			return nil, fmt.Errorf("stock.commit: %w", err)
		}
	}
	return items, nil
}

// CommitDirect commits items that hold no reservation (a capture arriving
// after its session expired and released them): each variant must have the
// units available, else CONFLICT and the caller rolls back.
func CommitDirect(tx *gorm.DB, items []Item) error {
	for _, it := range merge(items) {
		res := tx.Exec(`UPDATE variants SET committed = committed + ?, updated_at = now()
			WHERE id = ? AND inventory - reserved - committed >= ?`, it.Quantity, it.VariantID, it.Quantity)
		if res.Error != nil {
			return fmt.Errorf("stock.commit_direct: %w", res.Error)
		}
		if res.RowsAffected == 0 {
			return Shortage(it.VariantID)
		}
	}
	return nil
}

// StageShip stages the units shipped from location from off its level,
// off the commitment and, when from sells, off on-hand (a location that
// does not sell keeps units outside the variant's inventory, so shipping
// from it lifts the variant's available: the order no longer needs the
// pool), with release, the holds the shipped lines no longer need
// (Releases). The level's CHECK refuses a location short of units
// (LevelShort tells).
func StageShip(u *uow.Unit, from Place, items []Item, release []HoldRelease) {
	onHand := 0
	if from.Sells {
		onHand = 1
	}
	relV, relL := released(release)
	for _, it := range merge(items) {
		at := [2]uuid.UUID{it.VariantID, from.ID}
		u.Update("variants", it.VariantID, `UPDATE variants SET inventory = inventory - ?, committed = committed - ?, updated_at = now() WHERE id = ?`,
			it.Quantity*onHand+relV[it.VariantID], it.Quantity, it.VariantID)
		u.Update("stock_levels", levelKey(it.VariantID, from.ID),
			`UPDATE stock_levels l SET on_hand = l.on_hand - ?, held = l.held - ? FROM (`+variantFirst+`) v
			WHERE l.variant_id = v.id AND l.location_id = ?`,
			it.Quantity, relL[at], it.VariantID, from.ID)
		delete(relV, it.VariantID)
		delete(relL, at)
	}
	stageReleaseRest(u, relV, relL)
	stageHoldRows(u, release)
}

// StageUnship stages the units of a cancelled fulfilment back on hand at
// the location it shipped from and into the commitment of their still
// open order (the reverse of StageShip). At a location that does not sell
// they are held for their lines (holds.go): the pool may have sold the
// units the shipment freed, and these are the ones the order can have.
func StageUnship(u *uow.Unit, to Place, lines []Line) {
	if to.Sells {
		for _, it := range merge(ItemsOf(lines)) {
			u.Update("variants", it.VariantID, `UPDATE variants SET inventory = inventory + ?, committed = committed + ?, updated_at = now() WHERE id = ?`,
				it.Quantity, it.Quantity, it.VariantID)
			stageLevelAdd(u, to.ID, it)
		}
		return
	}
	for _, it := range merge(ItemsOf(lines)) {
		u.Update("variants", it.VariantID, `UPDATE variants SET inventory = inventory + ?, committed = committed + ?, updated_at = now() WHERE id = ?`,
			it.Quantity, it.Quantity, it.VariantID)
		u.Update("stock_levels", levelKey(it.VariantID, to.ID),
			`INSERT INTO stock_levels (variant_id, location_id, on_hand, held) SELECT v.id, ?::uuid, ?::int, ?::int FROM (`+variantFirst+`) v
			ON CONFLICT (variant_id, location_id) DO UPDATE SET on_hand = stock_levels.on_hand + EXCLUDED.on_hand,
				held = stock_levels.held + EXCLUDED.held`,
			to.ID, it.Quantity, it.Quantity, it.VariantID)
	}
	for _, l := range lines {
		if l.Quantity > 0 {
			u.Update("stock_holds", l.OrderItemID.String()+"/"+to.ID.String(),
				`INSERT INTO stock_holds (order_item_id, location_id, variant_id, quantity) VALUES (?, ?, ?, ?)
				ON CONFLICT (order_item_id, location_id) DO UPDATE SET quantity = stock_holds.quantity + EXCLUDED.quantity`,
				l.OrderItemID, to.ID, l.VariantID, l.Quantity)
		}
	}
}

// stageReleaseRest stages the part of a release on variants and levels
// that no other staged move of the unit changes: inventory and held down
// by the units released.
func stageReleaseRest(u *uow.Unit, perVariant map[uuid.UUID]int, perLevel map[[2]uuid.UUID]int) {
	for _, id := range sortedIDs(perVariant) {
		u.Update("variants", id, `UPDATE variants SET inventory = inventory - ?, updated_at = now() WHERE id = ?`, perVariant[id], id)
	}
	levels := make([][2]uuid.UUID, 0, len(perLevel))
	for k := range perLevel {
		levels = append(levels, k)
	}
	sort.Slice(levels, func(i, j int) bool {
		return levels[i][0].String()+levels[i][1].String() < levels[j][0].String()+levels[j][1].String()
	})
	for _, k := range levels {
		stageLevelRelease(u, k[0], k[1], perLevel[k])
	}
}

func sortedIDs(m map[uuid.UUID]int) []uuid.UUID {
	ids := make([]uuid.UUID, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i].String() < ids[j].String() })
	return ids
}

// stageLevelAdd stages it's units onto its variant's level at location
// locationID, creating the level.
func stageLevelAdd(u *uow.Unit, locationID uuid.UUID, it Item) {
	u.Update("stock_levels", levelKey(it.VariantID, locationID),
		`INSERT INTO stock_levels (variant_id, location_id, on_hand) SELECT v.id, ?::uuid, ?::int FROM (`+variantFirst+`) v
		ON CONFLICT (variant_id, location_id) DO UPDATE SET on_hand = stock_levels.on_hand + EXCLUDED.on_hand`,
		locationID, it.Quantity, it.VariantID)
}

// variantFirst selects a variant (its id the one argument), locking it:
// a staged change of a level row reads it, so the level is locked only
// after its variant, whatever order the unit's parts run in. Adjustments
// and transfers lock variants, then levels; a level locked before its
// variant could deadlock with them.
const variantFirst = `SELECT id FROM variants WHERE id = ? FOR NO KEY UPDATE`

// StageUncommit stages committed units that will not ship back to
// available: those of a cancelled order, or of lines cancelled before they
// shipped, with release, the holds those lines no longer need (Releases).
func StageUncommit(u *uow.Unit, items []Item, release []HoldRelease) {
	relV, relL := released(release)
	for _, it := range merge(items) {
		u.Update("variants", it.VariantID, `UPDATE variants SET committed = GREATEST(committed - ?, 0), inventory = inventory - ?,
			updated_at = now() WHERE id = ?`,
			it.Quantity, relV[it.VariantID], it.VariantID)
		delete(relV, it.VariantID)
	}
	stageReleaseRest(u, relV, relL)
	stageHoldRows(u, release)
}

// LowStock is a variant at or below its low-stock threshold.
type LowStock struct {
	VariantID uuid.UUID `json:"variantId"`
	SKU       string    `json:"sku"`
	Available int       `json:"currentStock"`
	Threshold int       `json:"threshold"`
}

// CrossedLow returns the variants among items whose available stock is now at
// or below their threshold (the variant's, else defaultThreshold) but was
// above it before the last move took delta units each (positive delta: units
// that left available). Call it in the same transaction, after the move.
func CrossedLow(tx *gorm.DB, items []Item, defaultThreshold int) ([]LowStock, error) {
	merged := merge(items)
	if len(merged) == 0 {
		return nil, nil
	}
	ids := make([]uuid.UUID, len(merged))
	moved := map[uuid.UUID]int{}
	for i, it := range merged {
		ids[i] = it.VariantID
		moved[it.VariantID] = it.Quantity
	}
	var rows []struct {
		ID        uuid.UUID
		SKU       string
		Available int
		Threshold int
	}
	err := tx.Raw(`SELECT id, sku, inventory - reserved - committed AS available,
		COALESCE(low_stock_threshold, ?) AS threshold FROM variants WHERE id IN ?`, defaultThreshold, ids).Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("stock.crossed_low: %w", err)
	}
	var out []LowStock
	for _, r := range rows {
		before := r.Available + moved[r.ID]
		if r.Available <= r.Threshold && before > r.Threshold {
			out = append(out, LowStock{VariantID: r.ID, SKU: r.SKU, Available: r.Available, Threshold: r.Threshold})
		}
	}
	return out, nil
}
