package catalog

import (
	"context"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"
	"gorm.io/gorm"
)

// VariantInput is a new variant of a product. A nil Price means the
// product's price applies.
type VariantInput struct {
	SKU               string
	Price             *money.Amount
	Inventory         int
	LowStockThreshold *int
	Size              string
	Color             string
	Weight            *decimal.Decimal
}

func (in VariantInput) validate() error {
	errs := []error{
		checkSKU(in.SKU),
		checkStock("inventory", in.Inventory),
		checkText("size", in.Size, maxShortText),
		checkText("color", in.Color, maxShortText),
		checkWeight(in.Weight),
	}
	if in.Price != nil {
		errs = append(errs, checkPrice("price", *in.Price))
	}
	if in.LowStockThreshold != nil {
		errs = append(errs, checkStock("lowStockThreshold", *in.LowStockThreshold))
	}
	return firstErr(errs...)
}

func checkSKU(s string) error {
	if err := checkRequiredText("sku", s, maxSKU); err != nil {
		return err
	}
	if strings.TrimSpace(s) != s {
		return apperr.Invalid("sku", "must not start or end with spaces")
	}
	return nil
}

// skuConflict is the CONFLICT of a SKU another variant holds.
func skuConflict(err error) error {
	return apperr.Wrap(apperr.Conflict, "a variant with this SKU already exists", err).
		WithDetails(map[string]any{"field": "sku", "issue": "already exists"})
}

func translateVariant(err error) error {
	if database.IsUnique(err) && database.Constraint(err) == "variants_sku_key" {
		return skuConflict(err)
	}
	return translate(err, resVariant)
}

// CreateVariant adds a variant to a product and answers it as stored. A
// keyed retry of a create that committed answers the variant made
// (idempotency.RecordedRow). Errors: NOT_FOUND (product; a retry's variant deleted
// since), VALIDATION_ERROR, CONFLICT (SKU taken).
func (s *Service) CreateVariant(ctx context.Context, productID uuid.UUID, in VariantInput) (*models.Variant, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	if id, ok := idempotency.RecordedRow(ctx); ok {
		return s.GetVariant(ctx, id)
	}
	v := models.Variant{
		ID: uuid.New(), ProductID: productID, SKU: in.SKU, Price: in.Price, Inventory: in.Inventory,
		LowStockThreshold: in.LowStockThreshold, Size: in.Size, Color: in.Color, Weight: in.Weight,
	}
	err := s.tx(ctx, func(tx *gorm.DB) error {
		if _, err := lockProduct(tx, productID); err != nil {
			return err
		}
		if err := tx.Create(&v).Error; err != nil {
			return err
		}
		if err := idempotency.RecordRow(ctx, tx, v.ID); err != nil {
			return err
		}
		// As stored (weight to its scale, times to the microsecond), as a
		// retry reads it.
		return tx.Where("id = ?", v.ID).Take(&v).Error
	})
	if err != nil {
		return nil, translateVariant(err)
	}
	return &v, nil
}

// GetVariant returns a variant. Errors: NOT_FOUND.
func (s *Service) GetVariant(ctx context.Context, id uuid.UUID) (*models.Variant, error) {
	var v models.Variant
	if err := s.db.WithContext(ctx).Where("id = ?", id).Take(&v).Error; err != nil {
		return nil, translate(err, resVariant)
	}
	return &v, nil
}

// DeleteVariant deletes a variant. A variant with units reserved by a
// checkout or committed to an unshipped order cannot go: CONFLICT. Past
// order lines keep their SKU and title. A keyed retry of a delete that
// committed changes nothing. Errors: NOT_FOUND, CONFLICT.
func (s *Service) DeleteVariant(ctx context.Context, id uuid.UUID) error {
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return nil
	}
	err := s.tx(ctx, func(tx *gorm.DB) error {
		v, err := lockVariant(tx, id)
		if err != nil {
			return err
		}
		if err := idempotency.RecordRow(ctx, tx, id); err != nil {
			return err
		}
		if v.Reserved > 0 || v.Committed > 0 {
			return apperr.Conflictf("variant %s has units reserved or committed to orders", v.SKU).
				WithDetails(map[string]any{"reserved": v.Reserved, "committed": v.Committed})
		}
		return tx.Delete(&models.Variant{}, "id = ?", id).Error
	})
	return translate(err, resVariant)
}

func lockVariant(tx *gorm.DB, id uuid.UUID) (*models.Variant, error) {
	var v models.Variant
	if err := tx.Raw(`SELECT * FROM variants WHERE id = ? FOR UPDATE`, id).Scan(&v).Error; err != nil {
		return nil, err
	}
	if v.ID == uuid.Nil {
		return nil, apperr.Missing(resVariant)
	}
	return &v, nil
}

// touch returns the update time of a write, to the microsecond as
// Postgres keeps it: an answer built from it is the one a later read (a
// keyed retry's) gives.
func touch() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }
