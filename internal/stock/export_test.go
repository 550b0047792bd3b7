package stock

import (
	"context"

	"github.com/google/uuid"
	"gorm.io/gorm"

	"github.com/gocommerce/shop/internal/uow"
)

// The moves run at once in a transaction the test opened, for the tests
// that check the counters move by move.

func Reserve(tx *gorm.DB, sessionID uuid.UUID, items []Item) error {
	return runNow(tx, func(u *uow.Unit) error { return StageReserve(u, sessionID, items) })
}

func Ship(tx *gorm.DB, items []Item) error {
	return runNow(tx, func(u *uow.Unit) error {
		p, err := LockPlace(tx, uuid.Nil)
		if err != nil {
			return err
		}
		StageShip(u, p, items, nil)
		return nil
	})
}

func Uncommit(tx *gorm.DB, items []Item) error {
	return runNow(tx, func(u *uow.Unit) error { StageUncommit(u, items, nil); return nil })
}

func runNow(tx *gorm.DB, stage func(u *uow.Unit) error) error {
	u := uow.Within(context.Background(), tx)
	if err := stage(u); err != nil {
		return err
	}
	return u.Flush()
}
