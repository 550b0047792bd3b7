package catalog

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// CategoryInput is a new category; an empty Slug is generated from Name, a
// nil ParentID makes it top-level.
type CategoryInput struct {
	Name        string
	Description string
	Slug        string
	ParentID    *uuid.UUID
}

// CategoryPatch is a partial category update; parentId may be null (move
// to the top level).
type CategoryPatch struct {
	Name        patch.Field[string]
	Description patch.Field[string]
	Slug        patch.Field[string]
	ParentID    patch.Field[uuid.UUID]
}

// lockCategoryTree serializes writes that change the tree's shape, so two
// concurrent moves cannot make a cycle that neither saw.
func lockCategoryTree(tx *gorm.DB) error {
	return tx.Exec(`SELECT pg_advisory_xact_lock(hashtext('catalog.category_tree'))`).Error
}

// CreateCategory stores a category and answers it as stored. A keyed retry
// of a create that committed answers the category made (idempotency.RecordedRow).
// Errors: VALIDATION_ERROR (name, slug, parentId that does not exist),
// CONFLICT (explicit slug taken), NOT_FOUND (a retry's category deleted
// since).
func (s *Service) CreateCategory(ctx context.Context, in CategoryInput) (*models.Category, error) {
	if id, ok := idempotency.RecordedRow(ctx); ok {
		return s.GetCategory(ctx, id)
	}
	if err := firstErr(checkRequiredText("name", in.Name, maxName), checkText("description", in.Description, maxDescription)); err != nil {
		return nil, err
	}
	var c models.Category
	err := withSlugRetry(resCategory, func() (bool, error) {
		generated := false
		err := s.tx(ctx, func(tx *gorm.DB) error {
			if err := lockCategoryTree(tx); err != nil {
				return err
			}
			if err := checkCategoryRef(tx, "parentId", in.ParentID); err != nil {
				return err
			}
			slug, gen, err := slugFor(tx, "categories", in.Slug, in.Name)
			generated = gen
			if err != nil {
				return err
			}
			c = models.Category{ID: uuid.New(), Name: in.Name, Description: in.Description, Slug: slug, ParentID: in.ParentID}
			if err := tx.Create(&c).Error; err != nil {
				return err
			}
			if err := idempotency.RecordRow(ctx, tx, c.ID); err != nil {
				return err
			}
			return tx.Where("id = ?", c.ID).Take(&c).Error
		})
		return generated, err
	})
	if err != nil {
		return nil, translate(err, resCategory)
	}
	return &c, nil
}

// GetCategory returns a category. Errors: NOT_FOUND.
func (s *Service) GetCategory(ctx context.Context, id uuid.UUID) (*models.Category, error) {
	var c models.Category
	if err := s.db.WithContext(ctx).Where("id = ?", id).Take(&c).Error; err != nil {
		return nil, translate(err, resCategory)
	}
	return &c, nil
}

// CategoryFilter selects a page of categories, newest first.
type CategoryFilter struct {
	// ParentID, when set, lists that category's children.
	ParentID *uuid.UUID
	paging.Window
}

// ListCategories returns a page of categories and the total.
func (s *Service) ListCategories(ctx context.Context, f CategoryFilter) ([]models.Category, int64, error) {
	where := func() *gorm.DB {
		q := s.db.WithContext(ctx).Model(&models.Category{})
		if f.ParentID != nil {
			q = q.Where("parent_id = ?", *f.ParentID)
		}
		return q
	}
	var rows []models.Category
	total, err := paging.Newest(where, f.Window, &rows)
	return rows, total, translate(err, resCategory)
}

