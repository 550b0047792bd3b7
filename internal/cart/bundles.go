package cart

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/bundle"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// priceBundles prices each bundle selection in lines with
// bundle.PriceSelection, which owns the bundle rules and pricing: the lines
// get their share of the bundle's discount. A selection the bundle no longer
// accepts (deactivated, sets changed, a product off sale) keeps plain
// prices and is marked with the reason; checkout refuses it.
func priceBundles(ctx context.Context, db *gorm.DB, lines []Line, group *uuid.UUID) error {
	bySelection := map[uuid.UUID][]int{}
	var order []uuid.UUID
	for i, l := range lines {
		if l.BundleSelection == nil || l.BundleID == nil {
			continue
		}
		if _, ok := bySelection[*l.BundleSelection]; !ok {
			order = append(order, *l.BundleSelection)
		}
		bySelection[*l.BundleSelection] = append(bySelection[*l.BundleSelection], i)
	}
	for _, sel := range order {
		idx := bySelection[sel]
		picks := make([]bundle.Line, len(idx))
		for j, i := range idx {
			picks[j] = bundle.Line{VariantID: lines[i].VariantID, Quantity: lines[i].Quantity}
		}
		priced, _, err := bundle.PriceSelection(ctx, db, group, *lines[idx[0]].BundleID, picks)
		if err != nil {
			e, ok := apperr.As(err)
			if !ok || e.Code == apperr.Internal || e.Code == apperr.Unavailable {
				return err
			}
			for _, i := range idx {
				lines[i].BundleIssue = e.Message
			}
			continue
		}
		for j, i := range idx {
			lines[i].UnitPrice = priced[j].UnitPrice
			lines[i].BundleDiscount = priced[j].Discount
		}
	}
	return nil
}

// AddBundle adds a selection of bundle bundleID to owner's cart (201 in the
// API): each chosen variant becomes a line of the selection, priced together
// (the bundle's discountPercent comes off their sum). An empty selection
// means the bundle's default one. Errors: NOT_FOUND (bundle), VALIDATION_ERROR
// (the selection breaks the bundle's rules, a line past 1000 units),
// CONFLICT (more than available; a product off sale; cart locked).
func (s *Service) AddBundle(ctx context.Context, owner Owner, bundleID uuid.UUID, selection []bundle.Line) (*View, error) {
	return s.editView(ctx, owner, func(tx *gorm.DB, c *models.Cart) error {
		if len(selection) == 0 {
			b, err := bundle.Load(ctx, tx, bundleID)
			if err != nil {
				return err
			}
			selection = bundle.DefaultSelection(b)
		}
		priced, _, err := bundle.PriceSelection(ctx, tx, owner.Group, bundleID, selection)
		if err != nil {
			return err
		}
		selID := uuid.New()
		for i, it := range priced {
			if it.Quantity > MaxQuantity {
				return apperr.Invalid(fmt.Sprintf("items[%d].quantity", i), "must be at most 1000")
			}
			sc, err := checkStock(tx, c.ID, it.VariantID)
			if err != nil {
				return err
			}
			if i == 0 {
				if err := checkRoom(sc.Lines, len(priced)); err != nil {
					return err
				}
			}
			if sc.InCart+it.Quantity > sc.Available {
				return Shortage(it.VariantID, sc.Available)
			}
			// clock_timestamp(): the lines keep the selection's order.
			if err := tx.Exec(`INSERT INTO cart_items (cart_id, variant_id, quantity, bundle_id, bundle_selection, created_at)
				VALUES (?, ?, ?, ?, ?, clock_timestamp())`,
				c.ID, it.VariantID, it.Quantity, bundleID, selID).Error; err != nil {
				return wrap("add_bundle", err)
			}
		}
		return nil
	})
}
