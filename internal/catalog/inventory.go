package catalog

import (
	"context"
	"errors"
	"slices"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// AdjustInventory applies set, add or subtract of qty units to a variant's
// on-hand stock at location locationID (uuid.Nil: the default location)
// through stock.Adjust, the one place of the rule: the result
// may not go below the units committed to orders plus those reserved by
// pending checkouts; such an operation is a CONFLICT and changes nothing.
// When the move takes available stock to or below the variant's low-stock
// threshold, inventory.low_stock is published.
// Errors: VALIDATION_ERROR (operation, inventory, locationId), NOT_FOUND,
// CONFLICT (below the floor, or below zero at the location).
// A keyed request retried after its process died answers with the variant
// as it is now instead of adding or subtracting the units again: the
// adjustment records itself under the request's key (adjustmentMade).
func (s *Service) AdjustInventory(ctx context.Context, id uuid.UUID, op string, qty int, locationID uuid.UUID) (*models.Variant, error) {
	if !slices.Contains(stock.Ops, op) {
		return nil, apperr.Invalid("operation", "must be one of: set, add, subtract")
	}
	if err := checkStock("inventory", qty); err != nil {
		return nil, err
	}
	if v, ok, err := s.adjustmentMade(ctx, id); ok {
		return v, err
	}
	var out models.Variant
	var low []stock.LowStock
	err := s.tx(ctx, func(tx *gorm.DB) error {
		var err error
		if low, err = s.adjust(tx, id, op, qty, locationID); err != nil {
			return err
		}
		if err := idempotency.RecordChange(uow.Within(ctx, tx), id.String()); err != nil {
			return err
		}
		return tx.Where("id = ?", id).Take(&out).Error
	})
	if err != nil {
		return nil, translate(err, resVariant)
	}
	if len(low) > 0 && s.queue != nil {
		outbox.Nudge(ctx, s.queue, s.log)
	}
	return &out, nil
}

// adjustmentMade returns variant id as it is now when an earlier run of
// the keyed request ctx serves adjusted its stock before its process died
// (ok true): the retry answers with it and changes nothing. Errors:
// NOT_FOUND (the variant is gone).
func (s *Service) adjustmentMade(ctx context.Context, id uuid.UUID) (v *models.Variant, ok bool, err error) {
	if _, ok := idempotency.RecordedChange(ctx); !ok {
		return nil, false, nil
	}
	var out models.Variant
	if err := s.db.WithContext(ctx).Where("id = ?", id).Take(&out).Error; err != nil {
		return nil, true, translate(err, resVariant)
	}
	return &out, true, nil
}

// adjust runs one inventory operation on variant id in tx (stock.Adjust)
// and turns a refusal into the API's error.
func (s *Service) adjust(tx *gorm.DB, id uuid.UUID, op string, qty int, locationID uuid.UUID) ([]stock.LowStock, error) {
	low, err := stock.Adjust(tx, []stock.Adjustment{{VariantID: id, LocationID: locationID, Operation: op, Quantity: qty}}, s.lowStockDefault)
	var refused *stock.Refusal
	if !errors.As(err, &refused) {
		return low, err
	}
	switch refused.Reason {
	case stock.RefusedMissing:
		return nil, apperr.Missing("variant")
	case stock.RefusedOverflow:
		return nil, apperr.Invalid("inventory", "would make stock exceed the largest allowed figure")
	case stock.RefusedLocation:
		return nil, apperr.Invalid("locationId", "is not a known location")
	case stock.RefusedLevel:
		return nil, apperr.Conflictf("the location holds %d units; it cannot go below zero", refused.OnHand).
			WithDetails(map[string]any{"field": "inventory", "operation": op, "quantity": qty, "onHand": refused.OnHand})
	}
	floor := refused.Committed + refused.Reserved
	return nil, apperr.Conflictf("inventory cannot go below the %d units committed to orders or reserved by checkouts", floor).
		WithDetails(map[string]any{
			"field": "inventory", "operation": op, "quantity": qty,
			"inventory": refused.Inventory, "committed": refused.Committed, "reserved": refused.Reserved,
		})
}
