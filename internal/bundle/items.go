package bundle

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// ItemInput is a new set item. Quantity (units per pick) defaults to 1.
type ItemInput struct {
	VariantID uuid.UUID
	Quantity  *int
	IsDefault bool
	SortOrder int
}

// ItemPatch is a partial item update.
type ItemPatch struct {
	VariantID patch.Field[uuid.UUID]
	Quantity  patch.Field[int]
	IsDefault patch.Field[bool]
	SortOrder patch.Field[int]
}

const maxItemQuantity = 1000

// translateItem maps a variant deleted between the check and the write to
// the same VALIDATION_ERROR as an unknown one.
func translateItem(err error) error {
	if database.PgCode(err) == database.ForeignKeyViolation && database.Constraint(err) == "bundle_set_items_variant_id_fkey" {
		return apperr.Invalid("variantId", "does not exist")
	}
	return database.Translate(err, resItem)
}

func checkItemQuantity(q int) error {
	if q < 1 || q > maxItemQuantity {
		return apperr.Invalid("quantity", "must be between 1 and 1000")
	}
	return nil
}

// checkVariant requires an existing variant that is not yet in the bundle
// (other than in item except): a variant appears once per bundle, so cart
// lines map back to items. Errors: VALIDATION_ERROR, CONFLICT.
func checkVariant(tx *gorm.DB, bundleID, variantID uuid.UUID, except *uuid.UUID) error {
	if variantID == uuid.Nil {
		return apperr.Invalid("variantId", "is required")
	}
	var found bool
	if err := tx.Raw(`SELECT EXISTS (SELECT 1 FROM variants WHERE id = ?)`, variantID).Scan(&found).Error; err != nil {
		return fmt.Errorf("bundle.check_variant: %w", err)
	}
	if !found {
		return apperr.Invalid("variantId", "does not exist")
	}
	q := tx.Table("bundle_set_items i").Joins("JOIN bundle_sets s ON s.id = i.set_id").
		Where("s.bundle_id = ? AND i.variant_id = ?", bundleID, variantID)
	if except != nil {
		q = q.Where("i.id <> ?", *except)
	}
	var n int64
	if err := q.Count(&n).Error; err != nil {
		return fmt.Errorf("bundle.check_variant: %w", err)
	}
	if n > 0 {
		return apperr.Conflictf("the variant is already an item of this bundle").
			WithDetails(map[string]any{"field": "variantId", "issue": "already in this bundle"})
	}
	return nil
}

// CreateItem adds a variant to a set. Errors: NOT_FOUND (bundle or set),
// VALIDATION_ERROR (variantId unknown, quantity), CONFLICT (variant already
// in the bundle). A keyed retry of a create that committed answers the item
// made (NOT_FOUND when deleted since).
func (s *Service) CreateItem(ctx context.Context, bundleID, setID uuid.UUID, in ItemInput) (*models.BundleSetItem, error) {
	if id, ok := idempotency.RecordedRow(ctx); ok {
		return s.item(ctx, bundleID, setID, id)
	}
	q := 1
	if in.Quantity != nil {
		q = *in.Quantity
	}
	if err := checkItemQuantity(q); err != nil {
		return nil, err
	}
	at := now()
	item := models.BundleSetItem{ID: uuid.New(), SetID: setID, VariantID: in.VariantID, Quantity: q, IsDefault: in.IsDefault,
		SortOrder: in.SortOrder, CreatedAt: at, UpdatedAt: at}
	err := s.tx(ctx, func(tx *gorm.DB) error {
		if _, err := lockBundle(tx, bundleID); err != nil {
			return err
		}
		if _, err := findSet(tx, bundleID, setID); err != nil {
			return err
		}
		if err := checkVariant(tx, bundleID, in.VariantID, nil); err != nil {
			return err
		}
		if err := tx.Create(&item).Error; err != nil {
			return err
		}
		return idempotency.RecordRow(ctx, tx, item.ID)
	})
	if err != nil {
		return nil, translateItem(err)
	}
	return &item, nil
}

// UpdateItem applies a partial update. A keyed retry of an update that
// committed answers the item as it is. Errors: NOT_FOUND,
// VALIDATION_ERROR, CONFLICT (variant already in the bundle).
func (s *Service) UpdateItem(ctx context.Context, bundleID, setID, itemID uuid.UUID, p ItemPatch) (*models.BundleSetItem, error) {
	if err := nullField(map[string]bool{"variantId": p.VariantID.IsNull(), "quantity": p.Quantity.IsNull(),
		"isDefault": p.IsDefault.IsNull(), "sortOrder": p.SortOrder.IsNull()}); err != nil {
		return nil, err
	}
	if v, ok := p.Quantity.Get(); ok {
		if err := checkItemQuantity(v); err != nil {
			return nil, err
		}
	}
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return s.item(ctx, bundleID, setID, itemID)
	}
	var item models.BundleSetItem
	err := s.tx(ctx, func(tx *gorm.DB) error {
		if _, err := lockBundle(tx, bundleID); err != nil {
			return err
		}
		if _, err := findSet(tx, bundleID, setID); err != nil {
			return err
		}
		if err := tx.Where("id = ? AND set_id = ?", itemID, setID).Take(&item).Error; err != nil {
			return database.Translate(err, resItem)
		}
		if err := idempotency.RecordRow(ctx, tx, itemID); err != nil {
			return err
		}
		set := map[string]any{"updated_at": now()}
		if v, ok := p.VariantID.Get(); ok {
			if err := checkVariant(tx, bundleID, v, &itemID); err != nil {
				return err
			}
			set["variant_id"] = v
		}
		if v, ok := p.Quantity.Get(); ok {
			set["quantity"] = v
		}
		if v, ok := p.IsDefault.Get(); ok {
			set["is_default"] = v
		}
		if v, ok := p.SortOrder.Get(); ok {
			set["sort_order"] = v
		}
		if err := tx.Model(&models.BundleSetItem{}).Where("id = ?", itemID).Updates(set).Error; err != nil {
			return err
		}
		item = models.BundleSetItem{}
		return tx.Where("id = ?", itemID).Take(&item).Error
	})
	if err != nil {
		return nil, translateItem(err)
	}
	return &item, nil
}

// DeleteItem removes an item from a set. A keyed retry of a delete that
// committed changes nothing. Errors: NOT_FOUND.
func (s *Service) DeleteItem(ctx context.Context, bundleID, setID, itemID uuid.UUID) error {
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return nil
	}
	err := s.tx(ctx, func(tx *gorm.DB) error {
		if _, err := findSet(tx, bundleID, setID); err != nil {
			return err
		}
		res := tx.Where("id = ? AND set_id = ?", itemID, setID).Delete(&models.BundleSetItem{})
		if res.Error == nil && res.RowsAffected == 0 {
			return apperr.Missing(resItem)
		}
		if res.Error != nil {
			return res.Error
		}
		return idempotency.RecordRow(ctx, tx, itemID)
	})
	return database.Translate(err, resItem)
}

// item reads item itemID of set setID of bundle bundleID. Errors:
// NOT_FOUND.
func (s *Service) item(ctx context.Context, bundleID, setID, itemID uuid.UUID) (*models.BundleSetItem, error) {
	db := s.db.WithContext(ctx)
	if _, err := findSet(db, bundleID, setID); err != nil {
		return nil, err
	}
	var item models.BundleSetItem
	if err := db.Where("id = ? AND set_id = ?", itemID, setID).Take(&item).Error; err != nil {
		return nil, database.Translate(err, resItem)
	}
	return &item, nil
}
