package browse

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/media"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/pricing"
	"github.com/gocommerce/shop/internal/review"
	"github.com/gocommerce/shop/internal/taxrule"
	"github.com/google/uuid"
	"github.com/shopspring/decimal"
)

// productRow is a product as selected by the list and page queries.
type productRow struct {
	ID             uuid.UUID
	Title          string
	Slug           string
	Description    string
	Price          money.Amount
	CompareAtPrice *money.Amount
	GSTRate        money.Rate
	CessRate       money.Rate
	HSNCode        string
	CategoryID     *uuid.UUID
	RatingCount    int
	RatingTotal    int
	CreatedAt      time.Time
	UpdatedAt      time.Time
	GroupPrice     *money.Amount
	ValueRule      taxrule.Found
}

// productColumns are the columns of productRow, from products p joined to
// the caller group's override pgp, and the value rule covering each
// (taxrule.ColumnSQL, evaluated for the rows a page returns).
const productColumns = `p.id, p.title, p.slug, p.description, p.price, p.compare_at_price, p.gst_rate, p.cess_rate, p.hsn_code,
	p.category_id, p.rating_count, p.rating_total, p.created_at, p.updated_at, pgp.price AS group_price, ` + taxrule.ColumnSQL

const groupPriceJoin = ` LEFT JOIN product_group_prices pgp ON pgp.product_id = p.id AND pgp.customer_group_id = @group`

// variantRow is a variant with its price inputs (pricing.InputsSQL) and
// availability.
type variantRow struct {
	pricing.Row
	SKU       string
	Size      string
	Color     string
	Weight    decimal.NullDecimal
	Available int
}

// variantsSQL loads the variants of the products @ids with everything their
// effective price needs, in one statement: pricing.InputsFor is the single
// source of price inputs, joined back to the variant's display columns.
func variantsSQL(group *uuid.UUID) string {
	if group == nil {
		return variantsGuestSQL
	}
	return variantsGroupSQL
}

var (
	variantsGroupSQL = variantsFrom(pricing.InputsSQL)
	variantsGuestSQL = variantsFrom(pricing.GuestInputsSQL)
)

func variantsFrom(inputs string) string {
	return `SELECT pr.*, v.sku, v.size, v.color, v.weight,
	GREATEST(v.inventory - v.reserved - v.committed, 0) AS available
FROM (` + inputs + ` WHERE v.product_id IN @ids) pr
JOIN variants v ON v.id = pr.variant_id
ORDER BY v.product_id, v.created_at, v.id`
}

// assemble renders rows with their variants, prices and availability, in
// the order of rows; a list's entries (list) carry their first image, a
// product page all its images.
func (s *Service) assemble(ctx context.Context, group *uuid.UUID, rows []productRow, list bool) ([]uuid.UUID, []productParts, error) {
	ids := make([]uuid.UUID, len(rows))
	out := make([]productParts, len(rows))
	if len(rows) == 0 {
		return ids, out, nil
	}
	for i, r := range rows {
		ids[i] = r.ID
	}
	var vrows []variantRow
	err := s.db.WithContext(ctx).Raw(variantsSQL(group), map[string]any{"group": group, "ids": ids}).Scan(&vrows).Error
	if err != nil {
		return nil, nil, fmt.Errorf("browse.variants: %w", err)
	}
	byProduct := make(map[uuid.UUID][]Variant, len(rows))
	for _, v := range vrows {
		price := pricing.Effective(v.Row.Inputs())
		byProduct[v.ProductID] = append(byProduct[v.ProductID], Variant{VariantInfo: VariantInfo{
			ID: v.VariantID, SKU: v.SKU, Size: v.Size, Color: v.Color, Weight: weight(v.Weight),
			Price: price.Amount, CompareAtPrice: price.CompareAt}, Available: v.Available, InStock: v.Available > 0,
		})
	}
	images := map[uuid.UUID][]media.PublicImage{}
	if s.images != nil {
		if images, err = s.images.Showcase(ctx, s.db, ids, list); err != nil {
			return nil, nil, err
		}
	}
	for i, r := range rows {
		p := s.product(r, byProduct[r.ID])
		if rule := r.ValueRule.Rule(); rule != nil {
			// The rate at the price shown (docs/DECISIONS.md "GST rates
			// that depend on value").
			p.GSTRule, p.GSTRate = &rule.ID, rule.RateAt(p.Price, r.CessRate)
		}
		if p.listed = list; list {
			if first := images[r.ID]; len(first) > 0 {
				p.Image = &first[0]
			}
		} else if p.Images = images[r.ID]; p.Images == nil {
			p.Images = []media.PublicImage{}
		}
		if out[i], err = render(p); err != nil {
			return nil, nil, fmt.Errorf("browse.render: %w", err)
		}
	}
	return ids, out, nil
}

// product builds one product's view; its price is the cheapest variant's.
func (s *Service) product(r productRow, variants []Variant) Product {
	p := Product{ProductInfo: ProductInfo{ID: r.ID, Title: r.Title, Slug: r.Slug, Description: r.Description,
		Currency: s.currency, GSTRate: r.GSTRate, HSNCode: r.HSNCode, CategoryID: r.CategoryID,
		Rating: review.Summarize(r.RatingCount, r.RatingTotal), CreatedAt: r.CreatedAt.UTC(), UpdatedAt: r.UpdatedAt.UTC()},
		Variants: variants}
	if p.Variants == nil {
		p.Variants = []Variant{}
	}
	if len(variants) == 0 {
		own := pricing.Effective(pricing.Inputs{ProductPrice: r.Price, ProductCompareAt: r.CompareAtPrice, GroupPrice: r.GroupPrice})
		p.Price, p.CompareAtPrice = own.Amount, own.CompareAt
	}
	for i, v := range variants {
		if i == 0 || v.Price < p.Price {
			p.Price, p.CompareAtPrice = v.Price, v.CompareAtPrice
		}
	}
	return p
}

func weight(w decimal.NullDecimal) *json.Number {
	if !w.Valid {
		return nil
	}
	n := json.Number(w.Decimal.String())
	return &n
}
