package draft

import (
	"encoding/json"
	"fmt"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// MaxItems bounds a draft's lines.
const MaxItems = 100

// Item is a line of a draft as staff enters it.
type Item struct {
	VariantID uuid.UUID
	Quantity  int
	// Price, when set, replaces the effective price (GST included); it
	// needs the pricing permission, which the handler checks.
	Price *money.Amount
	// BundleID makes the line part of the draft's selection of that bundle:
	// every line of one bundle is priced together, as in a cart.
	BundleID *uuid.UUID
}

// Buyer is who the draft is for: an existing customer, or an email (with
// name and phone) for which the guest record is found or made, as a guest
// checkout does, or, with no email, a phone (with name) keying the guest
// record of a phone order.
type Buyer struct {
	CustomerID *uuid.UUID
	Email      string
	Name       string
	Phone      string
}

// Input is a draft as created. The handler has validated each field's
// form; the service checks what needs the database.
type Input struct {
	Buyer            Buyer
	Items            []Item
	ShippingAddress  models.Address
	BillingAddress   *models.Address
	ShippingMethodID *uuid.UUID
	ShippingCost     *money.Amount
	DiscountCode     *string
	TaxBuyer         models.TaxBuyer
	Note             string
}

// Patch changes a draft: nil fields stay. Items, when set, replace every
// line. ClearShipping drops the method and the cost before the new ones
// apply.
type Patch struct {
	Buyer            *Buyer
	Items            *[]Item
	ShippingAddress  *models.Address
	BillingAddress   *models.Address
	ShippingMethodID *uuid.UUID
	ShippingCost     *money.Amount
	DiscountCode     *string
	TaxBuyer         *models.TaxBuyer
	Note             *string
}

// HasOverride reports whether any item sets its price.
func HasOverride(items []Item) bool {
	for _, it := range items {
		if it.Price != nil {
			return true
		}
	}
	return false
}

// checkItems checks what the handler cannot: every variant exists, every
// bundle exists, and no bundle line has its price set by hand (a bundle
// prices its lines together). Errors: VALIDATION_ERROR naming the item.
func checkItems(tx *gorm.DB, items []Item) error {
	if len(items) == 0 {
		return apperr.Invalid("items", "must have at least one line")
	}
	if len(items) > MaxItems {
		return apperr.Invalid("items", fmt.Sprintf("must have at most %d lines", MaxItems))
	}
	ids := make([]uuid.UUID, 0, len(items))
	var bundles []uuid.UUID
	for i, it := range items {
		ids = append(ids, it.VariantID)
		if it.BundleID != nil {
			if it.Price != nil {
				return apperr.Invalid(fmt.Sprintf("items[%d].price", i), "cannot be set on a bundle line")
			}
			bundles = append(bundles, *it.BundleID)
		}
	}
	var known []uuid.UUID
	if err := tx.Raw(`SELECT id FROM variants WHERE id IN ?`, ids).Scan(&known).Error; err != nil {
		return fmt.Errorf("draft.check_items: %w", err)
	}
	found := map[uuid.UUID]bool{}
	for _, id := range known {
		found[id] = true
	}
	for i, it := range items {
		if !found[it.VariantID] {
			return apperr.Invalid(fmt.Sprintf("items[%d].variantId", i), "is not a variant")
		}
	}
	if len(bundles) > 0 {
		var knownBundles []uuid.UUID
		if err := tx.Raw(`SELECT id FROM bundles WHERE id IN ?`, bundles).Scan(&knownBundles).Error; err != nil {
			return fmt.Errorf("draft.check_items: %w", err)
		}
		okBundle := map[uuid.UUID]bool{}
		for _, id := range knownBundles {
			okBundle[id] = true
		}
		for i, it := range items {
			if it.BundleID != nil && !okBundle[*it.BundleID] {
				return apperr.Invalid(fmt.Sprintf("items[%d].bundleId", i), "is not a bundle")
			}
		}
	}
	return nil
}

// itemRows are the draft_order_items rows of items; the lines of one
// bundle share one selection id.
func itemRows(draftID uuid.UUID, items []Item) []models.DraftOrderItem {
	selections := map[uuid.UUID]uuid.UUID{}
	rows := make([]models.DraftOrderItem, len(items))
	for i, it := range items {
		rows[i] = models.DraftOrderItem{ID: uuid.New(), DraftOrderID: draftID, VariantID: it.VariantID, Quantity: it.Quantity,
			PriceOverride: it.Price, BundleID: it.BundleID, Position: i}
		if it.BundleID != nil {
			sel, ok := selections[*it.BundleID]
			if !ok {
				sel = uuid.New()
				selections[*it.BundleID] = sel
			}
			rows[i].BundleSelection = &sel
		}
	}
	return rows
}

func addressJSON(a *models.Address) (models.JSON, error) {
	if a == nil {
		return nil, nil
	}
	b, err := json.Marshal(a)
	return models.JSON(b), err
}
