package promotionapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Usage limits hold when several discounts of the new types apply to one
// order and checkouts race: a spend tier used at most twice and free
// shipping at most three times, combined, over eight concurrent cash on
// delivery checkouts. Each discount is used exactly up to its limit,
// usage_count equals the orders that carry it, and a checkout that lost
// the race is a 409 that consumed nothing: tried again, it is priced
// without what ran out.
func TestPromotionUsageLimitsUnderConcurrentCheckouts(t *testing.T) {
	s := mustStore(t)
	all := map[string]any{"product": true, "order": true, "shipping": true}
	tier := s.discount(t, map[string]any{"type": "tiered", "usageLimit": 2, "combinesWith": all,
		"tiers": []any{map[string]any{"minSubtotal": 500, "amountOff": 100}}})
	ship := s.discount(t, map[string]any{"type": "free_shipping", "usageLimit": 3, "combinesWith": all, "minSubtotal": 0})
	p := s.product(t, 100000, "8518")
	const n = 8
	guests := make([]guest, n)
	for i := range guests {
		guests[i] = newGuest()
		s.add(t, guests[i], p, 1)
	}
	var wg sync.WaitGroup
	status := make([]int, n)
	orders := make([]orderView, n)
	for i := range guests {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body, _ := json.Marshal(map[string]any{
				"email": "race-" + uuid.NewString()[:8] + "@example.com", "name": "Asha", "phone": "+91 98450 11111",
				"address": map[string]any{"type": "shipping", "street": "12 MG Road", "city": "Bengaluru", "state": "Karnataka",
					"pincode": "560001", "district": "Bengaluru Urban", "country": "India"},
				"shippingMethodId": s.methodKA, "paymentMethod": "cod"})
			req, _ := http.NewRequest(http.MethodPost, s.app.URL+"/orders", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("X-Session-Id", guests[i].headers["X-Session-Id"])
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Error(err)
				return
			}
			defer res.Body.Close()
			status[i] = res.StatusCode
			if res.StatusCode == http.StatusCreated {
				_ = json.NewDecoder(res.Body).Decode(&orders[i])
			}
		}()
	}
	wg.Wait()
	carried := map[string]int{}
	for i, st := range status {
		switch st {
		case http.StatusCreated:
			for _, d := range orders[i].Discounts {
				carried[d.ID]++
			}
			if orders[i].Total < 0 {
				t.Fatalf("order %+v", orders[i])
			}
		case http.StatusConflict:
			// The shopper tries again: the cart is priced anew, without
			// what ran out. (Not sending the options' price: the cart's
			// cache of automatic discounts may not know yet that free
			// shipping ran out a moment ago; checkout always does.)
			orders[i] = s.place(t, guests[i], "Karnataka", false)
			for _, d := range orders[i].Discounts {
				carried[d.ID]++
			}
		default:
			t.Fatalf("checkout %d answered %d", i, st)
		}
	}
	for id, limit := range map[string]int{tier: 2, ship: 3} {
		var d models.Discount
		if err := s.app.DB.Take(&d, "id = ?", id).Error; err != nil {
			t.Fatal(err)
		}
		var uses int64
		s.app.DB.Model(&models.DiscountUsage{}).Where("discount_id = ?", id).Count(&uses)
		if d.UsageCount != limit || carried[id] != limit || uses != int64(limit) {
			t.Fatalf("%s: usageCount %d, %d orders carry it, %d usage rows; limit %d (statuses %v)", d.Type, d.UsageCount, carried[id], uses, limit, status)
		}
	}
	var tiered money.Amount
	for _, o := range orders {
		for _, d := range o.Discounts {
			if d.ID == tier {
				tiered += d.Amount
			}
		}
	}
	if tiered != 2*10000 {
		t.Fatalf("the tier took %v in all, want 2 × 100", tiered)
	}
}

// A promotion without a usage limit has nothing to hold, so checkout does
// not lock it: while another transaction holds its row as an update does
// (an administrator's edit, a capture counting a use, and before this
// change every other checkout taking it), a prepaid checkout carrying it
// still opens, within the client's patience.
func TestPromotionWithoutLimitIsNotLockedByCheckout(t *testing.T) {
	s := mustStore(t)
	all := map[string]any{"product": true, "order": true, "shipping": true}
	tier := s.discount(t, map[string]any{"type": "tiered", "combinesWith": all,
		"tiers": []any{map[string]any{"minSubtotal": 500, "amountOff": 100}}})
	p := s.product(t, 100000, "8518")
	g := newGuest()
	s.add(t, g, p, 1)
	if c := s.cart(t, g); len(c.Discounts) != 1 || c.Discounts[0].ID != tier {
		t.Fatalf("the cart took %+v, want the tier", c.Discounts)
	}
	holder := s.app.DB.Begin()
	defer holder.Rollback()
	if err := holder.Exec(`SELECT id FROM discounts WHERE id = ? FOR NO KEY UPDATE`, tier).Error; err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{
		"email": "unheld@example.com", "name": "Asha", "phone": "+91 98450 11111",
		"address": map[string]any{"type": "shipping", "street": "12 MG Road", "city": "Bengaluru", "state": "Karnataka",
			"pincode": "560001", "district": "Bengaluru Urban", "country": "India"},
		"shippingMethodId": s.methodKA})
	req, _ := http.NewRequest(http.MethodPost, s.app.URL+"/orders", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Session-Id", g.headers["X-Session-Id"])
	client := &http.Client{Timeout: 10 * time.Second}
	res, err := client.Do(req)
	if err != nil {
		t.Fatalf("the checkout waited on the promotion's row: %v", err)
	}
	defer res.Body.Close()
	var opened struct {
		Object            string    `json:"object"`
		CheckoutSessionID uuid.UUID `json:"checkoutSessionId"`
	}
	if err := json.NewDecoder(res.Body).Decode(&opened); err != nil || res.StatusCode != http.StatusCreated || opened.Object != "checkout_session" {
		t.Fatalf("checkout answered %d %+v (%v)", res.StatusCode, opened, err)
	}
	var sess models.CheckoutSession
	if err := s.app.DB.Take(&sess, "id = ?", opened.CheckoutSessionID).Error; err != nil {
		t.Fatal(err)
	}
	if sess.DiscountTotal != 10000 || len(sess.AppliedDiscounts) != 1 || sess.AppliedDiscounts[0].ID.String() != tier {
		t.Fatalf("the session took %v off with %+v, want the tier's 100", sess.DiscountTotal, sess.AppliedDiscounts)
	}
}
