package catalog

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/gocommerce/shop/internal/apperr"
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
	Limit  int
	Offset int
}

// maxSearch bounds a search term.
const maxSearch = 200

// searchExpr is the expression of the products_search_idx trigram index;
// filtering on exactly this expression lets Postgres use the index.
const searchExpr = `shop_fold(title || ' ' || description)`

func (f ProductFilter) where(db *gorm.DB) *gorm.DB {
	q := db.Model(&models.Product{})
	if f.Status != "" {
		q = q.Where("status = ?", f.Status)
	}
	if f.CategoryID != nil {
		q = q.Where("category_id = ?", *f.CategoryID)
	}
	if f.Search != "" {
		q = q.Where(searchExpr+` LIKE shop_fold(?)`, likeContains(f.Search))
	}
	return q
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
	db := s.db.WithContext(ctx)
	var rows []models.Product
	err := f.where(db).Order("created_at DESC, id DESC").Limit(f.Limit).Offset(f.Offset).Find(&rows).Error
	if err != nil {
		return nil, 0, translate(err, resProduct)
	}
	total, err := pageTotal(len(rows), f.Limit, f.Offset, func() (int64, error) {
		var n int64
		return n, f.where(db).Count(&n).Error
	})
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
