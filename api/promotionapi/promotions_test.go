package promotionapi_test

import (
	"testing"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
)

// line is a cart line of a table case: a product of price bought qty
// times, with the discount its line must carry.
type line struct {
	price    money.Amount
	qty      int
	hsn      string
	discount money.Amount
}

// Every promotion type through the storefront: the cart shows
// which discounts applied and each line's share; the order agrees to the
// paisa; its invoice bills each line's discount; a full return refunds
// and credits exactly the order. Each case's discounts are automatic and
// created in the order listed (ties go to the earliest), then switched off.
func TestPromotionsFromCartToCreditNote(t *testing.T) {
	s := mustStore(t)
	pct := func(v int) map[string]any { return map[string]any{"percentOff": v} }
	amt := func(v float64) map[string]any { return map[string]any{"amountOff": v} }
	tier := func(min float64, off map[string]any) map[string]any {
		off["minSubtotal"] = min
		return off
	}
	all := map[string]any{"product": true, "order": true, "shipping": true}

	type promo = func(ps []*models.Product) map[string]any
	// side names products of the case by their index.
	side := func(qty int, idx ...int) func(ps []*models.Product) map[string]any {
		return func(ps []*models.Product) map[string]any {
			var ids []string
			for _, i := range idx {
				ids = append(ids, ps[i].ID.String())
			}
			return map[string]any{"quantity": qty, "productIds": ids}
		}
	}
	bxgy := func(buy, get func([]*models.Product) map[string]any, percent int, max any, combines map[string]any) promo {
		return func(ps []*models.Product) map[string]any {
			g := get(ps)
			g["percentOff"] = percent
			b := map[string]any{"type": "buy_x_get_y", "description": "Buy X get Y", "buy": buy(ps), "get": g}
			if max != nil {
				b["maxApplications"] = max
			}
			if combines != nil {
				b["combinesWith"] = combines
			}
			return b
		}
	}
	tiered := func(combines map[string]any, tiers ...map[string]any) promo {
		return func([]*models.Product) map[string]any {
			b := map[string]any{"type": "tiered", "description": "Spend more, save more", "tiers": tiers}
			if combines != nil {
				b["combinesWith"] = combines
			}
			return b
		}
	}
	fixed := func(off float64, combines map[string]any) promo {
		return func([]*models.Product) map[string]any {
			b := map[string]any{"type": "FIXED_AMOUNT", "value": off, "description": "Flat off"}
			if combines != nil {
				b["combinesWith"] = combines
			}
			return b
		}
	}
	free := func(min float64, zones func(*store) []string, combines map[string]any) promo {
		return func([]*models.Product) map[string]any {
			b := map[string]any{"type": "free_shipping", "description": "Free shipping", "minSubtotal": min}
			if zones != nil {
				b["zoneIds"] = zones(s)
			}
			if combines != nil {
				b["combinesWith"] = combines
			}
			return b
		}
	}
	// inCollection names products of the case by a collection of them.
	inCollection := func(qty int) func(ps []*models.Product) map[string]any {
		return func(ps []*models.Product) map[string]any {
			return map[string]any{"quantity": qty, "collectionIds": []string{s.collection(t, ps...)}}
		}
	}
	tests := []struct {
		name   string
		lines  []line
		promos []promo
		// applied lists the indexes in promos of the discounts the cart
		// shows, in its order.
		applied  []int
		shipping money.Amount // what the order charges for shipping
	}{
		{name: "buy 2 get 1 on mixed prices: the cheapest free",
			lines:  []line{{price: 100000, qty: 1, hsn: "6109"}, {price: 70000, qty: 1, hsn: "6109"}, {price: 50000, qty: 1, hsn: "8518", discount: 50000}},
			promos: []promo{bxgy(inCollection(2), inCollection(1), 100, nil, nil)}, applied: []int{0}, shipping: 9900},
		{name: "two applications need four buy units: three buy one",
			lines:  []line{{price: 60000, qty: 3, hsn: "6109"}, {price: 40000, qty: 2, hsn: "8518", discount: 40000}},
			promos: []promo{bxgy(side(2, 0), side(1, 1), 100, nil, nil)}, applied: []int{0}, shipping: 9900},
		{name: "two applications need four buy units: four buy two",
			lines:  []line{{price: 60000, qty: 4, hsn: "6109"}, {price: 40000, qty: 2, hsn: "8518", discount: 80000}},
			promos: []promo{bxgy(side(2, 0), side(1, 1), 100, nil, nil)}, applied: []int{0}, shipping: 9900},
		{name: "maxApplications caps the free units",
			lines:  []line{{price: 60000, qty: 4, hsn: "6109"}, {price: 40000, qty: 2, hsn: "8518", discount: 40000}},
			promos: []promo{bxgy(side(2, 0), side(1, 1), 100, 1, nil)}, applied: []int{0}, shipping: 9900},
		{name: "a get unit is never a buy unit: one unit buys nothing",
			lines:  []line{{price: 60000, qty: 1, hsn: "6109"}},
			promos: []promo{bxgy(side(1, 0), side(1, 0), 100, nil, nil)}, applied: []int{}, shipping: 9900},
		{name: "a get unit is never a buy unit: three units, one half off",
			lines:  []line{{price: 60001, qty: 3, hsn: "6109", discount: 30001}},
			promos: []promo{bxgy(side(1, 0), side(1, 0), 50, nil, nil)}, applied: []int{0}, shipping: 9900},
		{name: "tier at its threshold",
			lines:  []line{{price: 149900, qty: 1, hsn: "6109", discount: 20000}},
			promos: []promo{tiered(nil, tier(1499, amt(200)), tier(2999, amt(500)))}, applied: []int{0}, shipping: 9900},
		{name: "a paisa below the first tier",
			lines:  []line{{price: 149899, qty: 1, hsn: "6109"}},
			promos: []promo{tiered(nil, tier(1499, amt(200)), tier(2999, amt(500)))}, applied: []int{}, shipping: 9900},
		// 2999 less 500: 2499 a piece, under the apparel line: 5 %.
		{name: "second tier at its threshold moves the rate",
			lines:  []line{{price: 299900, qty: 1, hsn: "6109", discount: 50000}},
			promos: []promo{tiered(nil, tier(1499, amt(200)), tier(2999, amt(500)))}, applied: []int{0}, shipping: 9900},
		{name: "a paisa below the second tier takes the first",
			lines:  []line{{price: 299899, qty: 1, hsn: "6109", discount: 20000}},
			promos: []promo{tiered(nil, tier(1499, amt(200)), tier(2999, amt(500)))}, applied: []int{0}, shipping: 9900},
		// 10 % of 3000.01 is 300.00 (300.001): spread 2:1 by largest remainder.
		{name: "a percent tier spread over lines",
			lines:  []line{{price: 200001, qty: 1, hsn: "6109", discount: 20000}, {price: 100000, qty: 1, hsn: "8518", discount: 10000}},
			promos: []promo{tiered(nil, tier(1000, pct(10)))}, applied: []int{0}, shipping: 9900},
		{name: "free shipping at its minimum never discounts goods",
			lines:  []line{{price: 99900, qty: 1, hsn: "6109"}},
			promos: []promo{free(999, nil, nil)}, applied: []int{0}, shipping: 0},
		{name: "free shipping a paisa below its minimum",
			lines:  []line{{price: 99899, qty: 1, hsn: "6109"}},
			promos: []promo{free(999, nil, nil)}, applied: []int{}, shipping: 9900},
		{name: "free shipping outside its zones",
			lines:  []line{{price: 99900, qty: 1, hsn: "6109"}},
			promos: []promo{free(0, func(s *store) []string { return []string{s.zoneRest} }, nil)}, applied: []int{0}, shipping: 9900},
		// The BXGY frees the 400; the tier then sees 1800 (< 2000) and
		// takes the first step's 100, spread 1200:600.
		{name: "product and order discounts combine when both allow it",
			lines: []line{{price: 60000, qty: 2, hsn: "6109", discount: 6667}, {price: 40000, qty: 1, hsn: "6109", discount: 40000},
				{price: 60000, qty: 1, hsn: "8518", discount: 3333}},
			promos:  []promo{bxgy(side(2, 0), side(1, 1), 100, nil, all), tiered(all, tier(1000, amt(100)), tier(2000, amt(300)))},
			applied: []int{0, 1}, shipping: 9900},
		// The tier does not allow product discounts: alone it takes 300
		// of 2200; the BXGY alone 400 wins.
		{name: "combination refused: the larger alone wins",
			lines: []line{{price: 60000, qty: 2, hsn: "6109"}, {price: 40000, qty: 1, hsn: "6109", discount: 40000},
				{price: 60000, qty: 1, hsn: "8518"}},
			promos: []promo{bxgy(side(2, 0), side(1, 1), 100, nil, all), tiered(map[string]any{"product": false, "order": true, "shipping": true},
				tier(1000, amt(100)), tier(2000, amt(300)))},
			applied: []int{0}, shipping: 9900},
		{name: "free shipping joins an order discount that allows it",
			lines:  []line{{price: 150000, qty: 1, hsn: "6109", discount: 20000}},
			promos: []promo{tiered(all, tier(1499, amt(200))), free(999, nil, all)}, applied: []int{0, 1}, shipping: 0},
		{name: "free shipping refused by an order discount",
			lines:  []line{{price: 150000, qty: 1, hsn: "6109", discount: 20000}},
			promos: []promo{tiered(nil, tier(1499, amt(200))), free(999, nil, all)}, applied: []int{0}, shipping: 9900},
		{name: "equal discounts: the earliest created",
			lines:  []line{{price: 50000, qty: 1, hsn: "6109", discount: 5000}},
			promos: []promo{fixed(50, nil), fixed(50, nil), tiered(nil, tier(100, amt(50)))}, applied: []int{0}, shipping: 9900},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			defer s.endCase(t)
			ps := make([]*models.Product, len(tc.lines))
			g := newGuest()
			for i, l := range tc.lines {
				ps[i] = s.product(t, l.price, l.hsn)
				s.add(t, g, ps[i], l.qty)
			}
			ids := make([]string, len(tc.promos))
			for i, p := range tc.promos {
				ids[i] = s.discount(t, p(ps))
			}
			c := s.cart(t, g)
			want := make([]string, len(tc.applied))
			for i, k := range tc.applied {
				want[i] = ids[k]
			}
			mustDiscounts(t, c.Discounts, want...)
			if again := s.cart(t, g); len(again.Discounts) != len(c.Discounts) || again.Total != c.Total {
				t.Fatalf("the same cart twice: %+v then %+v", c, again)
			}
			var sum money.Amount
			for i, it := range c.Items {
				if it.Discount != tc.lines[i].discount {
					t.Fatalf("line %d discount %v, want %v (cart %+v)", i, it.Discount, tc.lines[i].discount, c)
				}
				sum += it.Discount
			}
			var listed money.Amount
			for _, d := range c.Discounts {
				listed += d.Amount
			}
			if sum != c.DiscountTotal || listed != c.DiscountTotal || c.Total != c.Subtotal-c.DiscountTotal || c.Total < 0 {
				t.Fatalf("cart does not add up: %+v", c)
			}
			o := s.placeCOD(t, g, "Karnataka")
			if o.ShippingCost != tc.shipping {
				t.Fatalf("order shipping %v, want %v (%+v)", o.ShippingCost, tc.shipping, o)
			}
			mustAgree(t, c, o)
			mustAnnounce(t, s, o)
			for _, d := range o.Discounts {
				if d.Type == "free_shipping" && d.Amount != 9900 {
					t.Fatalf("free shipping recorded %v, want the 99 it waived: %+v", d.Amount, o.Discounts)
				}
			}
			s.fullCircle(t, o)
		})
	}
}
