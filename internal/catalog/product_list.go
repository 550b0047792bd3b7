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
	// and accents ("cafe" finds "Café").
	Search string
	paging.Window
}

// maxSearch bounds a search term.
const maxSearch = 200

// searchExpr is the stored column shop_fold(title || ' ' || description),
// indexed by trigrams (products_search_text_idx): a LIKE on it uses the
// index, and rechecks compare stored text instead of folding every row.
const searchExpr = `search_text`

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
		q = q.Where(searchExpr+` LIKE shop_fold(?)`, database.LikeContains(f.Search))
	}
	return q
}

// page is the query of one page of f.
func (f ProductFilter) page(db *gorm.DB) *gorm.DB {
	return f.where(db).Order("created_at DESC, id DESC").Limit(f.Limit).Offset(f.Offset)
}

// ListProducts returns a page of products matching f and how many match in
// all. Errors: VALIDATION_ERROR (status, search too long).
func (s *Service) ListProducts(ctx context.Context, f ProductFilter) ([]models.Product, int64, error) {
	if f.Status != "" {
		if err := checkStatus(f.Status); err != nil {
			return nil, 0, err
		}
	}
	if utf8.RuneCountInString(f.Search) > maxSearch {
		return nil, 0, apperr.Invalid("search", fmt.Sprintf("must be at most %d characters", maxSearch))
	}
	if f.Limit <= 0 {
		f.Limit = 20
	}
	var rows []models.Product
	var total int64
	list := func(db *gorm.DB) error {
		if err := f.page(db).Find(&rows).Error; err != nil {
			return err
		}
		var err error
		total, err = pageTotal(len(rows), f.Limit, f.Offset, func() (int64, error) {
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

// pageTotal returns the number of matching rows. A page that is neither
// empty nor full is the last page, which gives the total without counting;
// otherwise count runs.
func pageTotal(got, limit, offset int, count func() (int64, error)) (int64, error) {
	if got > 0 && got < limit {
		return int64(offset + got), nil
	}
	if got == 0 && offset == 0 {
		return 0, nil
	}
	return count()
}
