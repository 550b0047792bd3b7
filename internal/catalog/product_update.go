package catalog

import (
	"context"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// ProductPatch is a partial product update: absent fields are unchanged.
// categoryId may be null (no category); the other fields may not.
type ProductPatch struct {
	Title       patch.Field[string]
	Slug        patch.Field[string]
	Description patch.Field[string]
	Price       patch.Field[money.Amount]
	GSTRate     patch.Field[money.Rate]
	CessRate    patch.Field[money.Rate]
	Unit        patch.Field[string]
	HSNCode     patch.Field[string]
	Status      patch.Field[string]
	CategoryID  patch.Field[uuid.UUID]
}

func (in ProductPatch) validate() error {
	if err := firstErr(patch.NotNull("title", in.Title), patch.NotNull("slug", in.Slug), patch.NotNull("description", in.Description),
		patch.NotNull("price", in.Price), patch.NotNull("gstRate", in.GSTRate), patch.NotNull("hsnCode", in.HSNCode),
		patch.NotNull("cessRate", in.CessRate), patch.NotNull("unit", in.Unit),
		patch.NotNull("status", in.Status)); err != nil {
		return err
	}
	var errs []error
	if v, ok := in.Title.Get(); ok {
		errs = append(errs, checkTitle("title", v))
	}
	if v, ok := in.Slug.Get(); ok {
		errs = append(errs, checkSlug(v))
	}
	if v, ok := in.Description.Get(); ok {
		errs = append(errs, checkText("description", v, maxDescription))
	}
	if v, ok := in.Price.Get(); ok {
		errs = append(errs, checkPrice("price", v))
	}
	if v, ok := in.GSTRate.Get(); ok {
		errs = append(errs, CheckGSTRate(v))
	}
	if v, ok := in.HSNCode.Get(); ok {
		errs = append(errs, checkHSNShape(v))
	}
	if v, ok := in.CessRate.Get(); ok {
		errs = append(errs, checkCessRate(v))
	}
	if v, ok := in.Unit.Get(); ok {
		errs = append(errs, checkUnit(v))
	}
	if v, ok := in.Status.Get(); ok {
		errs = append(errs, checkStatus(v))
	}
	return firstErr(errs...)
}

// UpdateProduct applies a partial update. A status change must be an
// allowed move; a price may not exceed the product's compare-at price.
// Errors: NOT_FOUND, VALIDATION_ERROR (a field; categoryId that does not
// exist), CONFLICT (status move not allowed, slug taken). A keyed retry of
// an update that committed answers the product as it is (idempotency.RecordedRow).
func (s *Service) UpdateProduct(ctx context.Context, id uuid.UUID, in ProductPatch) (*models.Product, error) {
	if err := in.validate(); err != nil {
		return nil, err
	}
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return s.productRow(ctx, id)
	}
	var out *models.Product
	err := s.tx(ctx, func(tx *gorm.DB) error {
		p, err := lockProduct(tx, id)
		if err != nil {
			return err
		}
		if err := idempotency.RecordRow(ctx, tx, id); err != nil {
			return err
		}
		set := map[string]any{}
		if v, ok := in.Title.Get(); ok {
			p.Title, set["title"] = v, v
		}
		if v, ok := in.Slug.Get(); ok {
			p.Slug, set["slug"] = v, v
		}
		if v, ok := in.Description.Get(); ok {
			p.Description, set["description"] = v, v
		}
		if v, ok := in.Price.Get(); ok {
			if p.CompareAtPrice != nil && v > *p.CompareAtPrice {
				return apperr.Invalid("price", "must not exceed compareAtPrice ("+p.CompareAtPrice.String()+"); change both through the pricing endpoint")
			}
			p.Price, set["price"] = v, v
		}
		if v, ok := in.GSTRate.Get(); ok {
			p.GSTRate, set["gst_rate"] = v, v
		}
		if v, ok := in.CessRate.Get(); ok {
			p.CessRate, set["cess_rate"] = v, v
		}
		if v, ok := in.Unit.Get(); ok {
			p.Unit, set["unit"] = v, v
		}
		if v, ok := in.HSNCode.Get(); ok {
			p.HSNCode, set["hsn_code"] = v, v
		}
		if v, ok := in.Status.Get(); ok {
			if err := checkMove(p.Status, v); err != nil {
				return err
			}
			p.Status, set["status"] = v, v
		}
		// The code is asked for when it changes or the product becomes
		// active: an active product from before the rule keeps working
		// until then.
		if in.HSNCode.Present() || in.Status.Present() {
			rule, err := loadHSNRule(tx)
			if err != nil {
				return err
			}
			if err := rule.check(p.HSNCode, p.Status); err != nil {
				return err
			}
		}
		if in.CategoryID.Present() {
			if err := checkCategoryRef(tx, "categoryId", in.CategoryID.Ptr()); err != nil {
				return err
			}
			p.CategoryID, set["category_id"] = in.CategoryID.Ptr(), in.CategoryID.Ptr()
		}
		if len(set) > 0 {
			p.UpdatedAt = touch()
			set["updated_at"] = p.UpdatedAt
			if err := tx.Model(&models.Product{}).Where("id = ?", id).Updates(set).Error; err != nil {
				if isSlugConflict(err) {
					return slugConflict(resProduct, err)
				}
				return err
			}
		}
		out = p
		return nil
	})
	if err != nil {
		return nil, translate(err, resProduct)
	}
	return out, nil
}
