package catalog

import (
	"context"
	"database/sql"
	"fmt"
	"unicode/utf8"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// ProductFilter selects a page of products, newest first.
type ProductFilter struct {
	// Status, when set, is one of ProductStatuses.
	Status     string
	CategoryID *uuid.UUID
	// Search matches title and description as a substring, ignoring case
	// and accents ("cafe" finds "Café"), or part of a variant's SKU.
	Search string
	// IDs, when set, selects only these products (at most MaxListIDs).
	IDs []uuid.UUID
	// MissingHSN selects the active products without an HSN code, which
	// their tax documents need.
	MissingHSN bool
	paging.Window
}

// MaxListIDs bounds the ids a list may ask for at once: a page's worth.
const MaxListIDs = 100

// ListedProduct is a product as the admin list shows it, with the stock of
// its variants.
type ListedProduct struct {
	models.Product
	// Variants is how many variants the product has.
	Variants int
	// OnHand and Available sum its variants' units on hand and units that
	// can still be sold (on hand less reserved and committed, not below 0).
	OnHand, Available int
}

// maxSearch bounds a search term.
const maxSearch = 200

// searchExpr is the stored column shop_fold(title || ' ' || description),
// indexed by trigrams (products_search_text_idx): a LIKE on it uses the
// index, and rechecks compare stored text instead of folding every row.
const searchExpr = `search_text`

// searchMatches selects the ids of the products a search pattern matches:
// by their text, or by a variant's SKU (variants_sku_search_idx). A UNION
// rather than an OR, so that each side reads its own trigram index instead
// of one scan of every product testing both.
const searchMatches = `SELECT id FROM products WHERE ` + searchExpr + ` LIKE shop_fold(?)
	UNION SELECT product_id FROM variants WHERE shop_fold(sku) LIKE shop_fold(?)`

func (f ProductFilter) where(db *gorm.DB) *gorm.DB {
	q := db.Model(&models.Product{})
	if f.Status != "" {
		q = q.Where("status = ?", f.Status)
	}
	if f.CategoryID != nil {
		q = q.Where("category_id = ?", *f.CategoryID)
	}
	if f.Search != "" {
		// likeContains escapes with backslash, LIKE's default escape
		pattern := database.LikeContains(f.Search)
		q = q.Where(`id IN (`+searchMatches+`)`, pattern, pattern)
	}
	if f.IDs != nil {
		q = q.Where("id IN ?", f.IDs)
	}
	if f.MissingHSN {
		q = q.Where(MissingHSNWhere)
	}
	return q
}

// page is the query of one page of f.
func (f ProductFilter) page(db *gorm.DB) *gorm.DB {
	return f.where(db).Order("created_at DESC, id DESC").Limit(f.Limit).Offset(f.Offset)
}

// ListProducts returns a page of products matching f, with their stock,
// and how many match in all. Errors: VALIDATION_ERROR (status, search too
// long, too many ids).
func (s *Service) ListProducts(ctx context.Context, f ProductFilter) ([]ListedProduct, int64, error) {
	if f.Status != "" {
		if err := checkStatus(f.Status); err != nil {
			return nil, 0, err
		}
	}
	if utf8.RuneCountInString(f.Search) > maxSearch {
		return nil, 0, apperr.Invalid("search", fmt.Sprintf("must be at most %d characters", maxSearch))
	}
	if len(f.IDs) > MaxListIDs {
		return nil, 0, apperr.Invalid("ids", fmt.Sprintf("must name at most %d products", MaxListIDs))
	}
	if f.Limit <= 0 {
		f.Limit = 20
	}
	var rows []ListedProduct
	var total int64
	list := func(db *gorm.DB) error {
		var products []models.Product
		if err := f.page(db).Find(&products).Error; err != nil {
			return err
		}
		var err error
		if rows, err = withStock(db, products); err != nil {
			return err
		}
		total, err = paging.Total(len(rows), paging.Window{Limit: f.Limit, Offset: f.Offset}, func() (int64, error) {
			var n int64
			return n, f.where(db).Count(&n).Error
		})
		return err
	}
	db := s.db.WithContext(ctx)
	var err error
	if f.Search == "" {
		err = list(db)
	} else {
		err = db.Transaction(func(tx *gorm.DB) error {
			// A generic plan of a prepared search cannot see the pattern: it
			// would scan the whole trigram index for a short term, where a
			// planner that sees it picks a cheaper scan (docs/DECISIONS.md).
			if err := tx.Exec(`SET LOCAL plan_cache_mode = force_custom_plan`).Error; err != nil {
				return err
			}
			return list(tx)
		}, &sql.TxOptions{ReadOnly: true})
	}
	if err != nil {
		return nil, 0, translate(err, resProduct)
	}
	return rows, total, nil
}

// withStock returns products with the stock of their variants, read in one
// statement for the page.
func withStock(db *gorm.DB, products []models.Product) ([]ListedProduct, error) {
	out := make([]ListedProduct, len(products))
	if len(products) == 0 {
		return out, nil
	}
	ids := make([]uuid.UUID, len(products))
	for i, p := range products {
		ids[i] = p.ID
	}
	var sums []struct {
		ProductID                   uuid.UUID
		Variants, OnHand, Available int
	}
	if err := db.Raw(`SELECT product_id, count(*) AS variants, coalesce(sum(inventory), 0) AS on_hand,
			coalesce(sum(greatest(inventory - reserved - committed, 0)), 0) AS available
		FROM variants WHERE product_id IN ? GROUP BY product_id`, ids).Scan(&sums).Error; err != nil {
		return nil, err
	}
	byProduct := make(map[uuid.UUID]int, len(sums))
	for i, s := range sums {
		byProduct[s.ProductID] = i
	}
	for i, p := range products {
		out[i].Product = p
		if j, ok := byProduct[p.ID]; ok {
			out[i].Variants, out[i].OnHand, out[i].Available = sums[j].Variants, sums[j].OnHand, sums[j].Available
		}
	}
	return out, nil
}

// MissingHSNWhere is the condition of an active product without the HSN
// code its documents need (the health report's hsn_missing reads it too).
const MissingHSNWhere = `status = 'active' AND hsn_code = ''`
