// Package browse serves the storefront catalog: the list of active products
// and a product page, with variants, the effective price for the caller's
// customer group, compare-at prices, rating summary and availability.
//
// Catalog data is cached for CACHE_TTL in the "catalog" namespace, which the
// catalog service invalidates after every write. Availability changes with
// every checkout, so it is never part of those long-lived entries: it is
// kept apart in the "stock" namespace for StockTTL (2 s) and laid over the
// catalog entry on each read. A shopper may thus see availability up to 2 s
// old; checkout re-checks stock with a conditional update, so staleness can
// never oversell.
package browse

import (
	"encoding/json"
	"time"

	"github.com/gocommerce/shop/internal/cache"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/review"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Cache namespaces.
const (
	CatalogNamespace = "catalog"
	StockNamespace   = "stock"
)

// StockTTL is how long a cached availability figure is served.
const StockTTL = 2 * time.Second

// Service reads the storefront catalog.
type Service struct {
	db       *gorm.DB
	catalog  *cache.Cache
	stock    *cache.Cache
	currency string
}

// New returns the service. catalog is the application cache (CACHE_TTL);
// stock must be a cache with a TTL of StockTTL.
func New(db *gorm.DB, catalog, stock *cache.Cache, currency string) *Service {
	return &Service{db: db, catalog: catalog, stock: stock, currency: currency}
}

// Variant is a variant as shown to shoppers.
type Variant struct {
	ID             uuid.UUID     `json:"id"`
	SKU            string        `json:"sku"`
	Size           string        `json:"size"`
	Color          string        `json:"color"`
	Weight         *json.Number  `json:"weight"`
	Price          money.Amount  `json:"price"`
	CompareAtPrice *money.Amount `json:"compareAtPrice"`
	Available      int           `json:"available"`
	InStock        bool          `json:"inStock"`
}

// Product is a product as shown to shoppers. Price and CompareAtPrice are the
// cheapest variant's effective prices (the "from" price), or the product's
// own when it has no variants.
type Product struct {
	ID             uuid.UUID      `json:"id"`
	Title          string         `json:"title"`
	Slug           string         `json:"slug"`
	Description    string         `json:"description"`
	Price          money.Amount   `json:"price"`
	CompareAtPrice *money.Amount  `json:"compareAtPrice"`
	Currency       string         `json:"currency"`
	GSTRate        money.Rate     `json:"gstRate"`
	HSNCode        string         `json:"hsnCode"`
	CategoryID     *uuid.UUID     `json:"categoryId"`
	Rating         review.Summary `json:"rating"`
	Available      int            `json:"available"`
	InStock        bool           `json:"inStock"`
	Variants       []Variant      `json:"variants"`
	CreatedAt      time.Time      `json:"createdAt"`
	UpdatedAt      time.Time      `json:"updatedAt"`
}

// Page is one page of the product list and the number of matching products.
type Page struct {
	Products []Product `json:"products"`
	Total    int64     `json:"total"`
}

func groupKey(group *uuid.UUID) string {
	if group == nil {
		return "-"
	}
	return group.String()
}
