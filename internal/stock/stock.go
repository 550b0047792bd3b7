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
// Return (cancel, of the order or of its unshipped units): committed →
// available.
// Adjust (an administrator's set, add or subtract, one variant or a bulk):
// on hand changes, never below committed + reserved.
//
// Variants are always locked in ascending id order, so two transactions
// touching the same variants never deadlock.
package stock

import (
	"errors"
	"fmt"
	"sort"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
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

// Reserve holds items for checkout session sessionID. Each variant is
// updated only if it has the units available; otherwise nothing is reserved
// and the error is a CONFLICT naming the variant (the caller rolls back).
func Reserve(tx *gorm.DB, sessionID uuid.UUID, items []Item) error {
	var b database.Batch
	if err := ReserveStaged(tx, &b, sessionID, items); err != nil {
		return err
	}
	if err := b.Exec(tx); err != nil {
		return fmt.Errorf("stock.reserve: %w", err)
	}
	return nil
}

// ReserveStaged is Reserve adding the reservation rows to b rather than
// writing them, for a caller that writes the session in the same batch
// (checkout); the variants are updated at once, since each update's row
// count tells a shortage.
func ReserveStaged(tx *gorm.DB, b *database.Batch, sessionID uuid.UUID, items []Item) error {
	items = merge(items)
	rows := make([][]any, len(items))
	for i, it := range items {
		res := tx.Exec(`UPDATE variants SET reserved = reserved + ?, updated_at = now()
			WHERE id = ? AND inventory - reserved - committed >= ?`, it.Quantity, it.VariantID, it.Quantity)
		if res.Error != nil {
			return fmt.Errorf("stock.reserve: %w", res.Error)
		}
		if res.RowsAffected == 0 {
			return Shortage(it.VariantID)
		}
		rows[i] = []any{sessionID, it.VariantID, it.Quantity}
	}
	b.Insert("stock_reservations", []string{"checkout_session_id", "variant_id", "quantity"}, rows...)
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

// Ship removes shipped units from on-hand and from the commitment.
func Ship(tx *gorm.DB, items []Item) error {
	var b database.Batch
	StageShip(&b, items)
	if err := b.Exec(tx); err != nil {
		return fmt.Errorf("stock.ship: %w", err)
	}
	return nil
}

// StageShip adds Ship's updates to b, for a caller that sends them with its
// own statements (fulfillment.create).
func StageShip(b *database.Batch, items []Item) {
	for _, it := range merge(items) {
		b.Add(`UPDATE variants SET inventory = inventory - ?, committed = committed - ?, updated_at = now() WHERE id = ?`,
			it.Quantity, it.Quantity, it.VariantID)
	}
}

// Unship puts the units of a cancelled fulfilment back on hand and into the
// commitment of their still open order (the reverse of Ship).
func Unship(tx *gorm.DB, items []Item) error {
	for _, it := range merge(items) {
		if err := tx.Exec(`UPDATE variants SET inventory = inventory + ?, committed = committed + ?, updated_at = now() WHERE id = ?`,
			it.Quantity, it.Quantity, it.VariantID).Error; err != nil {
			return fmt.Errorf("stock.unship: %w", err)
		}
	}
	return nil
}

// Uncommit returns the committed units of a cancelled, unshipped order to
// available.
func Uncommit(tx *gorm.DB, items []Item) error {
	for _, it := range merge(items) {
		if err := tx.Exec(`UPDATE variants SET committed = GREATEST(committed - ?, 0), updated_at = now() WHERE id = ?`,
			it.Quantity, it.VariantID).Error; err != nil {
			return fmt.Errorf("stock.uncommit: %w", err)
		}
	}
	return nil
}

// StageUncommit adds Uncommit's updates to b: the committed units of lines
// cancelled before they shipped (fulfillment.CancelUnfulfilled) return to
// available.
func StageUncommit(b *database.Batch, items []Item) {
	for _, it := range merge(items) {
		b.Add(`UPDATE variants SET committed = GREATEST(committed - ?, 0), updated_at = now() WHERE id = ?`,
			it.Quantity, it.VariantID)
	}
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