// UpdateCategory applies a partial update. A parent that is the category
// itself or one of its descendants would make a cycle: VALIDATION_ERROR on
// parentId. Errors: NOT_FOUND, VALIDATION_ERROR, CONFLICT (slug taken). A
// keyed retry of an update that committed answers the category as it is
// (idempotency.RecordedRow).
func (s *Service) UpdateCategory(ctx context.Context, id uuid.UUID, in CategoryPatch) (*models.Category, error) {
	errs := []error{patch.NotNull("name", in.Name), patch.NotNull("description", in.Description), patch.NotNull("slug", in.Slug)}
	if v, ok := in.Name.Get(); ok {
		errs = append(errs, checkRequiredText("name", v, maxName))
	}
	if v, ok := in.Description.Get(); ok {
		errs = append(errs, checkText("description", v, maxDescription))
	}
	if v, ok := in.Slug.Get(); ok {
		errs = append(errs, checkSlug(v))
	}
	if err := firstErr(errs...); err != nil {
		return nil, err
	}
	set := map[string]any{}
	if v, ok := in.Name.Get(); ok {
		set["name"] = v
	}
	if v, ok := in.Description.Get(); ok {
		set["description"] = v
	}
	if v, ok := in.Slug.Get(); ok {
		set["slug"] = v
	}
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return s.GetCategory(ctx, id)
	}
	var c models.Category
	err := s.tx(ctx, func(tx *gorm.DB) error {
		if in.ParentID.Present() {
			if err := lockCategoryTree(tx); err != nil {
				return err
			}
		}
		if err := mustExist(tx, "categories", id, resCategory); err != nil {
			return err
		}
		if err := idempotency.RecordRow(ctx, tx, id); err != nil {
			return err
		}
		if in.ParentID.Present() {
			parent := in.ParentID.Ptr()
			if err := checkCategoryRef(tx, "parentId", parent); err != nil {
				return err
			}
			if err := checkNoCycle(tx, id, parent); err != nil {
				return err
			}
			set["parent_id"] = parent
		}
		if len(set) > 0 {
			set["updated_at"] = touch()
			if err := tx.Model(&models.Category{}).Where("id = ?", id).Updates(set).Error; err != nil {
				if isSlugConflict(err) {
					return slugConflict(resCategory, err)
				}
				return err
			}
		}
		return tx.Where("id = ?", id).Take(&c).Error
	})
	if err != nil {
		return nil, translate(err, resCategory)
	}
	return &c, nil
}

// checkNoCycle refuses parent when it is id itself or below id in the tree.
func checkNoCycle(tx *gorm.DB, id uuid.UUID, parent *uuid.UUID) error {
	if parent == nil {
		return nil
	}
	var cycle bool
	err := tx.Raw(`
WITH RECURSIVE up(id, parent_id) AS (
    SELECT id, parent_id FROM categories WHERE id = @parent
    UNION
    SELECT c.id, c.parent_id FROM categories c JOIN up ON c.id = up.parent_id
)
SELECT EXISTS (SELECT 1 FROM up WHERE id = @self)`, map[string]any{"parent": *parent, "self": id}).Scan(&cycle).Error
	if err != nil {
		return fmt.Errorf("catalog.category_cycle: %w", err)
	}
	if cycle {
		return apperr.Invalid("parentId", "would make the category its own ancestor")
	}
	return nil
}

// DeleteCategory deletes a category that has no child categories and no
// products. A keyed retry of a delete that committed changes nothing.
// Errors: NOT_FOUND, CONFLICT (children or products).
func (s *Service) DeleteCategory(ctx context.Context, id uuid.UUID) error {
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return nil
	}
	err := s.tx(ctx, func(tx *gorm.DB) error {
		if err := lockCategoryTree(tx); err != nil {
			return err
		}
		ok, err := exists(tx, "categories", id)
		if err != nil {
			return err
		}
		if !ok {
			return apperr.Missing(resCategory)
		}
		var use struct{ Children, Products int64 }
		if err := tx.Raw(`SELECT (SELECT count(*) FROM categories WHERE parent_id = @id) AS children,
			(SELECT count(*) FROM products WHERE category_id = @id) AS products`, map[string]any{"id": id}).
			Scan(&use).Error; err != nil {
			return fmt.Errorf("catalog.delete_category: %w", err)
		}
		if use.Children > 0 || use.Products > 0 {
			return categoryInUse(use.Children, use.Products)
		}
		if err := idempotency.RecordRow(ctx, tx, id); err != nil {
			return err
		}
		err = tx.Delete(&models.Category{}, "id = ?", id).Error
		if database.PgCode(err) == database.ForeignKeyViolation {
			// a product was put in it after the count
			return categoryInUse(0, 1)
		}
		return err
	})
	return translate(err, resCategory)
}

func categoryInUse(children, products int64) error {
	return apperr.Conflictf("the category has %d child categories and %d products; move or delete them first", children, products).
		WithDetails(map[string]any{"children": children, "products": products})
}
