package testkit

import (
	"fmt"
	"testing"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// StoreProduct describes a product for MustStoreProduct.
type StoreProduct struct {
	Title      string
	Price      money.Amount
	CompareAt  *money.Amount
	GSTRate    money.Rate
	Status     string
	CategoryID *uuid.UUID
	// Variants gives each variant's stock and optional own price; one
	// variant with 100 units when empty.
	Variants []StoreVariant
}

// StoreVariant is a variant of a StoreProduct.
type StoreVariant struct {
	Inventory int
	Price     *money.Amount
}

// MustStoreProduct inserts a product with its variants straight into db
// (storefront tests do not go through the admin API) and returns it with
// its variants.
func MustStoreProduct(tb testing.TB, db *gorm.DB, p StoreProduct) *models.Product {
	tb.Helper()
	id := uuid.New()
	if p.Title == "" {
		p.Title = "Product " + id.String()[:8]
	}
	if p.Price == 0 {
		p.Price = 49900
	}
	if p.Status == "" {
		p.Status = models.ProductActive
	}
	if len(p.Variants) == 0 {
		p.Variants = []StoreVariant{{Inventory: 100}}
	}
	prod := &models.Product{ID: id, Title: p.Title, Slug: "p-" + id.String(), Description: "About " + p.Title,
		Price: p.Price, CompareAtPrice: p.CompareAt, GSTRate: p.GSTRate, Status: p.Status, CategoryID: p.CategoryID}
	if err := db.Create(prod).Error; err != nil {
		tb.Fatalf("testkit: product: %v", err)
	}
	for i, v := range p.Variants {
		row := models.Variant{ID: uuid.New(), ProductID: id, SKU: fmt.Sprintf("SKU-%s-%d", id.String()[:8], i+1),
			Price: v.Price, Inventory: v.Inventory, Size: "M", Color: "Black"}
		if err := db.Create(&row).Error; err != nil {
			tb.Fatalf("testkit: variant: %v", err)
		}
		prod.Variants = append(prod.Variants, row)
	}
	return prod
}
