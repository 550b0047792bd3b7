// Package bundle manages product bundles (a bundle has sets; a set offers
// variants as items) and prices a shopper's selection of a bundle.
//
// A selection names, for some sets, variants and unit quantities. Each set
// counts picks: an item picked once puts item.quantity units of its variant
// in the cart, so a line's units must be a multiple of item.quantity, and
// the picks in a set must lie within the set's minQuantity..maxQuantity.
// Without allowMixAndMatch a set's picks must all be of one item. A variant
// appears at most once in a bundle, so cart lines (variant, units) map back
// to items unambiguously. The bundle's price is the sum of its lines at
// their effective prices (pricing.Resolve) less discountPercent, rounded
// half up to the paisa and split over the lines (docs/DECISIONS.md,
// "Bundles").
package bundle

import (
	"context"
	"fmt"
	"log/slog"
	"unicode/utf8"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/cache"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// cacheNamespace is the storefront catalog cache namespace (catalog.CacheNamespace).
const cacheNamespace = "catalog"

// Service is the bundle administration service.
type Service struct {
	db    *gorm.DB
	cache *cache.Cache
	log   *slog.Logger
}

// New returns the service on db; c (may be nil) is invalidated after writes.
func New(db *gorm.DB, c *cache.Cache, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{db: db, cache: c, log: log}
}

// tx runs fn in a transaction and invalidates the storefront catalog cache
// after it commits.
func (s *Service) tx(ctx context.Context, fn func(tx *gorm.DB) error) error {
	if err := s.db.WithContext(ctx).Transaction(fn); err != nil {
		return err
	}
	if s.cache != nil {
		if err := s.cache.Invalidate(ctx, cacheNamespace); err != nil {
			s.log.ErrorContext(ctx, "catalog cache not invalidated after a bundle write", "err", err)
		}
	}
	return nil
}

// Input is a new bundle. IsActive defaults to true.
type Input struct {
	Title            string
	Description      string
	IsActive         *bool
	AllowMixAndMatch bool
	// DiscountPercent comes off the sum of the selected items (0..100 %).
	DiscountPercent money.Rate
}

// Patch is a partial bundle update.
type Patch struct {
	Title            patch.Field[string]
	Description      patch.Field[string]
	IsActive         patch.Field[bool]
	AllowMixAndMatch patch.Field[bool]
	DiscountPercent  patch.Field[money.Rate]
}

const (
	maxTitle       = 255
	maxDescription = 20000
	resBundle      = "bundle"
	resSet         = "bundle set"
	resItem        = "bundle set item"
)

func checkTitle(s string) error {
	switch {
	case s == "":
		return apperr.Invalid("title", "is required")
	case utf8.RuneCountInString(s) > maxTitle:
		return apperr.Invalid("title", "must be 1 to 255 characters")
	}
	return nil
}

func checkDescription(s string) error {
	if utf8.RuneCountInString(s) > maxDescription {
		return apperr.Invalid("description", fmt.Sprintf("must be at most %d characters", maxDescription))
	}
	return nil
}

func checkDiscount(r money.Rate) error {
	if r < 0 || r > 10000 {
		return apperr.Invalid("discountPercent", "must be between 0 and 100")
	}
	return nil
}

func nullField(fields map[string]bool) error {
	for _, name := range sortedKeys(fields) {
		if fields[name] {
			return apperr.Invalid(name, "must not be null")
		}
	}
	return nil
}

// Create stores a bundle. A keyed retry of a create that committed answers
// the bundle made. Errors: VALIDATION_ERROR, NOT_FOUND (a retry's bundle
// deleted since).
func (s *Service) Create(ctx context.Context, in Input) (*models.Bundle, error) {
	if id, ok := idempotency.RecordedRow(ctx); ok {
		return s.Get(ctx, id)
	}
	if err := firstErr(checkTitle(in.Title), checkDescription(in.Description), checkDiscount(in.DiscountPercent)); err != nil {
		return nil, err
	}
	at := now()
	b := models.Bundle{ID: uuid.New(), Title: in.Title, Description: in.Description, IsActive: true,
		AllowMixAndMatch: in.AllowMixAndMatch, DiscountPercent: in.DiscountPercent, CreatedAt: at, UpdatedAt: at}
	if in.IsActive != nil {
		b.IsActive = *in.IsActive
	}
	if err := s.tx(ctx, func(tx *gorm.DB) error {
		if err := tx.Omit(clause.Associations).Create(&b).Error; err != nil {
			return err
		}
		return idempotency.RecordRow(ctx, tx, b.ID)
	}); err != nil {
		return nil, database.Translate(err, resBundle)
	}
	b.Sets = []models.BundleSet{}
	return &b, nil
}

// Get returns a bundle with its sets and their items, in sort order.
// Errors: NOT_FOUND.
func (s *Service) Get(ctx context.Context, id uuid.UUID) (*models.Bundle, error) {
	return Load(ctx, s.db, id)
}

// Load reads a bundle with its sets and items in sort order (then creation
// order). db may be a transaction. Errors: NOT_FOUND.
func Load(ctx context.Context, db *gorm.DB, id uuid.UUID) (*models.Bundle, error) {
	var b models.Bundle
	err := db.WithContext(ctx).
		Preload("Sets", func(q *gorm.DB) *gorm.DB { return q.Order("sort_order, created_at, id") }).
		Preload("Sets.Items", func(q *gorm.DB) *gorm.DB { return q.Order("sort_order, created_at, id") }).
		Where("id = ?", id).Take(&b).Error
	if err != nil {
		return nil, database.Translate(err, resBundle)
	}
	return &b, nil
}

// Filter selects a page of bundles, newest first.
type Filter struct {
	IsActive *bool
	paging.Window
}

// List returns a page of bundles with their sets and items, and the total.
func (s *Service) List(ctx context.Context, f Filter) ([]models.Bundle, int64, error) {
	where := func() *gorm.DB {
		q := s.db.WithContext(ctx).Model(&models.Bundle{})
		if f.IsActive != nil {
			q = q.Where("is_active = ?", *f.IsActive)
		}
		return q
	}
	var rows []models.Bundle
	total, err := paging.Newest(where, f.Window, &rows, func(q *gorm.DB) *gorm.DB {
		return q.Preload("Sets", func(q *gorm.DB) *gorm.DB { return q.Order("sort_order, created_at, id") }).
			Preload("Sets.Items", func(q *gorm.DB) *gorm.DB { return q.Order("sort_order, created_at, id") })
	})
	if err != nil {
		return nil, 0, database.Translate(err, resBundle)
	}
	return rows, total, nil
}

// Update applies a partial update. A keyed retry of an update that
// committed answers the bundle as it is. Errors: NOT_FOUND,
// VALIDATION_ERROR.
func (s *Service) Update(ctx context.Context, id uuid.UUID, p Patch) (*models.Bundle, error) {
	if err := nullField(map[string]bool{"title": p.Title.IsNull(), "description": p.Description.IsNull(),
		"isActive": p.IsActive.IsNull(), "allowMixAndMatch": p.AllowMixAndMatch.IsNull(), "discountPercent": p.DiscountPercent.IsNull()}); err != nil {
		return nil, err
	}
	var errs []error
	set := map[string]any{}
	if v, ok := p.Title.Get(); ok {
		errs, set["title"] = append(errs, checkTitle(v)), v
	}
	if v, ok := p.Description.Get(); ok {
		errs, set["description"] = append(errs, checkDescription(v)), v
	}
	if v, ok := p.IsActive.Get(); ok {
		set["is_active"] = v
	}
	if v, ok := p.AllowMixAndMatch.Get(); ok {
		set["allow_mix_and_match"] = v
	}
	if v, ok := p.DiscountPercent.Get(); ok {
		errs, set["discount_percent"] = append(errs, checkDiscount(v)), v
	}
	if err := firstErr(errs...); err != nil {
		return nil, err
	}
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return s.Get(ctx, id)
	}
	err := s.tx(ctx, func(tx *gorm.DB) error {
		set["updated_at"] = now()
		res := tx.Model(&models.Bundle{}).Where("id = ?", id).Updates(set)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return gorm.ErrRecordNotFound
		}
		return idempotency.RecordRow(ctx, tx, id)
	})
	if err != nil {
		return nil, database.Translate(err, resBundle)
	}
	return s.Get(ctx, id)
}

// Delete deletes a bundle with its sets and items; cart lines of the bundle
// go with it. A keyed retry of a delete that committed changes nothing.
// Errors: NOT_FOUND.
func (s *Service) Delete(ctx context.Context, id uuid.UUID) error {
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return nil
	}
	err := s.tx(ctx, func(tx *gorm.DB) error {
		res := tx.Delete(&models.Bundle{}, "id = ?", id)
		if res.Error == nil && res.RowsAffected == 0 {
			return gorm.ErrRecordNotFound
		}
		if res.Error != nil {
			return res.Error
		}
		return idempotency.RecordRow(ctx, tx, id)
	})
	return database.Translate(err, resBundle)
}
