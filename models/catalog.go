package models

import (
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// Product statuses.
const (
	ProductDraft    = "draft"
	ProductActive   = "active"
	ProductArchived = "archived"
)

// CustomerGroup groups customers for pricing.
type CustomerGroup struct {
	ID          uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	Name        string
	Description string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Category is a node of the category tree.
type Category struct {
	ID          uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	Name        string
	Description string
	Slug        string
	ParentID    *uuid.UUID `gorm:"type:uuid"`
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Product is a sellable item; its variants carry SKUs and stock.
type Product struct {
	ID             uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	Title          string
	Slug           string
	Description    string
	Price          money.Amount
	CompareAtPrice *money.Amount
	GSTRate        money.Rate `gorm:"column:gst_rate"`
	HSNCode        string     `gorm:"column:hsn_code"`
	// CessRate is the compensation cess on top of GST (0 for most goods).
	CessRate money.Rate `gorm:"column:cess_rate"`
	// Unit is the GST unit quantity code (UQC) the product is sold in.
	Unit        string `gorm:"default:NOS"`
	Status      string
	CategoryID  *uuid.UUID `gorm:"type:uuid"`
	RatingCount int
	RatingTotal int
	CreatedAt   time.Time
	UpdatedAt   time.Time

	Variants []Variant `gorm:"foreignKey:ProductID"`
}

// ProductGroupPrice is a product's price for one customer group.
type ProductGroupPrice struct {
	ProductID       uuid.UUID `gorm:"type:uuid;primaryKey"`
	CustomerGroupID uuid.UUID `gorm:"type:uuid;primaryKey"`
	Price           money.Amount
}

// Variant is a SKU of a product with its stock counters.
type Variant struct {
	ID                uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	ProductID         uuid.UUID `gorm:"type:uuid"`
	SKU               string    `gorm:"column:sku"`
	Price             *money.Amount
	Inventory         int
	Reserved          int
	Committed         int
	LowStockThreshold *int
	Size              string
	Color             string
	Weight            *decimal.Decimal `gorm:"type:numeric"`
	CreatedAt         time.Time
	UpdatedAt         time.Time
}

// Available is the units that can still be sold.
func (v Variant) Available() int {
	if a := v.Inventory - v.Reserved - v.Committed; a > 0 {
		return a
	}
	return 0
}

// Collection is a curated group of products.
type Collection struct {
	ID          uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	Name        string
	Slug        string
	Description string
	ImageURL    string `gorm:"column:image_url"`
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// CollectionProduct links a product into a collection.
type CollectionProduct struct {
	CollectionID uuid.UUID `gorm:"type:uuid;primaryKey"`
	ProductID    uuid.UUID `gorm:"type:uuid;primaryKey"`
	CreatedAt    time.Time
}

// PriceList overrides variant prices for a customer group.
type PriceList struct {
	ID              uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	Name            string
	Description     string
	CustomerGroupID uuid.UUID `gorm:"type:uuid"`
	IsActive        bool
	Priority        int
	CreatedAt       time.Time
	UpdatedAt       time.Time

	Rules []PriceListRule `gorm:"foreignKey:PriceListID"`
}

// PriceListRule is one variant's price in a price list.
type PriceListRule struct {
	ID             uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	PriceListID    uuid.UUID `gorm:"type:uuid"`
	VariantID      uuid.UUID `gorm:"type:uuid"`
	Price          money.Amount
	CompareAtPrice *money.Amount
}

// Discount kinds.
const (
	DiscountPercentage   = "PERCENTAGE"
	DiscountFixedAmount  = "FIXED_AMOUNT"
	DiscountManual       = "MANUAL"
	DiscountAutomatic    = "AUTOMATIC"
	DiscountScopeOrder   = "ORDER"
	DiscountScopeProduct = "PRODUCT"
)

// Discount is a code or automatic promotion.
type Discount struct {
	ID          uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	Code        *string
	Description string
	Type        string
	// Value is hundredths of a percent for PERCENTAGE, paise for FIXED_AMOUNT.
	Value              int64
	ApplicationType    string
	Scope              string
	MinOrderAmount     money.Amount
	UsageLimit         *int
	CustomerUsageLimit *int
	UsageCount         int
	StartDate          *time.Time
	EndDate            *time.Time
	IsActive           bool
	// Rules are a promotion type's settings; CombinesWith the classes it
	// may be applied with (models/promotion.go).
	Rules        DiscountRules `gorm:"column:rules"`
	CombinesWith CombinesWith  `gorm:"column:combines_with"`
	CreatedAt    time.Time
	UpdatedAt    time.Time
}

// DiscountProduct limits a PRODUCT-scope discount to a product.
type DiscountProduct struct {
	DiscountID uuid.UUID `gorm:"type:uuid;primaryKey"`
	ProductID  uuid.UUID `gorm:"type:uuid;primaryKey"`
}

// DiscountCategory limits a PRODUCT-scope discount to a category.
type DiscountCategory struct {
	DiscountID uuid.UUID `gorm:"type:uuid;primaryKey"`
	CategoryID uuid.UUID `gorm:"type:uuid;primaryKey"`
}

// Bundle is a product bundle made of sets of variants.
type Bundle struct {
	ID               uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	Title            string
	Description      string
	IsActive         bool
	AllowMixAndMatch bool
	DiscountPercent  money.Rate
	CreatedAt        time.Time
	UpdatedAt        time.Time

	Sets []BundleSet `gorm:"foreignKey:BundleID"`
}

// BundleSet is a choice within a bundle.
type BundleSet struct {
	ID          uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	BundleID    uuid.UUID `gorm:"type:uuid"`
	Title       string
	Description string
	MinQuantity int
	MaxQuantity int
	SortOrder   int
	CreatedAt   time.Time
	UpdatedAt   time.Time

	Items []BundleSetItem `gorm:"foreignKey:SetID"`
}

// BundleSetItem is a variant offered in a bundle set.
type BundleSetItem struct {
	ID        uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	SetID     uuid.UUID `gorm:"type:uuid"`
	VariantID uuid.UUID `gorm:"type:uuid"`
	Quantity  int
	IsDefault bool
	SortOrder int
	CreatedAt time.Time
	UpdatedAt time.Time
}
