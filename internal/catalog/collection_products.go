package catalog

import (
	"context"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// AddToCollection puts a product in a collection; adding it again changes
// nothing. A keyed retry of an add that committed changes nothing either
// (idempotency.RecordedRow), even when the product was taken out since. Errors:
// NOT_FOUND (collection or product).
func (s *Service) AddToCollection(ctx context.Context, collectionID, productID uuid.UUID) error {
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return nil
	}
	err := s.tx(ctx, func(tx *gorm.DB) error {
		if err := mustExist(tx, "collections", collectionID, resCollection); err != nil {
			return err
		}
		if err := mustExist(tx, "products", productID, resProduct); err != nil {
			return err
		}
		if err := idempotency.RecordRow(ctx, tx, productID); err != nil {
			return err
		}
		return tx.Clauses(clause.OnConflict{DoNothing: true}).
			Create(&models.CollectionProduct{CollectionID: collectionID, ProductID: productID}).Error
	})
	return translate(err, resCollection)
}

// RemoveFromCollection takes a product out of a collection; removing one
// that is not in it changes nothing. A keyed retry of a removal that
// committed changes nothing (idempotency.RecordedRow), not even a 404 for a product or
// collection deleted since. Errors: NOT_FOUND (collection or product).
func (s *Service) RemoveFromCollection(ctx context.Context, collectionID, productID uuid.UUID) error {
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return nil
	}
	err := s.tx(ctx, func(tx *gorm.DB) error {
		if err := mustExist(tx, "collections", collectionID, resCollection); err != nil {
			return err
		}
		if err := mustExist(tx, "products", productID, resProduct); err != nil {
			return err
		}
		if err := idempotency.RecordRow(ctx, tx, productID); err != nil {
			return err
		}
		return tx.Where("collection_id = ? AND product_id = ?", collectionID, productID).
			Delete(&models.CollectionProduct{}).Error
	})
	return translate(err, resCollection)
}

// CollectionProducts returns a page of a collection's products, most
// recently added first, and the total. Errors: NOT_FOUND.
func (s *Service) CollectionProducts(ctx context.Context, collectionID uuid.UUID, w paging.Window) ([]models.Product, int64, error) {
	limit, offset := w.Limit, w.Offset
	db := s.db.WithContext(ctx)
	if err := mustExist(db, "collections", collectionID, resCollection); err != nil {
		return nil, 0, err
	}
	in := func() *gorm.DB {
		return db.Model(&models.Product{}).Joins("JOIN collection_products cp ON cp.product_id = products.id").
			Where("cp.collection_id = ?", collectionID)
	}
	var rows []models.Product
	if err := in().Order("cp.created_at DESC, products.id DESC").Limit(limit).Offset(offset).Find(&rows).Error; err != nil {
		return nil, 0, translate(err, resProduct)
	}
	total, err := paging.Total(len(rows), paging.Window{Limit: limit, Offset: offset}, func() (int64, error) {
		var n int64
		return n, in().Count(&n).Error
	})
	return rows, total, translate(err, resProduct)
}

// mustExist returns NOT_FOUND for resource when table has no row id.
func mustExist(tx *gorm.DB, table string, id uuid.UUID, resource string) error {
	ok, err := exists(tx, table, id)
	if err != nil {
		return err
	}
	if !ok {
		return apperr.Missing(resource)
	}
	return nil
}
