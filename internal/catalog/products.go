package catalog

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/media"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// ProductInput is a new product. Status defaults to draft; an empty Slug is
// generated from the title.
type ProductInput struct {
	Title       string
	Slug        string
	Description string
	Price       money.Amount
	GSTRate     money.Rate
	// CessRate is the compensation cess (default 0); Unit the GST unit
	// quantity code (default NOS).
	CessRate   money.Rate
	Unit       string
	HSNCode    string
	Status     string
	CategoryID *uuid.UUID
}

func (in ProductInput) validate() error {
	return firstErr(
		checkTitle("title", in.Title),
		checkText("description", in.Description, maxDescription),
		checkPrice("price", in.Price),
		CheckGSTRate(in.GSTRate),
		checkCessRate(in.CessRate),
		checkHSNShape(in.HSNCode),
		checkUnit(in.Unit),
		checkNewStatus(in.Status),
	)
}

// ProductCreatedEvent is the data of the product.created outbound event.
type ProductCreatedEvent struct {
	ID         uuid.UUID    `json:"id"`
	Title      string       `json:"title"`
	Slug       string       `json:"slug"`
	Price      money.Amount `json:"price"`
	GSTRate    money.Rate   `json:"gstRate"`
	CessRate   money.Rate   `json:"cessRate"`
	HSNCode    string       `json:"hsnCode"`
	Unit       string       `json:"unit"`
	Status     string       `json:"status"`
	CategoryID *uuid.UUID   `json:"categoryId"`
	CreatedAt  time.Time    `json:"createdAt"`
}

// CreateProduct validates and stores a product and publishes product.created
// in the same transaction. It answers the row as stored. A keyed retry of a
// create that committed answers the product made (idempotency.RecordedRow). Errors:
// VALIDATION_ERROR (a field, or categoryId that does not exist), CONFLICT
// (explicit slug taken), NOT_FOUND (a retry's product deleted since).
func (s *Service) CreateProduct(ctx context.Context, in ProductInput) (*models.Product, error) {
	if id, ok := idempotency.RecordedRow(ctx); ok {
		return s.productRow(ctx, id)
	}
	if in.Status == "" {
		in.Status = models.ProductDraft
	}
	if in.Unit == "" {
		in.Unit = DefaultUnit
	}
	if err := in.validate(); err != nil {
		return nil, err
	}
	var p models.Product
	err := withSlugRetry(resProduct, func() (bool, error) {
		generated := false
		err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			if err := checkCategoryRef(tx, "categoryId", in.CategoryID); err != nil {
				return err
			}
			rule, err := loadHSNRule(tx)
			if err != nil {
				return err
			}
			if err := rule.check(in.HSNCode, in.Status); err != nil {
				return err
			}
			slug, gen, err := slugFor(tx, "products", in.Slug, in.Title)
			generated = gen
			if err != nil {
				return err
			}
			p = models.Product{
				ID: uuid.New(), Title: in.Title, Slug: slug, Description: in.Description, Price: in.Price,
				GSTRate: in.GSTRate, CessRate: in.CessRate, Unit: in.Unit, HSNCode: in.HSNCode, Status: in.Status,
				CategoryID: in.CategoryID,
			}
			if err := tx.Omit(clause.Associations).Create(&p).Error; err != nil {
				return err
			}
			if _, err := outbox.Publish(tx, outbox.ProductCreated, ProductCreatedEvent{
				ID: p.ID, Title: p.Title, Slug: p.Slug, Price: p.Price, GSTRate: p.GSTRate, CessRate: p.CessRate, HSNCode: p.HSNCode, Unit: p.Unit,
				Status: p.Status, CategoryID: p.CategoryID, CreatedAt: p.CreatedAt,
			}); err != nil {
				return err
			}
			if err := idempotency.RecordRow(ctx, tx, p.ID); err != nil {
				return err
			}
			// As stored (times to the microsecond), as a retry reads it.
			return tx.Where("id = ?", p.ID).Take(&p).Error
		})
		return generated, err
	})
	if err != nil {
		return nil, translate(err, resProduct)
	}
	s.invalidate(ctx)
	if s.queue != nil {
		outbox.Nudge(ctx, s.queue, s.log)
	}
	return &p, nil
}

