package catalog

import (
	"context"
	"database/sql"
	"fmt"
	"unicode/utf8"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// VariantFilter selects variants for a picker: by part of the SKU or of the
// product's title, or by id or SKU.
type VariantFilter struct {
	// Search matches part of the SKU or of the product's title and
	// description, ignoring case and accents.
	Search string
	// IDs, when set, selects only these variants (at most MaxListIDs).
	IDs []uuid.UUID
	// SKUs, when set, selects the variants with exactly these SKUs (at most
	// MaxListIDs).
	SKUs []string
	paging.Window
}

// VariantRef is a variant with what names it to a person: its product's
// title, size, colour and SKU, and its stock.
type VariantRef struct {
	ID            uuid.UUID
	ProductID     uuid.UUID
	ProductTitle  string
	ProductStatus string
	SKU           string
	Size, Color   string
	// Price is the variant's own price, nil when it sells at ProductPrice.
	Price        *money.Amount
	ProductPrice money.Amount
	Inventory    int
	Available    int
}

// variantMatches selects the ids of the variants a search pattern matches:
// by SKU (variants_sku_search_idx) or by their product's text
// (products_search_text_idx), each side through its own index.
const variantMatches = `SELECT id FROM variants WHERE shop_fold(sku) LIKE shop_fold(?)
	UNION SELECT v.id FROM variants v JOIN products p ON p.id = v.product_id WHERE p.` + searchExpr + ` LIKE shop_fold(?)`

// SearchVariants returns a page of variants matching f, ordered by product
// title then SKU, and how many match in all. Errors: VALIDATION_ERROR
// (search too long, too many ids or SKUs).
func (s *Service) SearchVariants(ctx context.Context, f VariantFilter) ([]VariantRef, int64, error) {
	if utf8.RuneCountInString(f.Search) > maxSearch {
		return nil, 0, apperr.Invalid("search", fmt.Sprintf("must be at most %d characters", maxSearch))
	}
	if len(f.IDs) > MaxListIDs {
		return nil, 0, apperr.Invalid("ids", fmt.Sprintf("must name at most %d variants", MaxListIDs))
	}
	if len(f.SKUs) > MaxListIDs {
		return nil, 0, apperr.Invalid("skus", fmt.Sprintf("must name at most %d variants", MaxListIDs))
	}
	if f.Limit <= 0 {
		f.Limit = 20
	}
	where, args := "TRUE", []any{}
	if f.Search != "" {
		pattern := database.LikeContains(f.Search)
		where, args = where+" AND v.id IN ("+variantMatches+")", append(args, pattern, pattern)
	}
	if f.IDs != nil {
		where, args = where+" AND v.id IN ?", append(args, f.IDs)
	}
	if f.SKUs != nil {
		where, args = where+" AND v.sku IN ?", append(args, f.SKUs)
	}
	var rows []VariantRef
	var total int64
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		// Each search planned with its pattern, as ListProducts does.
		if err := tx.Exec(`SET LOCAL plan_cache_mode = force_custom_plan`).Error; err != nil {
			return err
		}
		if err := tx.Raw(`SELECT v.id, v.product_id, p.title AS product_title, p.status AS product_status, v.sku, v.size, v.color,
				v.price, p.price AS product_price, v.inventory, greatest(v.inventory - v.reserved - v.committed, 0) AS available
			FROM variants v JOIN products p ON p.id = v.product_id
			WHERE `+where+` ORDER BY p.title, v.sku LIMIT ? OFFSET ?`, append(args, f.Limit, f.Offset)...).Scan(&rows).Error; err != nil {
			return err
		}
		var err error
		total, err = paging.Total(len(rows), paging.Window{Limit: f.Limit, Offset: f.Offset}, func() (int64, error) {
			var n int64
			return n, tx.Raw(`SELECT count(*) FROM variants v WHERE `+where, args...).Scan(&n).Error
		})
		return err
	}, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, fmt.Errorf("catalog.search_variants: %w", err)
	}
	return rows, total, nil
}
