package catalog

import (
	"context"
	"strings"

	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"gorm.io/gorm"
)

// VariantPatch is a partial variant update. price, weight and
// lowStockThreshold may be null (the product price applies; no weight; the
// default threshold applies). inventory, when present, is a `set` with the
// same rule as AdjustInventory.
type VariantPatch struct {
	SKU               patch.Field[string]
	Price             patch.Field[money.Amount]
	Inventory         patch.Field[int]
	LowStockThreshold patch.Field[int]
	Size              patch.Field[string]
	Color             patch.Field[string]
	Weight            patch.Field[decimal.Decimal]
}

func (in VariantPatch) validate() error {
	errs := []error{patch.NotNull("sku", in.SKU), patch.NotNull("inventory", in.Inventory), patch.NotNull("size", in.Size), patch.NotNull("color", in.Color)}
	if v, ok := in.SKU.Get(); ok {
		errs = append(errs, checkSKU(v))
	}
	if v, ok := in.Price.Get(); ok {
		errs = append(errs, checkPrice("price", v))
	}
	if v, ok := in.Inventory.Get(); ok {
		errs = append(errs, checkStock("inventory", v))
	}
	if v, ok := in.LowStockThreshold.Get(); ok {
		errs = append(errs, checkStock("lowStockThreshold", v))
	}
	if v, ok := in.Size.Get(); ok {
		errs = append(errs, checkText("size", v, maxShortText))
	}
	if v, ok := in.Color.Get(); ok {
		errs = append(errs, checkText("color", v, maxShortText))
	}
	errs = append(errs, checkWeight(in.Weight.Ptr()))
	return firstErr(errs...)
}

// UpdateVariant applies a partial update. Errors: NOT_FOUND,
// VALIDATION_ERROR, CONFLICT (SKU taken; inventory below promised units).
// A keyed retry of an update that committed answers the variant as it is
// (idempotency.RecordedRow): its inventory is not set again over later sales.
func (s *Service) UpdateVariant(ctx context.Context, id uuid.UUID, in VariantPatch) (*models.Variant, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return s.GetVariant(ctx, id)
	}
	set := map[string]any{}
	if v, ok := in.SKU.Get(); ok {
		set["sku"] = strings.TrimSpace(v)
	}
	if in.Price.Present() {
		set["price"] = in.Price.Ptr()
	}
	if in.LowStockThreshold.Present() {
		set["low_stock_threshold"] = in.LowStockThreshold.Ptr()
	}
	if v, ok := in.Size.Get(); ok {
		set["size"] = v
	}
	if v, ok := in.Color.Get(); ok {
		set["color"] = v
	}
	if in.Weight.Present() {
		set["weight"] = in.Weight.Ptr()
	}
	var out models.Variant
	var low []stock.LowStock
	err := s.tx(ctx, func(tx *gorm.DB) error {
		if _, err := lockVariant(tx, id); err != nil {
			return err
		}
		if err := idempotency.RecordRow(ctx, tx, id); err != nil {
			return err
		}
		if len(set) > 0 {
			set["updated_at"] = touch()
			if err := tx.Model(&models.Variant{}).Where("id = ?", id).Updates(set).Error; err != nil {
				return err
			}
		}
		if q, ok := in.Inventory.Get(); ok {
			var err error
			if low, err = s.adjust(tx, id, stock.OpSet, q, uuid.Nil); err != nil {
				return err
			}
		}
		return tx.Where("id = ?", id).Take(&out).Error
	})
	if err != nil {
		return nil, translateVariant(err)
	}
	if len(low) > 0 && s.queue != nil {
		outbox.Nudge(ctx, s.queue, s.log)
	}
	return &out, nil
}
