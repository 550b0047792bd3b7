package messageapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// A phone order's buyer may have no email: the draft takes a phone alone,
// the guest record is keyed by the phone normalised (+91XXXXXXXXXX, one
// record however the phone is written), its email is "" in every answer,
// no email is sent (and none fails), and the order's SMS goes by phone.
func TestDraftByPhoneWithoutEmail(t *testing.T) {
	// A real SMTP server: its sender refuses a message without a recipient.
	smtp := testkit.StartSMTP(t)
	s := newShop(t, true, func(c *config.Config) { c.SMTPURL = smtp.URL() })
	s.paymentSettings(t, nil)
	s.messageSettings(t, map[string]any{messaging.EventOrderConfirmed: demoEvent(messaging.EventOrderConfirmed, "sms")})
	p := testkit.MustStoreProduct(t, s.DB, testkit.StoreProduct{Price: 100000, Variants: []testkit.StoreVariant{{Inventory: 20}}})
	national := uniquePhone()
	draft := func(phone string) map[string]any {
		t.Helper()
		return s.Do(t, http.MethodPost, "/api/v1/admin/draft-orders", testkit.Req{Token: s.super, Body: map[string]any{
			"name": "Phone Buyer", "phone": phone, "items": []any{map[string]any{"variantId": p.Variants[0].ID, "quantity": 1}},
			"shippingAddress": map[string]any{"type": "shipping", "street": "12 MG Road", "city": "Bengaluru", "state": "Karnataka",
				"pincode": "560001", "district": "Bengaluru Urban", "country": "India"}, "shippingCost": 0}}).
			Expect(t, http.StatusCreated).Map(t)
	}
	first := draft(national[:5] + " " + national[5:])
	second := draft("+91 " + national)
	third := draft("0" + national)
	if first["email"] != "" || first["customerId"] != second["customerId"] || third["customerId"] != first["customerId"] {
		t.Fatalf("drafts: %v / %v, want one customer with no email", first, second)
	}
	var c models.Customer
	if err := s.DB.Take(&c, "id = ?", first["customerId"]).Error; err != nil {
		t.Fatal(err)
	}
	if c.Email != "" || c.Phone != "+91"+national || !c.IsGuest {
		t.Fatalf("guest record %+v, want keyed by +91%s without email", c, national)
	}

	var o order
	s.Do(t, http.MethodPost, "/api/v1/admin/draft-orders/"+first["id"].(string)+"/complete", testkit.Req{Token: s.super,
		Body: map[string]any{"payment": "cod"}}).Expect(t, http.StatusOK)
	if err := s.DB.Raw(`SELECT id, order_number FROM orders WHERE customer_id = ?`, c.ID).Scan(&o).Error; err != nil || o.ID == uuid.Nil {
		t.Fatalf("the draft's order: %v", err)
	}
	// The SMS goes by phone.
	s.waitStatuses(t, o.ID, 1, messaging.StatusDelivered)
	if recs := s.waitSim(t, national, 1); recs[0].Channel != "sms" {
		t.Fatalf("messages %+v", recs)
	}
	// A payment link for the other draft: its email is dropped quietly.
	s.Do(t, http.MethodPost, "/api/v1/admin/draft-orders/"+second["id"].(string)+"/complete", testkit.Req{Token: s.super,
		Body: map[string]any{"payment": "link"}}).Expect(t, http.StatusOK)
	testkit.Eventually(t, 20*time.Second, "the customer's emails marked done", func() bool {
		return count(t, s, `SELECT count(*) FROM customer_emails WHERE customer_id = ? AND sent_at IS NULL`, c.ID) == 0 &&
			count(t, s, `SELECT count(*) FROM customer_emails WHERE customer_id = ?`, c.ID) > 0
	})
	// No task failed for it.
	time.Sleep(500 * time.Millisecond)
	queues, err := s.Inspector.Queues()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range queues {
		info, err := s.Inspector.GetQueueInfo(q)
		if err != nil {
			t.Fatal(err)
		}
		if info.Retry > 0 || info.Archived > 0 {
			tasks, _ := s.Inspector.ListRetryTasks(q)
			for _, tk := range tasks {
				t.Errorf("queue %s: task %s failed: %s", q, tk.Type, tk.LastErr)
			}
			t.Fatalf("queue %s: %d to retry, %d archived", q, info.Retry, info.Archived)
		}
	}

	// The back office reads the customer and the order with an empty email.
	var list struct {
		Data []struct {
			ID    string `json:"id"`
			Email string `json:"email"`
		} `json:"data"`
	}
	s.Do(t, http.MethodGet, "/api/v1/admin/customers?search="+national, testkit.Req{Token: s.super}).Expect(t, http.StatusOK).JSON(t, &list)
	if len(list.Data) != 1 || list.Data[0].ID != c.ID.String() || list.Data[0].Email != "" {
		t.Fatalf("customer search: %+v", list.Data)
	}
	s.Do(t, http.MethodGet, "/api/v1/admin/customers/"+c.ID.String(), testkit.Req{Token: s.super}).Expect(t, http.StatusOK)
	view := s.Do(t, http.MethodGet, "/api/v1/admin/orders/"+o.ID.String(), testkit.Req{Token: s.super}).Expect(t, http.StatusOK).Map(t)
	if view["email"] != "" {
		t.Fatalf("order email %v, want empty", view["email"])
	}
	s.Do(t, http.MethodGet, "/api/v1/admin/orders?search="+national, testkit.Req{Token: s.super}).Expect(t, http.StatusOK)
}
