package stock

import (
	"errors"
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"
)

// Place is a stock location as the moves see it: Sells is set for an
// active location that fulfils online, whose on-hand units are part of the
// variant's inventory (the figure checkout sells from). The units of any
// other location are counted in its levels only.
type Place struct {
	ID    uuid.UUID
	Sells bool
}

// NoLocation is the VALIDATION_ERROR of a location id that names no
// location.
func NoLocation() error { return apperr.Invalid("locationId", "is not a known location") }

// LockPlace reads location id (the default location when id is uuid.Nil)
// with a key-share lock: a change of whether it sells (which moves its
// units in or out of the variants' inventory, and locks it for update)
// waits for the move that read it, and the other way round. Locations are
// always locked before variants. Errors: VALIDATION_ERROR naming
// locationId.
func LockPlace(tx *gorm.DB, id uuid.UUID) (Place, error) {
	var p struct {
		ID    uuid.UUID
		Sells bool
	}
	q := tx.Raw(`SELECT id, is_active AND fulfils_online AS sells FROM locations WHERE is_default FOR KEY SHARE`)
	if id != uuid.Nil {
		q = tx.Raw(`SELECT id, is_active AND fulfils_online AS sells FROM locations WHERE id = ? FOR KEY SHARE`, id)
	}
	if err := q.Scan(&p).Error; err != nil {
		return Place{}, fmt.Errorf("stock.lock_place: %w", err)
	}
	if p.ID == uuid.Nil {
		return Place{}, NoLocation()
	}
	return Place{ID: p.ID, Sells: p.Sells}, nil
}

// levelKey names a level row in a unit's staged writes.
func levelKey(variantID, locationID uuid.UUID) string {
	return variantID.String() + "/" + locationID.String()
}

// LevelShort is the CONFLICT for a change refused because a location's
// level would go below zero (stock_levels_on_hand_check: a concurrent move
// took the units a shipment or transfer counted on) or below the units it
// holds for orders (stock_levels_held_within: holds.go), else nil.
func LevelShort(err error) error {
	var pg *pgconn.PgError
	if !errors.As(err, &pg) {
		return nil
	}
	switch pg.ConstraintName {
	case "stock_levels_on_hand_check":
		return apperr.Wrap(apperr.Conflict, "the location no longer holds the units; try again", err)
	case "stock_levels_held_within":
		return apperr.Wrap(apperr.Conflict, "the location's units are held for orders whose shipments were cancelled back to it; "+
			"ship those orders from it first", err)
	}
	return nil
}
