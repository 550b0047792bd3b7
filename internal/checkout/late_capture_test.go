package checkout_test

import (
	"context"
	"testing"

	"github.com/gocommerce/shop/internal/cart"
	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// A capture that arrives after the payment failed and the shopper refilled
// the unlocked cart takes out of the cart only what the order bought: the
// new line and the units added to the bought line stay, and so does a
// discount code other than the one the order used.
func TestLateCaptureKeepsWhatTheShopperAddedSince(t *testing.T) {
	tests := []struct {
		name     string
		code     func(used string) string
		keepCode bool
	}{
		{"same code", func(used string) string { return used }, false},
		{"another code", func(string) string { return "OTHER" }, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t)
			ctx := context.Background()
			c := fixtures.MustCheckout(t, e.d.DB, fixtures.CheckoutOptions{Discount: 100})
			p := captured(c)
			failed := p
			failed.Status = "failed"
			if err := e.svc.Fail(ctx, failed); err != nil {
				t.Fatal(err)
			}
			var used string
			e.d.DB.Raw(`SELECT discount_code FROM checkout_sessions WHERE id = ?`, c.SessionID).Scan(&used)

			// The cart is unlocked: the shopper adds a new product and one
			// more unit of the one the failed payment was for.
			crt, _ := e.cart(t, c.CartID)
			owner := cart.Owner{SessionID: *crt.SessionID}
			carts := cart.New(e.d.DB, "INR", checkout.EnsureEditable)
			other := testkit.MustStoreProduct(t, e.d.DB, testkit.StoreProduct{}).Variants[0]
			if _, err := carts.AddItem(ctx, owner, other.ID, 3); err != nil {
				t.Fatal(err)
			}
			if _, err := carts.AddItem(ctx, owner, c.VariantID, 1); err != nil {
				t.Fatal(err)
			}
			e.d.DB.Exec(`UPDATE carts SET discount_code = ? WHERE id = ?`, tt.code(used), c.CartID)

			// The shopper's bank retried the old payment after all.
			res, err := e.svc.Capture(ctx, p)
			if err != nil || res.Outcome != checkout.Created {
				t.Fatalf("late capture: %+v %v", res, err)
			}
			var items []models.CartItem
			e.d.DB.Where("cart_id = ?", c.CartID).Find(&items)
			left := map[string]int{}
			for _, it := range items {
				left[it.VariantID.String()] = it.Quantity
			}
			if len(items) != 2 || left[other.ID.String()] != 3 || left[c.VariantID.String()] != 1 {
				t.Fatalf("cart after the late capture: %v (want the new line ×3 and the bought line's extra unit)", left)
			}
			after, _ := e.cart(t, c.CartID)
			if kept := after.DiscountCode != nil; kept != tt.keepCode || after.LockedBy != nil {
				t.Fatalf("discount code %v (keep %v), locked by %v", after.DiscountCode, tt.keepCode, after.LockedBy)
			}
		})
	}
}
