// Package shipping prices delivery (docs/DECISIONS.md
// "Shipping"): zones of Indian states with one default zone covering every
// state no zone names, and per zone the methods a shopper may choose, each
// priced GST-inclusive and free at or above a cart total.
//
// Invariants, held by the schema so that concurrent writers cannot break
// them: a state is in one zone at most (shipping_zone_states is keyed by the
// state) and one zone at most is the default (a partial unique index). The
// service turns a violation into 409 CONFLICT naming the state or the field.
//
// Checkout asks ChargeFor, in its own transaction, what to charge; the
// storefront asks Options what to offer.
package shipping

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Service manages zones and methods and quotes them.
type Service struct {
	db *gorm.DB
}

// New returns the service.
func New(db *gorm.DB) *Service { return &Service{db: db} }

const (
	resZone   = "shipping zone"
	resMethod = "shipping method"
)

// defaultTaken answers a second default zone.
func defaultTaken(cause error) error {
	return apperr.Wrap(apperr.Conflict, "another zone is already the default zone", cause).
		WithDetails(map[string]any{"field": "isDefault", "issue": "another zone is already the default"})
}

// stateTaken answers a state that another zone names.
func stateTaken(state string) error {
	return apperr.New(apperr.Conflict, fmt.Sprintf("%s is already in another zone", state)).
		WithDetails(map[string]any{"field": "states", "state": state, "issue": "is already in another zone"})
}

// deleteRow deletes the row of model with id. Errors: NOT_FOUND for
// resource.
// A keyed retry of a delete that committed answers as it did, without
// looking (idempotency.RecordedRow).
func (s *Service) deleteRow(ctx context.Context, model any, id uuid.UUID, resource string) error {
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return nil
	}
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Delete(model, "id = ?", id)
		if res.Error != nil {
			return database.Translate(res.Error, resource)
		}
		if res.RowsAffected == 0 {
			return apperr.Missing(resource)
		}
		return idempotency.RecordRow(ctx, tx, id)
	})
}

func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("shipping.%s: %w", op, err)
}
