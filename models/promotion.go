package models

import (
	"database/sql/driver"
	"encoding/json"
	"fmt"

	"github.com/gocommerce/shop/internal/money"
	"github.com/google/uuid"
)

// Promotion types beside DiscountPercentage and DiscountFixedAmount
// (docs/DECISIONS.md "Promotions"). Their settings are DiscountRules.
const (
	DiscountBuyXGetY     = "buy_x_get_y"
	DiscountTiered       = "tiered"
	DiscountFreeShipping = "free_shipping"
)

// Classes of discount, as combinesWith names them: a product discount
// takes off chosen lines (PRODUCT scope, buy X get Y), an order discount
// off the whole order (ORDER scope, tiered), a shipping discount off the
// shipping charge only.
const (
	ClassProduct  = "product"
	ClassOrder    = "order"
	ClassShipping = "shipping"
)

// ClassOf returns the class of discount d.
func ClassOf(d *Discount) string {
	switch {
	case d.Type == DiscountFreeShipping:
		return ClassShipping
	case d.Type == DiscountBuyXGetY, d.Type != DiscountTiered && d.Scope == DiscountScopeProduct:
		return ClassProduct
	}
	return ClassOrder
}

// PromotionTargets are the products a side of a buy X get Y covers: the
// listed products, the products of the listed collections and of the
// listed categories.
type PromotionTargets struct {
	Quantity      int         `json:"quantity"`
	ProductIDs    []uuid.UUID `json:"productIds,omitempty"`
	CollectionIDs []uuid.UUID `json:"collectionIds,omitempty"`
	CategoryIDs   []uuid.UUID `json:"categoryIds,omitempty"`
}

// PromotionGet is the "get" side of a buy X get Y: the units and the
// percent taken off each (100: free).
type PromotionGet struct {
	PromotionTargets
	PercentOff money.Rate `json:"percentOff"`
}

// PromotionTier is one step of a tiered discount: from MinSubtotal, either
// AmountOff or PercentOff.
type PromotionTier struct {
	MinSubtotal money.Amount  `json:"minSubtotal"`
	AmountOff   *money.Amount `json:"amountOff,omitempty"`
	PercentOff  *money.Rate   `json:"percentOff,omitempty"`
}

// DiscountRules are the settings of a promotion type (a jsonb column): Buy,
// Get and MaxApplications for buy_x_get_y, Tiers for tiered, MinSubtotal
// and ZoneIDs for free_shipping. NULL (every PERCENTAGE and FIXED_AMOUNT
// discount) reads as the zero value.
type DiscountRules struct {
	Buy             *PromotionTargets `json:"buy,omitempty"`
	Get             *PromotionGet     `json:"get,omitempty"`
	MaxApplications *int              `json:"maxApplications,omitempty"`
	Tiers           []PromotionTier   `json:"tiers,omitempty"`
	MinSubtotal     money.Amount      `json:"minSubtotal,omitempty"`
	ZoneIDs         []uuid.UUID       `json:"zoneIds,omitempty"`
}

// Value writes the rules as JSON, or NULL when they are empty.
func (r DiscountRules) Value() (driver.Value, error) {
	if r.Buy == nil && r.Get == nil && r.MaxApplications == nil && len(r.Tiers) == 0 && r.MinSubtotal == 0 && len(r.ZoneIDs) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(r)
	return string(b), err
}

// Scan reads the jsonb column.
func (r *DiscountRules) Scan(src any) error {
	var out DiscountRules
	if _, err := DecodeJSON(src, &out); err != nil {
		return fmt.Errorf("models.DiscountRules: %w", err)
	}
	*r = out
	return nil
}

// GormDataType names the column type for schema tools.
func (DiscountRules) GormDataType() string { return "jsonb" }

// CombinesWith says with which classes of discount a discount may be
// applied together. Two discounts combine when each allows the other's
// class.
type CombinesWith struct {
	Product  bool `json:"product"`
	Order    bool `json:"order"`
	Shipping bool `json:"shipping"`
}

// Allows reports whether class is allowed.
func (c CombinesWith) Allows(class string) bool {
	switch class {
	case ClassProduct:
		return c.Product
	case ClassOrder:
		return c.Order
	case ClassShipping:
		return c.Shipping
	}
	return false
}

// Value writes the document.
func (c CombinesWith) Value() (driver.Value, error) {
	b, err := json.Marshal(c)
	return string(b), err
}

// Scan reads the jsonb column.
func (c *CombinesWith) Scan(src any) error {
	var out CombinesWith
	if _, err := DecodeJSON(src, &out); err != nil {
		return fmt.Errorf("models.CombinesWith: %w", err)
	}
	*c = out
	return nil
}

// GormDataType names the column type for schema tools.
func (CombinesWith) GormDataType() string { return "jsonb" }

// AppliedDiscount is a discount a cart, session or order applied, as
// answered: Amount is what it took off (the goods' lines, or for
// free_shipping the shipping charge waived).
type AppliedDiscount struct {
	ID     uuid.UUID    `json:"id"`
	Code   *string      `json:"code"`
	Title  string       `json:"title"`
	Type   string       `json:"type"`
	Amount money.Amount `json:"amount"`
}

// AppliedDiscounts is a jsonb column of AppliedDiscount; nil writes NULL
// and NULL reads as nil.
type AppliedDiscounts []AppliedDiscount

// Value writes the list as a JSON array, or NULL when empty.
func (a AppliedDiscounts) Value() (driver.Value, error) {
	if len(a) == 0 {
		return nil, nil
	}
	b, err := json.Marshal([]AppliedDiscount(a))
	return string(b), err
}

// Scan reads the jsonb column.
func (a *AppliedDiscounts) Scan(src any) error {
	var out []AppliedDiscount
	if _, err := DecodeJSON(src, &out); err != nil {
		return fmt.Errorf("models.AppliedDiscounts: %w", err)
	}
	*a = out
	return nil
}

// GormDataType names the column type for schema tools.
func (AppliedDiscounts) GormDataType() string { return "jsonb" }

// OrEmpty returns the list, never nil, for an answer.
func (a AppliedDiscounts) OrEmpty() []AppliedDiscount {
	if a == nil {
		return []AppliedDiscount{}
	}
	return a
}
