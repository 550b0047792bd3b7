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
// limits apply) or nobody yet (a guest before checkout).
type Buyer struct {
	CustomerID *uuid.UUID
	Group      *uuid.UUID
}

// Priced is a cart priced now: its lines, totals and the discount applied.
type Priced struct {
	Lines []Line
	Totals
	// Discount is the discount applied, nil for none.
	Discount *discount.Target
	// Code is the cart's discount code; CodeReason says why it does not
	// apply now (discount.Messages has the text), "" when it does.
	Code       *string
	CodeReason string
}

// Price prices cartID for buyer with code (the cart's discount code, or
// nil): current effective prices, then the code if it applies, else the
// automatic discount of autos taking the most off. db may be a transaction.
func Price(ctx context.Context, db *gorm.DB, cartID uuid.UUID, code *string, buyer Buyer, autos discount.AutomaticSource, now time.Time) (*Priced, error) {
	lines, err := Lines(ctx, db, cartID, buyer.Group)
	if err != nil {
		return nil, err
	}
	return PriceLines(ctx, db, lines, code, buyer, autos, now)
}

// PriceLines prices loaded lines (Lines, DraftLines) for buyer with code:
// bundle selections, then the code if it applies, else the automatic
// discount of autos taking the most off, then each line's share and tax.
// Checkout and draft orders both price through it. db may be a transaction.
func PriceLines(ctx context.Context, db *gorm.DB, lines []Line, code *string, buyer Buyer, autos discount.AutomaticSource, now time.Time) (*Priced, error) {
	var err error
	if err := priceBundles(ctx, db, lines, buyer.Group); err != nil {
		return nil, err
	}
	p := &Priced{Lines: lines, Code: code}
	base := discount.Input{Lines: DiscountLines(lines), HasCustomer: buyer.CustomerID != nil, Now: now}
	var res discount.Result
	if code != nil {
		target, err := discount.LoadByCode(ctx, db, *code)
		switch {
		case apperr.CodeOf(err) == apperr.NotFound:
			p.CodeReason = discount.ReasonInactive
		case err != nil:
			return nil, err
		default:
			in := base
			in.Target = *target
			if buyer.CustomerID != nil && target.Discount.CustomerUsageLimit != nil {
				if in.CustomerUses, err = discount.CustomerUses(ctx, db, target.Discount.ID, *buyer.CustomerID); err != nil {
					return nil, err
				}
			}
			if res = discount.Evaluate(in); res.Applies() {
				p.Discount = target
			} else {
				p.CodeReason = res.Reason
			}
		}
	}
	if p.Discount == nil && len(lines) > 0 {
		if p.Discount, res, err = bestAutomatic(ctx, db, autos, base, buyer); err != nil {
			return nil, err
		}
	}
	if p.Discount != nil {
		p.Totals = Compute(p.Lines, &res)
	} else {
		p.Totals = Compute(p.Lines, nil)
	}
	return p, nil
}

func bestAutomatic(ctx context.Context, db *gorm.DB, source discount.AutomaticSource, base discount.Input, buyer Buyer) (*discount.Target, discount.Result, error) {
	autos, err := source.Automatic(ctx, db)
	if err != nil || len(autos) == 0 {
		return nil, discount.Result{}, err
	}
	uses := map[uuid.UUID]int{}
	if buyer.CustomerID != nil {
		for _, a := range autos {
			if a.Discount.CustomerUsageLimit != nil {
				if uses[a.Discount.ID], err = discount.CustomerUses(ctx, db, a.Discount.ID, *buyer.CustomerID); err != nil {
					return nil, discount.Result{}, err
				}
			}
		}
	}
	best, res := discount.Best(autos, base, func(id uuid.UUID) int { return uses[id] })
	return best, res, nil
}
