package promotionapi_test

import (
	"math/rand/v2"
	"testing"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
)

// Random carts under random sets of promotions, through the storefront:
// the cart never goes below zero, its lines' discounts sum to the
// discounts it lists (free shipping taking nothing from the goods), and
// the order placed from it agrees line by line, every line taxed on its
// discounted price. Few iterations: internal/cart's property test runs
// hundreds of the same rules in process.
func TestPromotionsPropertyThroughHTTP(t *testing.T) {
	s := mustStore(t)
	rng := rand.New(rand.NewPCG(27, 46))
	for iter := range 6 {
		g := newGuest()
		ps := make([]*models.Product, 2+rng.IntN(3))
		for i := range ps {
			hsn := "6109"
			if rng.IntN(3) == 0 {
				hsn = "8518"
			}
			ps[i] = s.product(t, money.Amount(100+rng.Int64N(400000)), hsn)
			s.add(t, g, ps[i], 1+rng.IntN(4))
		}
		combines := func() map[string]any {
			return map[string]any{"product": rng.IntN(2) == 0, "order": rng.IntN(2) == 0, "shipping": rng.IntN(2) == 0}
		}
		some := func() []string {
			var ids []string
			for _, p := range ps {
				if rng.IntN(2) == 0 || len(ids) == 0 {
					ids = append(ids, p.ID.String())
				}
			}
			return ids
		}
		for range 1 + rng.IntN(4) {
			var body map[string]any
			switch rng.IntN(4) {
			case 0:
				body = map[string]any{"type": "buy_x_get_y", "buy": map[string]any{"quantity": 1 + rng.IntN(2), "productIds": some()},
					"get": map[string]any{"quantity": 1, "productIds": some(), "percentOff": 1 + rng.IntN(100)}}
			case 1:
				body = map[string]any{"type": "tiered", "tiers": []any{
					map[string]any{"minSubtotal": rng.IntN(3000), "amountOff": 1 + rng.IntN(500)},
					map[string]any{"minSubtotal": 3000 + rng.IntN(3000), "percentOff": 1 + rng.IntN(30)}}}
			case 2:
				body = map[string]any{"type": "PERCENTAGE", "value": 1 + rng.IntN(50), "scope": "PRODUCT", "productIds": some()}
			default:
				body = map[string]any{"type": "free_shipping", "minSubtotal": rng.IntN(5000)}
			}
			body["combinesWith"] = combines()
			s.discount(t, body)
		}
		c := s.cart(t, g)
		var lines, listed money.Amount
		for _, it := range c.Items {
			lines += it.Discount
			if it.Discount < 0 || it.Discount > it.LineTotal {
				t.Fatalf("iteration %d: line %+v", iter, it)
			}
		}
		for _, d := range c.Discounts {
			listed += d.Amount
			if d.Type == "free_shipping" && d.Amount != 0 {
				t.Fatalf("iteration %d: free shipping takes %v in a cart", iter, d.Amount)
			}
		}
		if lines != listed || lines != c.DiscountTotal || c.Total < 0 || c.Total != c.Subtotal-c.DiscountTotal {
			t.Fatalf("iteration %d: cart does not add up: %+v", iter, c)
		}
		mustAgree(t, c, s.placeCOD(t, g, "Karnataka"))
		s.endCase(t)
	}
}
