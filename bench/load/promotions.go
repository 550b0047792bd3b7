package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"time"
)

// promotionsName and promotionsCartName are the scenarios run with 50
// automatic promotions active (docs/DECISIONS.md "Promotions"), against
// "POST /orders (guest checkout)" and "POST /cart/items" with none.
const (
	promotionsCheckoutName = "POST /orders (guest checkout, 50 promotions)"
	promotionsCartName     = "POST /cart/items (50 promotions)"
)

// withPromotions is a scenario setup: it makes 50 automatic promotions
// active, as a realistic store runs them (20 buy X get Y over a handful of
// products each, 20 spend tiers, 10 free shipping, half of them combining),
// and returns the undo that switches them off. It waits out the cart's
// automatic-discount cache (cart.AutomaticTTL) so the run sees them.
func (b *bench) withPromotions() (func(), error) {
	rng := rand.New(rand.NewPCG(50, 27))
	pick := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = b.data.ProductIDs[rng.IntN(len(b.data.ProductIDs))]
		}
		return out
	}
	for i := range 50 {
		var typ string
		var rules any
		combines := map[string]bool{"product": i%2 == 0, "order": i%2 == 0, "shipping": true}
		switch {
		case i < 20:
			typ = "buy_x_get_y"
			rules = map[string]any{"buy": map[string]any{"quantity": 2, "productIds": pick(8)},
				"get": map[string]any{"quantity": 1, "productIds": pick(8), "percentOff": 100}, "maxApplications": 2}
		case i < 40:
			typ = "tiered"
			rules = map[string]any{"tiers": []any{map[string]any{"minSubtotal": 149900 + int64(i)*1000, "amountOff": 20000},
				map[string]any{"minSubtotal": 299900 + int64(i)*1000, "percentOff": 1000}}}
		default:
			typ = "free_shipping"
			rules = map[string]any{"minSubtotal": 99900 + int64(i)*1000}
		}
		r, _ := json.Marshal(rules)
		c, _ := json.Marshal(combines)
		if err := b.db.Exec(`INSERT INTO discounts (description, type, value, application_type, scope, rules, combines_with)
			VALUES (?, ?, 0, 'AUTOMATIC', 'ORDER', ?::jsonb, ?::jsonb)`, fmt.Sprintf("bench promotion %02d", i), typ, string(r), string(c)).Error; err != nil {
			return nil, fmt.Errorf("promotions: %w", err)
		}
	}
	time.Sleep(2100 * time.Millisecond)
	return func() {
		b.db.Exec(`UPDATE discounts SET is_active = false WHERE description LIKE 'bench promotion %'`)
		time.Sleep(2100 * time.Millisecond)
	}, nil
}
