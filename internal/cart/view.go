package cart

import (
	"context"

	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Item is a cart line as answered.
type Item struct {
	ID        uuid.UUID    `json:"id"`
	VariantID uuid.UUID    `json:"variantId"`
	ProductID uuid.UUID    `json:"productId"`
	Title     string       `json:"title"`
	SKU       string       `json:"sku"`
	Quantity  int          `json:"quantity"`
	UnitPrice money.Amount `json:"unitPrice"`
	// LineTotal is UnitPrice × Quantity, before the cart discount.
	LineTotal money.Amount `json:"lineTotal"`
	// DiscountAmount is the line's share of the cart discount; Discount
	// the same (the name the promotions contract gives it): bundle and cart discounts together.
	DiscountAmount money.Amount `json:"discountAmount"`
	Discount       money.Amount `json:"discount"`
	// GSTRate is the rate the line is taxed at: a value rule's for its
	// discounted value when one covers the product, else the product's.
	GSTRate  money.Rate `json:"gstRate"`
	BundleID *uuid.UUID `json:"bundleId,omitempty"`
	// BundleSelection groups the lines of one bundle added to the cart.
	BundleSelection *uuid.UUID `json:"bundleSelection,omitempty"`
	// BundleIssue says why a bundle line is priced without its bundle's
	// discount (the bundle changed); checkout refuses such a cart.
	BundleIssue string `json:"bundleIssue,omitempty"`
}

// View is the cart as answered (docs/openapi.yaml, StoreCart).
type View struct {
	// ID is null for a guest who has no cart yet.
	ID            *uuid.UUID   `json:"id"`
	Items         []Item       `json:"items"`
	Subtotal      money.Amount `json:"subtotal"`
	DiscountTotal money.Amount `json:"discountTotal"`
	TaxTotal      money.Amount `json:"taxTotal"`
	// CessTotal is the compensation cess in the lines, apart from TaxTotal.
	CessTotal    money.Amount `json:"cessTotal"`
	Total        money.Amount `json:"total"`
	Currency     string       `json:"currency"`
	DiscountCode *string      `json:"discountCode"`
	// Discounts are the discounts applied, with what each takes off (a
	// free-shipping one shows 0 until checkout charges shipping).
	Discounts []models.AppliedDiscount `json:"discounts"`
	// DiscountMessage says why the cart's code takes nothing off now.
	DiscountMessage *string `json:"discountMessage,omitempty"`
	// Locked is true while a pending checkout holds the cart.
	Locked bool `json:"locked"`
	// Warnings, only on the answer of the request that merged a guest cart
	// in, list the guest lines that did not move whole.
	Warnings []MergeWarning `json:"warnings,omitempty"`
}

// view prices cart c for owner and maps it to the answer.
func (s *Service) view(ctx context.Context, c *models.Cart, owner Owner) (*View, error) {
	v := &View{Items: []Item{}, Currency: s.currency, Discounts: []models.AppliedDiscount{}}
	if c == nil {
		return v, nil
	}
	p, err := Price(ctx, s.db, c.ID, c.DiscountCode, Buyer{CustomerID: owner.CustomerID, Group: owner.Group}, s.autos, s.now())
	if err != nil {
		return nil, err
	}
	id := c.ID
	v.ID, v.DiscountCode, v.Locked = &id, c.DiscountCode, c.LockedBy != nil
	v.Subtotal, v.DiscountTotal, v.TaxTotal, v.Total = p.Subtotal, p.DiscountTotal, p.TaxTotal, p.Total
	v.CessTotal, v.Discounts = p.CessTotal, discount.Records(p.Applied).OrEmpty()
	if p.CodeReason != "" {
		msg := discount.Messages[p.CodeReason]
		v.DiscountMessage = &msg
	}
	for _, l := range p.Lines {
		v.Items = append(v.Items, Item{ID: l.ItemID, VariantID: l.VariantID, ProductID: l.ProductID, Title: l.Title,
			SKU: l.SKU, Quantity: l.Quantity, UnitPrice: l.UnitPrice, LineTotal: l.Gross, DiscountAmount: l.Discount, Discount: l.Discount,
			GSTRate: l.GSTRate, BundleID: l.BundleID, BundleSelection: l.BundleSelection, BundleIssue: l.BundleIssue})
	}
	return v, nil
}
