package cart

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/pricing"
	"github.com/gocommerce/shop/internal/taxrule"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// lineRow is a cart item (or a draft order's line) with its product data,
// availability and price inputs, as loaded by linesFrom.
type lineRow struct {
	pricing.Row
	ValueRule       taxrule.Found
	ItemID          uuid.UUID
	Quantity        int
	BundleID        *uuid.UUID
	BundleSelection *uuid.UUID
	PriceOverride   *money.Amount
	Title           string
	SKU             string
	HSNCode         string
	GSTRate         money.Rate
	CessRate        money.Rate
	Unit            string
	CategoryID      *uuid.UUID
	ProductActive   bool
	Available       int
}

// The item sources lines are priced from: a cart's items, or a draft
// order's (docs/DECISIONS.md "Draft orders and payment links"). Both go
// through one statement template, so a draft is priced exactly as a cart.
const (
	cartItemsSQL = `SELECT id, variant_id, quantity, bundle_id, bundle_selection, NULL::bigint AS price_override,
	created_at, id AS tiebreak FROM cart_items WHERE cart_id = @owner`
	draftItemsSQL = `SELECT id, variant_id, quantity, bundle_id, bundle_selection, price_override,
	created_at, position AS tiebreak FROM draft_order_items WHERE draft_order_id = @owner`
)

var (
	linesGroupSQL      = linesFrom(pricing.InputsSQL, cartItemsSQL)
	linesGuestSQL      = linesFrom(pricing.GuestInputsSQL, cartItemsSQL)
	draftLinesGroupSQL = linesFrom(pricing.InputsSQL, draftItemsSQL)
	draftLinesGuestSQL = linesFrom(pricing.GuestInputsSQL, draftItemsSQL)
)

// linesFrom loads the lines of items (one of the item sources above, for
// the owner given as @owner), every price input and the value rule of each
// product in one statement; pricing.InputsFor is the single source of those
// inputs, taxrule.ColumnSQL of the rule.
func linesFrom(inputs, items string) string {
	return `SELECT pr.*, ci.id AS item_id, ci.quantity, ci.bundle_id, ci.bundle_selection, ci.price_override,
	p.title, v.sku, p.hsn_code, p.gst_rate, p.cess_rate, p.unit, p.category_id, p.status = 'active' AS product_active,
	GREATEST(v.inventory - v.reserved - v.committed, 0) AS available, ` + taxrule.ColumnSQL + `
FROM (` + items + `) ci
JOIN (` + inputs + ` WHERE v.id IN (SELECT variant_id FROM (` + items + `) src)) pr ON pr.variant_id = ci.variant_id
JOIN variants v ON v.id = ci.variant_id
JOIN products p ON p.id = v.product_id
ORDER BY ci.created_at, ci.tiebreak`
}

// Lines loads cartID's lines priced for group, oldest first. db may be a
// transaction.
func Lines(ctx context.Context, db *gorm.DB, cartID uuid.UUID, group *uuid.UUID) ([]Line, error) {
	q := linesGuestSQL
	if group != nil {
		q = linesGroupSQL
	}
	return loadLines(ctx, db, q, cartID, group)
}

// DraftLines loads draft order draftID's lines priced for group, in their
// order; a line's price override replaces its effective price. db may be a
// transaction.
func DraftLines(ctx context.Context, db *gorm.DB, draftID uuid.UUID, group *uuid.UUID) ([]Line, error) {
	q := draftLinesGuestSQL
	if group != nil {
		q = draftLinesGroupSQL
	}
	return loadLines(ctx, db, q, draftID, group)
}

func loadLines(ctx context.Context, db *gorm.DB, q string, owner uuid.UUID, group *uuid.UUID) ([]Line, error) {
	var rows []lineRow
	if err := db.WithContext(ctx).Raw(q, map[string]any{"owner": owner, "group": group}).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("cart.lines: %w", err)
	}
	out := make([]Line, len(rows))
	for i, r := range rows {
		out[i] = Line{ItemID: r.ItemID, VariantID: r.VariantID, ProductID: r.ProductID, CategoryID: r.CategoryID,
			Title: r.Title, SKU: r.SKU, HSNCode: r.HSNCode, GSTRate: r.GSTRate, CessRate: r.CessRate, Unit: r.Unit, ProductActive: r.ProductActive,
			Available: r.Available, Quantity: r.Quantity, UnitPrice: pricing.Effective(r.Row.Inputs()).Amount,
			BundleID: r.BundleID, BundleSelection: r.BundleSelection, ValueRule: r.ValueRule.Rule()}
		if r.PriceOverride != nil {
			out[i].ListPrice, out[i].UnitPrice, out[i].Overridden = out[i].UnitPrice, *r.PriceOverride, true
		}
	}
	return out, nil
}

