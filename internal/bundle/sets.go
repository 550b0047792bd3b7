package bundle

import (
	"context"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// SetInput is a new bundle set. MinQuantity defaults to 1 and MaxQuantity
// to the larger of 1 and MinQuantity.
type SetInput struct {
	Title       string
	Description string
	MinQuantity *int
	MaxQuantity *int
	SortOrder   int
}

// SetPatch is a partial set update.
type SetPatch struct {
	Title       patch.Field[string]
	Description patch.Field[string]
	MinQuantity patch.Field[int]
	MaxQuantity patch.Field[int]
	SortOrder   patch.Field[int]
}

// maxPicks bounds a set's quantities.
const maxPicks = 1000

// checkQuantities enforces 0 ≤ min ≤ max, 1 ≤ max.
func checkQuantities(min, max int) error {
	switch {
	case min < 0 || min > maxPicks:
		return apperr.Invalid("minQuantity", "must be between 0 and 1000")
	case max < 1 || max > maxPicks:
		return apperr.Invalid("maxQuantity", "must be between 1 and 1000")
	case min > max:
		return apperr.Invalid("maxQuantity", "must be greater than or equal to minQuantity")
	}
	return nil
}

// lockBundle locks a bundle row, serializing changes to its sets and items.
// Errors: NOT_FOUND.
func lockBundle(tx *gorm.DB, id uuid.UUID) (*models.Bundle, error) {
	var b models.Bundle
	if err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).Take(&b).Error; err != nil {
		return nil, database.Translate(err, resBundle)
	}
	return &b, nil
}

// findSet reads a set of bundleID. Errors: NOT_FOUND.
func findSet(tx *gorm.DB, bundleID, setID uuid.UUID) (*models.BundleSet, error) {
	var set models.BundleSet
	if err := tx.Where("id = ? AND bundle_id = ?", setID, bundleID).Take(&set).Error; err != nil {
		return nil, database.Translate(err, resSet)
	}
	return &set, nil
}

// CreateSet adds a set to a bundle. A keyed retry of a create that
// committed answers the set made. Errors: NOT_FOUND (bundle; a retry's set
// deleted since), VALIDATION_ERROR.
func (s *Service) CreateSet(ctx context.Context, bundleID uuid.UUID, in SetInput) (*models.BundleSet, error) {
	if id, ok := idempotency.RecordedRow(ctx); ok {
		return s.GetSet(ctx, bundleID, id)
	}
	min := 1
	if in.MinQuantity != nil {
		min = *in.MinQuantity
	}
	max := maxOf(min, 1)
	if in.MaxQuantity != nil {
		max = *in.MaxQuantity
	}
	if err := firstErr(checkTitle(in.Title), checkDescription(in.Description), checkQuantities(min, max)); err != nil {
		return nil, err
	}
	at := now()
	set := models.BundleSet{ID: uuid.New(), BundleID: bundleID, Title: in.Title, Description: in.Description,
		MinQuantity: min, MaxQuantity: max, SortOrder: in.SortOrder, CreatedAt: at, UpdatedAt: at}
	err := s.tx(ctx, func(tx *gorm.DB) error {
		if _, err := lockBundle(tx, bundleID); err != nil {
			return err
		}
		if err := tx.Omit(clause.Associations).Create(&set).Error; err != nil {
			return err
		}
		return idempotency.RecordRow(ctx, tx, set.ID)
	})
	if err != nil {
		return nil, database.Translate(err, resSet)
	}
	set.Items = []models.BundleSetItem{}
	return &set, nil
}

// GetSet returns a set of a bundle with its items. Errors: NOT_FOUND.
func (s *Service) GetSet(ctx context.Context, bundleID, setID uuid.UUID) (*models.BundleSet, error) {
	var set models.BundleSet
	err := s.db.WithContext(ctx).Preload("Items", func(q *gorm.DB) *gorm.DB { return q.Order("sort_order, created_at, id") }).
		Where("id = ? AND bundle_id = ?", setID, bundleID).Take(&set).Error
	if err != nil {
		return nil, database.Translate(err, resSet)
	}
	return &set, nil
}

// ListSets returns a bundle's sets with their items. Errors: NOT_FOUND.
func (s *Service) ListSets(ctx context.Context, bundleID uuid.UUID) ([]models.BundleSet, error) {
	b, err := s.Get(ctx, bundleID)
	if err != nil {
		return nil, err
	}
	return b.Sets, nil
}

// UpdateSet applies a partial update; the resulting quantities must still
// satisfy min ≤ max. A keyed retry of an update that committed answers the
// set as it is. Errors: NOT_FOUND, VALIDATION_ERROR.
func (s *Service) UpdateSet(ctx context.Context, bundleID, setID uuid.UUID, p SetPatch) (*models.BundleSet, error) {
	if err := nullField(map[string]bool{"title": p.Title.IsNull(), "description": p.Description.IsNull(),
		"minQuantity": p.MinQuantity.IsNull(), "maxQuantity": p.MaxQuantity.IsNull(), "sortOrder": p.SortOrder.IsNull()}); err != nil {
		return nil, err
	}
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return s.GetSet(ctx, bundleID, setID)
	}
	err := s.tx(ctx, func(tx *gorm.DB) error {
		if _, err := lockBundle(tx, bundleID); err != nil {
			return err
		}
		cur, err := findSet(tx, bundleID, setID)
		if err != nil {
			return err
		}
		if err := idempotency.RecordRow(ctx, tx, setID); err != nil {
			return err
		}
		var errs []error
		set := map[string]any{}
		if v, ok := p.Title.Get(); ok {
			errs, set["title"] = append(errs, checkTitle(v)), v
		}
		if v, ok := p.Description.Get(); ok {
			errs, set["description"] = append(errs, checkDescription(v)), v
		}
		min, max := cur.MinQuantity, cur.MaxQuantity
		if v, ok := p.MinQuantity.Get(); ok {
			min, set["min_quantity"] = v, v
		}
		if v, ok := p.MaxQuantity.Get(); ok {
			max, set["max_quantity"] = v, v
		}
		if v, ok := p.SortOrder.Get(); ok {
			set["sort_order"] = v
		}
		if err := firstErr(append(errs, checkQuantities(min, max))...); err != nil {
			return err
		}
		set["updated_at"] = now()
		return tx.Model(&models.BundleSet{}).Where("id = ?", setID).Updates(set).Error
	})
	if err != nil {
		return nil, database.Translate(err, resSet)
	}
	return s.GetSet(ctx, bundleID, setID)
}

// DeleteSet deletes a set and its items. A keyed retry of a delete that
// committed changes nothing. Errors: NOT_FOUND.
func (s *Service) DeleteSet(ctx context.Context, bundleID, setID uuid.UUID) error {
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return nil
	}
	err := s.tx(ctx, func(tx *gorm.DB) error {
		res := tx.Where("id = ? AND bundle_id = ?", setID, bundleID).Delete(&models.BundleSet{})
		if res.Error == nil && res.RowsAffected == 0 {
			return gorm.ErrRecordNotFound
		}
		if res.Error != nil {
			return res.Error
		}
		return idempotency.RecordRow(ctx, tx, setID)
	})
	return database.Translate(err, resSet)
}

func maxOf(a, b int) int {
	if a > b {
		return a
	}
	return b
}
