package bundle_test

import (
	"context"
	"testing"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/bundle"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

type fixture struct {
	db                 *gorm.DB
	bundle, inactive   uuid.UUID
	tee, socks, extras uuid.UUID
	a1, a2, b1, c1     uuid.UUID
	gold               uuid.UUID
}

func amount(a money.Amount) *money.Amount { return &a }

func newFixture(t *testing.T) *fixture {
	db, _ := testkit.MustDB(t)
	f := &fixture{db: db}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	mk := func(price money.Amount, status string) uuid.UUID {
		p := models.Product{ID: uuid.New(), Title: "P", Slug: uuid.NewString(), Price: price, Status: status}
		must(db.Create(&p).Error)
		return p.ID
	}
	variant := func(product uuid.UUID, price *money.Amount) uuid.UUID {
		v := models.Variant{ID: uuid.New(), ProductID: product, SKU: uuid.NewString()[:12], Price: price, Inventory: 50}
		must(db.Create(&v).Error)
		return v.ID
	}
	pa, pb, pc := mk(9999, models.ProductActive), mk(25001, models.ProductActive), mk(5000, models.ProductDraft)
	f.a1, f.a2, f.b1, f.c1 = variant(pa, nil), variant(pa, amount(12004)), variant(pb, nil), variant(pc, nil)
	g := models.CustomerGroup{ID: uuid.New(), Name: "gold"}
	must(db.Create(&g).Error)
	f.gold = g.ID
	must(db.Create(&models.ProductGroupPrice{ProductID: pb, CustomerGroupID: g.ID, Price: 20000}).Error)

	svc := bundle.New(db, nil, nil)
	ctx := context.Background()
	b, err := svc.Create(ctx, bundle.Input{Title: "Starter kit", DiscountPercent: 1250})
	must(err)
	f.bundle = b.ID
	one, two, zero := 1, 2, 0
	tee, err := svc.CreateSet(ctx, b.ID, bundle.SetInput{Title: "Tee", MinQuantity: &one, MaxQuantity: &two})
	must(err)
	socks, err := svc.CreateSet(ctx, b.ID, bundle.SetInput{Title: "Socks", MinQuantity: &zero, MaxQuantity: &one, SortOrder: 1})
	must(err)
	extras, err := svc.CreateSet(ctx, b.ID, bundle.SetInput{Title: "Extras", MinQuantity: &zero, MaxQuantity: &one, SortOrder: 2})
	must(err)
	f.tee, f.socks, f.extras = tee.ID, socks.ID, extras.ID
	for _, it := range []struct {
		set, variant uuid.UUID
		qty          int
		def          bool
	}{{tee.ID, f.a1, 1, true}, {tee.ID, f.a2, 1, false}, {socks.ID, f.b1, 2, true}, {extras.ID, f.c1, 1, false}} {
		q := it.qty
		_, err := svc.CreateItem(ctx, b.ID, it.set, bundle.ItemInput{VariantID: it.variant, Quantity: &q, IsDefault: it.def})
		must(err)
	}
	off := false
	ib, err := svc.Create(ctx, bundle.Input{Title: "Old kit", IsActive: &off})
	must(err)
	f.inactive = ib.ID
	return f
}

func TestPriceSelection(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	b, err := bundle.Load(ctx, f.db, f.bundle)
	if err != nil {
		t.Fatal(err)
	}
	def := bundle.DefaultSelection(b)
	if len(def) != 2 || def[0] != (bundle.Line{VariantID: f.a1, Quantity: 1}) || def[1] != (bundle.Line{VariantID: f.b1, Quantity: 2}) {
		t.Fatalf("default selection %+v", def)
	}
	l := func(v uuid.UUID, q int) bundle.Line { return bundle.Line{VariantID: v, Quantity: q} }

	tests := []struct {
		name   string
		group  *uuid.UUID
		bundle uuid.UUID
		sel    []bundle.Line
		total  money.Amount
		lines  []money.Amount // each line's total
		code   apperr.Code
		field  string
	}{
		// 99.99 + 2 × 250.01 = 600.01; 12.5 % = 75.00125 → 75.00; split 12.50 / 62.50 by largest remainder
		{name: "default selection", sel: def, total: 52501, lines: []money.Amount{8749, 43752}},
		// group override prices the socks at 200.00: 99.99 + 400.00 = 499.99; 12.5 % = 62.49875 → 62.50
		{name: "group price", group: &f.gold, sel: def, total: 43749, lines: []money.Amount{8749, 35000}},
		// 120.04 × 12.5 % = 15.005 → 15.01 (half up)
		{name: "rounds half up", sel: []bundle.Line{l(f.a2, 1)}, total: 10503, lines: []money.Amount{10503}},
		{name: "two picks of one item", sel: []bundle.Line{l(f.a1, 2)}, total: 17498, lines: []money.Amount{17498}},
		{name: "empty", sel: nil, code: apperr.Validation, field: "items"},
		{name: "variant not in bundle", sel: []bundle.Line{l(uuid.New(), 1)}, code: apperr.Validation, field: "items[0].variantId"},
		{name: "variant twice", sel: []bundle.Line{l(f.a1, 1), l(f.a1, 1)}, code: apperr.Validation, field: "items[1].variantId"},
		{name: "units not a multiple of the pack", sel: []bundle.Line{l(f.a1, 1), l(f.b1, 1)}, code: apperr.Validation, field: "items[1].quantity"},
		{name: "zero units", sel: []bundle.Line{l(f.a1, 0)}, code: apperr.Validation, field: "items[0].quantity"},
		{name: "set below its minimum", sel: []bundle.Line{l(f.b1, 2)}, code: apperr.Validation, field: "items"},
		{name: "set above its maximum", sel: []bundle.Line{l(f.a1, 3)}, code: apperr.Validation, field: "items"},
		{name: "mix and match not allowed", sel: []bundle.Line{l(f.a1, 1), l(f.a2, 1)}, code: apperr.Validation, field: "items"},
		{name: "product not active", sel: []bundle.Line{l(f.a1, 1), l(f.c1, 1)}, code: apperr.Conflict},
		{name: "inactive bundle", bundle: f.inactive, sel: def, code: apperr.NotFound},
		{name: "unknown bundle", bundle: uuid.New(), sel: def, code: apperr.NotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			id := tt.bundle
			if id == uuid.Nil {
				id = f.bundle
			}
			items, total, err := bundle.PriceSelection(ctx, f.db, tt.group, id, tt.sel)
			if tt.code != "" {
				e, ok := apperr.As(err)
				if !ok || e.Code != tt.code {
					t.Fatalf("err %v, want %s", err, tt.code)
				}
				if tt.field != "" && e.Details["field"] != tt.field {
					t.Fatalf("field %v, want %s", e.Details["field"], tt.field)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if total != tt.total {
				t.Fatalf("total %d, want %d", total, tt.total)
			}
			var sum money.Amount
			for i, it := range items {
				if it.Total != tt.lines[i] || it.Total != it.Subtotal-it.Discount || it.Subtotal != it.UnitPrice*money.Amount(it.Quantity) {
					t.Fatalf("line %d: %+v, want total %d", i, it, tt.lines[i])
				}
				if it.ProductID == uuid.Nil || it.SetID == uuid.Nil || it.ItemID == uuid.Nil {
					t.Fatalf("line %d misses ids: %+v", i, it)
				}
				sum += it.Total
			}
			if sum != total {
				t.Fatalf("lines sum to %d, total %d", sum, total)
			}
		})
	}

	t.Run("mix and match allowed", func(t *testing.T) {
		yes := true
		if _, err := bundle.New(f.db, nil, nil).Update(ctx, f.bundle, bundle.Patch{AllowMixAndMatch: setBool(yes)}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := bundle.PriceSelection(ctx, f.db, nil, f.bundle, []bundle.Line{l(f.a1, 1), l(f.a2, 1)}); err != nil {
			t.Fatal(err)
		}
	})
}