// Buyer is who the discount rules are checked for: a customer (per-customer
// limits apply) or nobody yet (a guest before checkout). At checkout the
// shipping zone is known (ZoneKnown; Zone nil when none covers the
// address), and a free-shipping discount limited to zones is checked
// against it.
type Buyer struct {
	CustomerID *uuid.UUID
	Group      *uuid.UUID
	Zone       *uuid.UUID
	ZoneKnown  bool
}

// Priced is a cart priced now: its lines, totals and the discounts applied.
type Priced struct {
	Lines []Line
	Totals
	// Applied are the discounts applied, goods discounts first, then a
	// free-shipping one (which takes nothing off the lines: checkout
	// waives the shipping charge with it). Discount is the first, nil for
	// none.
	Applied  []discount.Applied
	Discount *discount.Target
	// Code is the cart's discount code; CodeReason says why it does not
	// apply now (discount.Messages has the text), "" when it does.
	Code       *string
	CodeReason string
}

// FreeShipping returns the free-shipping discount applied, nil for none.
func (p *Priced) FreeShipping() *discount.Target {
	if a := (discount.Selection{Applied: p.Applied}).Shipping(); a != nil {
		return a.Target
	}
	return nil
}

// Price prices cartID for buyer with code (the cart's discount code, or
// nil): current effective prices, then the discounts (PriceLines). db may
// be a transaction.
func Price(ctx context.Context, db *gorm.DB, cartID uuid.UUID, code *string, buyer Buyer, autos discount.AutomaticSource, now time.Time) (*Priced, error) {
	lines, err := Lines(ctx, db, cartID, buyer.Group)
	if err != nil {
		return nil, err
	}
	return PriceLines(ctx, db, lines, code, buyer, autos, now)
}

// PriceLines prices loaded lines (Lines, DraftLines) for buyer with code:
// bundle selections, then the best allowed combination of the code (when
// it applies) and the automatic discounts of autos (discount.Choose), then
// each line's share of them and its tax. Checkout and draft orders both
// price through it. db may be a transaction.
func PriceLines(ctx context.Context, db *gorm.DB, lines []Line, code *string, buyer Buyer, autos discount.AutomaticSource, now time.Time) (*Priced, error) {
	if err := priceBundles(ctx, db, lines, buyer.Group); err != nil {
		return nil, err
	}
	p := &Priced{Lines: lines, Code: code}
	base := discount.Input{Lines: DiscountLines(lines), HasCustomer: buyer.CustomerID != nil, Now: now,
		Zone: buyer.Zone, ZoneKnown: buyer.ZoneKnown}
	var target *discount.Target
	if code != nil {
		t, err := discount.LoadByCode(ctx, db, *code)
		switch {
		case apperr.CodeOf(err) == apperr.NotFound:
			p.CodeReason = discount.ReasonInactive
		case err != nil:
			return nil, err
		default:
			target = t
		}
	}
	var list []discount.Target
	if len(lines) > 0 {
		var err error
		if list, err = autos.Automatic(ctx, db); err != nil {
			return nil, err
		}
	}
	uses, err := customerUses(ctx, db, buyer, target, list)
	if err != nil {
		return nil, err
	}
	if target != nil || len(list) > 0 {
		sel := discount.Choose(target, list, base, func(id uuid.UUID) int { return uses[id] })
		if target != nil && sel.CodeReason != "" {
			p.CodeReason = sel.CodeReason
		}
		p.Applied = sel.Applied
		if len(sel.Applied) > 0 {
			p.Discount = sel.Applied[0].Target
		}
		p.Totals = Compute(p.Lines, &discount.Result{PerLine: sel.PerLine(len(lines))})
		return p, nil
	}
	p.Totals = Compute(p.Lines, nil)
	return p, nil
}

// customerUses counts, in one statement, the buyer's orders that used
// each discount with a per-customer limit among code and autos.
func customerUses(ctx context.Context, db *gorm.DB, buyer Buyer, code *discount.Target, autos []discount.Target) (map[uuid.UUID]int, error) {
	uses := map[uuid.UUID]int{}
	if buyer.CustomerID == nil {
		return uses, nil
	}
	var ids []uuid.UUID
	if code != nil && code.Discount.CustomerUsageLimit != nil {
		ids = append(ids, code.Discount.ID)
	}
	for _, a := range autos {
		if a.Discount.CustomerUsageLimit != nil {
			ids = append(ids, a.Discount.ID)
		}
	}
	if len(ids) == 0 {
		return uses, nil
	}
	var rows []struct {
		DiscountID uuid.UUID
		N          int
	}
	if err := db.WithContext(ctx).Raw(`SELECT discount_id, count(*) AS n FROM discount_usages
		WHERE customer_id = ? AND discount_id IN ? GROUP BY discount_id`, *buyer.CustomerID, ids).Scan(&rows).Error; err != nil {
		return nil, fmt.Errorf("cart.discount_uses: %w", err)
	}
	for _, r := range rows {
		uses[r.DiscountID] = r.N
	}
	return uses, nil
}