// productRow reads product id. Errors: NOT_FOUND.
func (s *Service) productRow(ctx context.Context, id uuid.UUID) (*models.Product, error) {
	var p models.Product
	if err := s.db.WithContext(ctx).Where("id = ?", id).Take(&p).Error; err != nil {
		return nil, translate(err, resProduct)
	}
	return &p, nil
}

// checkCategoryRef accepts no category or an existing one; field names
// the input (a product's categoryId, a category's parentId).
func checkCategoryRef(tx *gorm.DB, field string, id *uuid.UUID) error {
	if id == nil {
		return nil
	}
	ok, err := exists(tx, "categories", *id)
	if err != nil {
		return err
	}
	if !ok {
		return unknownRef(field)
	}
	return nil
}

// lockProduct reads a product FOR UPDATE. Errors: NOT_FOUND.
func lockProduct(tx *gorm.DB, id uuid.UUID) (*models.Product, error) {
	var p models.Product
	err := tx.Clauses(clause.Locking{Strength: "UPDATE"}).Where("id = ?", id).Take(&p).Error
	if err != nil {
		return nil, translate(err, resProduct)
	}
	return &p, nil
}

// ProductDetail is a product with what the admin product page shows.
type ProductDetail struct {
	models.Product
	Collections []models.Collection
	// GroupPrices are the customerGroupOverrides: group id → price.
	GroupPrices map[uuid.UUID]money.Amount
}

// GetProduct returns a product with its variants (oldest first), its
// collections and its customer-group overrides. Errors: NOT_FOUND.
func (s *Service) GetProduct(ctx context.Context, id uuid.UUID) (*ProductDetail, error) {
	db := s.db.WithContext(ctx)
	var d ProductDetail
	err := db.Preload("Variants", func(q *gorm.DB) *gorm.DB { return q.Order("created_at, id") }).
		Where("id = ?", id).Take(&d.Product).Error
	if err != nil {
		return nil, translate(err, resProduct)
	}
	err = db.Joins("JOIN collection_products cp ON cp.collection_id = collections.id").
		Where("cp.product_id = ?", id).Order("collections.name, collections.id").Find(&d.Collections).Error
	if err != nil {
		return nil, fmt.Errorf("catalog.get_product: %w", err)
	}
	var overrides []models.ProductGroupPrice
	if err := db.Where("product_id = ?", id).Find(&overrides).Error; err != nil {
		return nil, fmt.Errorf("catalog.get_product: %w", err)
	}
	d.GroupPrices = make(map[uuid.UUID]money.Amount, len(overrides))
	for _, o := range overrides {
		d.GroupPrices[o.CustomerGroupID] = o.Price
	}
	return &d, nil
}

// DeleteProduct deletes a product, or archives it when deleting would lose
// history or strand a sale: when order lines name it, or any of its variants
// has units reserved by a checkout or committed to an order. It reports
// whether the product was archived. A keyed retry of a delete that
// committed changes nothing and reports false. Errors: NOT_FOUND.
func (s *Service) DeleteProduct(ctx context.Context, id uuid.UUID) (archived bool, err error) {
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return false, nil
	}
	err = s.tx(ctx, func(tx *gorm.DB) error {
		p, err := lockProduct(tx, id)
		if err != nil {
			return err
		}
		if err := idempotency.RecordRow(ctx, tx, id); err != nil {
			return err
		}
		var inUse bool
		if err := tx.Raw(`SELECT EXISTS (SELECT 1 FROM order_items WHERE product_id = ?)
			OR EXISTS (SELECT 1 FROM variants WHERE product_id = ? AND (reserved > 0 OR committed > 0))`, id, id).
			Scan(&inUse).Error; err != nil {
			return fmt.Errorf("catalog.delete_product: %w", err)
		}
		if !inUse {
			return tx.Delete(&models.Product{}, "id = ?", id).Error
		}
		archived = true
		if p.Status == models.ProductArchived {
			return nil
		}
		return tx.Model(&models.Product{}).Where("id = ?", id).
			Updates(map[string]any{"status": models.ProductArchived, "updated_at": time.Now().UTC()}).Error
	})
	if err != nil {
		return false, translate(err, resProduct)
	}
	if !archived && s.queue != nil {
		// Its images' files were queued for deletion with the rows.
		media.NudgeSweep(ctx, s.queue, s.log)
	}
	return archived, nil
}
