package catalog

import (
	"context"

	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// CollectionInput is a new collection; an empty Slug is generated from Name.
type CollectionInput struct {
	Name        string
	Slug        string
	Description string
	ImageURL    string
}

// CollectionPatch is a partial collection update.
type CollectionPatch struct {
	Name        patch.Field[string]
	Slug        patch.Field[string]
	Description patch.Field[string]
	ImageURL    patch.Field[string]
}

// CreateCollection stores a collection and answers it as stored. A keyed
// retry of a create that committed answers the collection made
// (idempotency.RecordedRow). Errors: VALIDATION_ERROR, CONFLICT (explicit slug taken),
// NOT_FOUND (a retry's collection deleted since).
func (s *Service) CreateCollection(ctx context.Context, in CollectionInput) (*models.Collection, error) {
	if id, ok := idempotency.RecordedRow(ctx); ok {
		return s.collectionRow(ctx, id)
	}
	if err := firstErr(checkRequiredText("name", in.Name, maxName), checkText("description", in.Description, maxDescription),
		checkImageURL(in.ImageURL)); err != nil {
		return nil, err
	}
	var c models.Collection
	err := withSlugRetry(resCollection, func() (bool, error) {
		generated := false
		err := s.tx(ctx, func(tx *gorm.DB) error {
			slug, gen, err := slugFor(tx, "collections", in.Slug, in.Name)
			generated = gen
			if err != nil {
				return err
			}
			c = models.Collection{ID: uuid.New(), Name: in.Name, Slug: slug, Description: in.Description, ImageURL: in.ImageURL}
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
		return nil, translate(err, resCollection)
	}
	return &c, nil
}

// collectionRow reads collection id. Errors: NOT_FOUND.
func (s *Service) collectionRow(ctx context.Context, id uuid.UUID) (*models.Collection, error) {
	var c models.Collection
	if err := s.db.WithContext(ctx).Where("id = ?", id).Take(&c).Error; err != nil {
		return nil, translate(err, resCollection)
	}
	return &c, nil
}

// CollectionDetail is a collection with the number of products in it.
type CollectionDetail struct {
	models.Collection
	ProductCount int64
}

// GetCollection returns a collection and its product count. Errors: NOT_FOUND.
func (s *Service) GetCollection(ctx context.Context, id uuid.UUID) (*CollectionDetail, error) {
	var d CollectionDetail
	db := s.db.WithContext(ctx)
	if err := db.Where("id = ?", id).Take(&d.Collection).Error; err != nil {
		return nil, translate(err, resCollection)
	}
	if err := db.Model(&models.CollectionProduct{}).Where("collection_id = ?", id).Count(&d.ProductCount).Error; err != nil {
		return nil, translate(err, resCollection)
	}
	return &d, nil
}

// ListCollections returns a page of collections, newest first, and the total.
func (s *Service) ListCollections(ctx context.Context, w paging.Window) ([]models.Collection, int64, error) {
	limit, offset := w.Limit, w.Offset
	db := s.db.WithContext(ctx)
	var rows []models.Collection
	if err := db.Order("created_at DESC, id DESC").Limit(limit).Offset(offset).Find(&rows).Error; err != nil {
		return nil, 0, translate(err, resCollection)
	}
	total, err := paging.Total(len(rows), paging.Window{Limit: limit, Offset: offset}, func() (int64, error) {
		var n int64
		return n, db.Model(&models.Collection{}).Count(&n).Error
	})
	return rows, total, translate(err, resCollection)
}

// UpdateCollection applies a partial update. A keyed retry of an update
// that committed answers the collection as it is (idempotency.RecordedRow). Errors:
// NOT_FOUND, VALIDATION_ERROR, CONFLICT (slug taken).
func (s *Service) UpdateCollection(ctx context.Context, id uuid.UUID, in CollectionPatch) (*models.Collection, error) {
	errs := []error{patch.NotNull("name", in.Name), patch.NotNull("slug", in.Slug), patch.NotNull("description", in.Description), patch.NotNull("imageUrl", in.ImageURL)}
	set := map[string]any{}
	if v, ok := in.Name.Get(); ok {
		errs, set["name"] = append(errs, checkRequiredText("name", v, maxName)), v
	}
	if v, ok := in.Slug.Get(); ok {
		errs, set["slug"] = append(errs, checkSlug(v)), v
	}
	if v, ok := in.Description.Get(); ok {
		errs, set["description"] = append(errs, checkText("description", v, maxDescription)), v
	}
	if v, ok := in.ImageURL.Get(); ok {
		errs, set["image_url"] = append(errs, checkImageURL(v)), v
	}
	if err := firstErr(errs...); err != nil {
		return nil, err
	}
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return s.collectionRow(ctx, id)
	}
	var c models.Collection
	err := s.tx(ctx, func(tx *gorm.DB) error {
		if err := mustExist(tx, "collections", id, resCollection); err != nil {
			return err
		}
		if err := idempotency.RecordRow(ctx, tx, id); err != nil {
			return err
		}
		if len(set) > 0 {
			set["updated_at"] = touch()
			res := tx.Model(&models.Collection{}).Where("id = ?", id).Updates(set)
			if res.Error != nil {
				if isSlugConflict(res.Error) {
					return slugConflict(resCollection, res.Error)
				}
				return res.Error
			}
		}
		return tx.Where("id = ?", id).Take(&c).Error
	})
	if err != nil {
		return nil, translate(err, resCollection)
	}
	return &c, nil
}

// DeleteCollection deletes a collection; its products stay. Errors: NOT_FOUND.
func (s *Service) DeleteCollection(ctx context.Context, id uuid.UUID) error {
	return s.deleteByID(ctx, &models.Collection{}, id, resCollection)
}

// deleteByID deletes the row of model with id. A keyed retry of a delete
// that committed changes nothing (idempotency.RecordedRow). Errors: NOT_FOUND.
func (s *Service) deleteByID(ctx context.Context, model any, id uuid.UUID, resource string) error {
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return nil
	}
	err := s.tx(ctx, func(tx *gorm.DB) error {
		res := tx.Delete(model, "id = ?", id)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return gorm.ErrRecordNotFound
		}
		return idempotency.RecordRow(ctx, tx, id)
	})
	return translate(err, resource)
}
