// Package browse serves the storefront catalog: the list of active products
// and a product page, with variants, the effective price for the caller's
// customer group, compare-at prices, rating summary and availability.
//
// Catalog data is cached for CACHE_TTL in the "catalog" namespace, which the
// catalog service invalidates after every write: in Redis only the pages
// whose keys the catalog bounds (existing products, the first listing
// pages), every page in a bounded in-process memo. Availability changes with
// every checkout, so it is never part of those long-lived entries: it is
// kept apart, per product, in a StockStore for at most StockTTL and laid
// over the catalog entry on each read (see StockStore for why a figure is
// never above the truth). Checkout re-checks stock with a conditional
// update in any case, so no cached figure can oversell.
package browse

import (
	"context"
	"encoding/json"
	"time"

	"github.com/gocommerce/shop/internal/cache"
	"github.com/gocommerce/shop/internal/media"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/review"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// CatalogNamespace is the cache namespace of catalog reads.
const CatalogNamespace = "catalog"

// StockTTL bounds how long a cached availability figure is served.
const StockTTL = 10 * time.Second

// Service reads the storefront catalog.
type Service struct {
	db       *gorm.DB
	catalog  *cache.Cache
	stock    *StockStore
	memo     *memo
	currency string
	// images reads products' ready images; nil shows none.
	images Showcase
}

// Showcase reads the ready images of products (media.Service), on the
// read handle it is given.
type Showcase interface {
	Showcase(ctx context.Context, db *gorm.DB, ids []uuid.UUID, first bool) (map[uuid.UUID][]media.PublicImage, error)
}

// WithImages makes product pages carry their images and list entries their
// first image. The media service invalidates the catalog namespace when a
// shopper-visible image changes, so cached pages follow.
func (s *Service) WithImages(sc Showcase) *Service {
	s.images = sc
	return s
}

// New returns the service. catalog is the application cache (CACHE_TTL).
func New(db *gorm.DB, catalog *cache.Cache, stock *StockStore, currency string) *Service {
	return &Service{db: db, catalog: catalog, stock: stock, memo: newMemo(DefaultMemoBytes), currency: currency}
}

// WithMemoBytes bounds the in-process page memo to n bytes (call it before
// the service serves).
func (s *Service) WithMemoBytes(n int) *Service {
	s.memo = newMemo(n)
	return s
}

// VariantInfo is what a shopper sees of a variant, availability aside.
type VariantInfo struct {
	ID             uuid.UUID     `json:"id"`
	SKU            string        `json:"sku"`
	Size           string        `json:"size"`
	Color          string        `json:"color"`
	Weight         *json.Number  `json:"weight"`
	Price          money.Amount  `json:"price"`
	CompareAtPrice *money.Amount `json:"compareAtPrice"`
}

// Variant is a variant as answered.
type Variant struct {
	VariantInfo
	Available int  `json:"available"`
	InStock   bool `json:"inStock"`
}

// ProductInfo is what a shopper sees of a product, variants and
// availability aside. Price and CompareAtPrice are the cheapest variant's
// effective prices (the "from" price), or the product's own when it has no
// variants. GSTRate is the rate at Price: under the value rule GSTRule
// names, the rule's; else (GSTRule nil) the product's own.
type ProductInfo struct {
	ID             uuid.UUID      `json:"id"`
	Title          string         `json:"title"`
	Slug           string         `json:"slug"`
	Description    string         `json:"description"`
	Price          money.Amount   `json:"price"`
	CompareAtPrice *money.Amount  `json:"compareAtPrice"`
	Currency       string         `json:"currency"`
	GSTRate        money.Rate     `json:"gstRate"`
	GSTRule        *uuid.UUID     `json:"gstRule"`
	HSNCode        string         `json:"hsnCode"`
	CategoryID     *uuid.UUID     `json:"categoryId"`
	Rating         review.Summary `json:"rating"`
	CreatedAt      time.Time      `json:"createdAt"`
	UpdatedAt      time.Time      `json:"updatedAt"`
}

// Product is a product as answered: its info, its total availability and
// its variants, and on a product page its images, on a list its first
// image (or null). Page.AppendJSON writes exactly this shape.
type Product struct {
	ProductInfo
	Images []media.PublicImage `json:"images,omitempty"`
	// Image is set on list entries (listed), null when there is none.
	Image     *media.PublicImage `json:"image,omitempty"`
	Available int                `json:"available"`
	InStock   bool               `json:"inStock"`
	Variants  []Variant          `json:"variants"`
	listed    bool
}

func groupKey(group *uuid.UUID) string {
	if group == nil {
		return "-"
	}
	return group.String()
}
