package bundle

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/pricing"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Line is one variant of a selection: Quantity units of it go in the cart
// (a multiple of its item's quantity).
type Line struct {
	VariantID uuid.UUID `json:"variantId"`
	Quantity  int       `json:"quantity"`
}

// PricedItem is a line of a priced selection, in the order of the
// selection. Total is what the line costs in the cart, GST included.
type PricedItem struct {
	SetID     uuid.UUID `json:"setId"`
	ItemID    uuid.UUID `json:"itemId"`
	VariantID uuid.UUID `json:"variantId"`
	ProductID uuid.UUID `json:"productId"`
	// Quantity is units of the variant; Picks is Quantity / item quantity.
	Quantity int `json:"quantity"`
	Picks    int `json:"picks"`
	// UnitPrice is the variant's effective price for the customer's group.
	UnitPrice money.Amount `json:"unitPrice"`
	// Subtotal is UnitPrice × Quantity.
	Subtotal money.Amount `json:"subtotal"`
	// Discount is this line's share of the bundle discount.
	Discount money.Amount `json:"discount"`
	// Total is Subtotal − Discount.
	Total money.Amount `json:"total"`
}

// DefaultSelection is the bundle's default selection: each isDefault item
// picked once. It may not satisfy the sets' minimums; PriceSelection says.
func DefaultSelection(b *models.Bundle) []Line {
	var out []Line
	for _, s := range b.Sets {
		for _, it := range s.Items {
			if it.IsDefault {
				out = append(out, Line{VariantID: it.VariantID, Quantity: it.Quantity})
			}
		}
	}
	return out
}

// itemRef locates a variant's item within a bundle.
type itemRef struct {
	set  *models.BundleSet
	item *models.BundleSetItem
}

// PriceSelection checks a selection of bundle bundleID against its sets and
// prices it for a customer in group (nil: no group). The bundle price is
// the sum of the lines at their effective prices less the bundle's
// discountPercent of that sum, rounded half up to the paisa and split over
// the lines in proportion to their subtotals (largest remainder), so the
// lines' totals add up to the returned total exactly. db may be a
// transaction. Stock is not checked here: the cart does it.
// Errors: NOT_FOUND (no such bundle, or inactive), VALIDATION_ERROR (field
// "items" or "items[i].variantId"/"items[i].quantity": empty selection, a
// variant not in the bundle or given twice, units not a multiple of the
// item quantity, a set's picks outside minQuantity..maxQuantity, two items
// of one set without allowMixAndMatch), CONFLICT (a variant whose product is
// not active).
func PriceSelection(ctx context.Context, db *gorm.DB, group *uuid.UUID, bundleID uuid.UUID, selection []Line) ([]PricedItem, money.Amount, error) {
	b, err := Load(ctx, db, bundleID)
	if err != nil {
		return nil, 0, err
	}
	if !b.IsActive {
		return nil, 0, apperr.Missing(resBundle)
	}
	items, err := checkSelection(b, selection)
	if err != nil {
		return nil, 0, err
	}
	ids := make([]uuid.UUID, len(items))
	for i, it := range items {
		ids[i] = it.VariantID
	}
	products, err := activeProducts(ctx, db, ids)
	if err != nil {
		return nil, 0, err
	}
	prices, err := pricing.Resolve(ctx, db, group, ids)
	if err != nil {
		return nil, 0, fmt.Errorf("bundle.price: %w", err)
	}
	var subtotal money.Amount
	weights := make([]money.Amount, len(items))
	for i := range items {
		p := prices[items[i].VariantID]
		items[i].ProductID = products[items[i].VariantID]
		items[i].UnitPrice = p.Amount
		items[i].Subtotal = p.Amount * money.Amount(items[i].Quantity)
		weights[i] = items[i].Subtotal
		subtotal += items[i].Subtotal
	}
	off := subtotal.Percent(b.DiscountPercent)
	shares := discount.Allocate(off, weights)
	for i := range items {
		items[i].Discount = shares[i]
		items[i].Total = items[i].Subtotal - shares[i]
	}
	return items, subtotal - off, nil
}

// checkSelection validates a selection against the bundle's sets and
// returns its lines, not yet priced.
func checkSelection(b *models.Bundle, selection []Line) ([]PricedItem, error) {
	if len(selection) == 0 {
		return nil, apperr.Invalid("items", "must choose at least one item")
	}
	byVariant := map[uuid.UUID]itemRef{}
	for si := range b.Sets {
		for ii := range b.Sets[si].Items {
			it := &b.Sets[si].Items[ii]
			byVariant[it.VariantID] = itemRef{set: &b.Sets[si], item: it}
		}
	}
	picks := map[uuid.UUID]int{}
	distinct := map[uuid.UUID]int{}
	seen := map[uuid.UUID]bool{}
	out := make([]PricedItem, len(selection))
	for i, l := range selection {
		at := fmt.Sprintf("items[%d].", i)
		ref, ok := byVariant[l.VariantID]
		switch {
		case !ok:
			return nil, apperr.Invalid(at+"variantId", "is not an item of this bundle")
		case seen[l.VariantID]:
			return nil, apperr.Invalid(at+"variantId", "is chosen more than once")
		case l.Quantity < 1 || l.Quantity%ref.item.Quantity != 0:
			return nil, apperr.Invalid(at+"quantity", fmt.Sprintf("must be a positive multiple of %d", ref.item.Quantity))
		}
		seen[l.VariantID] = true
		n := l.Quantity / ref.item.Quantity
		picks[ref.set.ID] += n
		distinct[ref.set.ID]++
		out[i] = PricedItem{SetID: ref.set.ID, ItemID: ref.item.ID, VariantID: l.VariantID, Quantity: l.Quantity, Picks: n}
	}
	for _, s := range b.Sets {
		if n := picks[s.ID]; n < s.MinQuantity || n > s.MaxQuantity {
			return nil, apperr.Invalid("items", fmt.Sprintf("set %q needs between %d and %d picks, got %d", s.Title, s.MinQuantity, s.MaxQuantity, n)).
				WithDetails(map[string]any{"field": "items", "issue": "set picks out of range", "setId": s.ID.String(),
					"minQuantity": s.MinQuantity, "maxQuantity": s.MaxQuantity, "picks": n})
		}
		if !b.AllowMixAndMatch && distinct[s.ID] > 1 {
			return nil, apperr.Invalid("items", fmt.Sprintf("set %q allows one item (no mix and match)", s.Title)).
				WithDetails(map[string]any{"field": "items", "issue": "one item per set", "setId": s.ID.String()})
		}
	}
	return out, nil
}

// activeProducts returns each variant's product, refusing variants whose
// product is not active (not sold on the storefront). Errors: CONFLICT.
func activeProducts(ctx context.Context, db *gorm.DB, ids []uuid.UUID) (map[uuid.UUID]uuid.UUID, error) {
	var rows []struct {
		ID        uuid.UUID
		ProductID uuid.UUID
		Status    string
	}
	err := db.WithContext(ctx).Raw(`SELECT v.id, v.product_id, p.status FROM variants v JOIN products p ON p.id = v.product_id WHERE v.id IN ?`, ids).
		Scan(&rows).Error
	if err != nil {
		return nil, fmt.Errorf("bundle.active_products: %w", err)
	}
	out := make(map[uuid.UUID]uuid.UUID, len(rows))
	for _, r := range rows {
		if r.Status != models.ProductActive {
			return nil, apperr.Conflictf("an item of this bundle is not available").
				WithDetails(map[string]any{"variantId": r.ID.String(), "issue": "product not active"})
		}
		out[r.ID] = r.ProductID
	}
	return out, nil
}
