package gatewayapi_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// checkoutAnswer is the part of POST /orders the gateway needs.
type checkoutAnswer struct {
	CheckoutSessionID string `json:"checkoutSessionId"`
	PaymentIntent     struct {
		PaymentIntentID string       `json:"paymentIntentId"`
		Amount          money.Amount `json:"amount"`
		Currency        string       `json:"currency"`
	} `json:"paymentIntent"`
}

// The whole path: a customer checks out through the storefront, the gateway
// posts a signed payment.captured, the worker makes the order, the customer
// sees it in GET /orders with the right totals, the stock is committed, the
// cart is empty, and a subscriber gets order.created with a signature that
// verifies per Standard Webhooks.
func TestCheckoutToOrderEndToEnd(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) { c.WebhookAllowPrivateTargets = true }))
	var mu sync.Mutex
	var hooks []*http.Request
	var bodies [][]byte
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		hooks, bodies = append(hooks, r), append(bodies, b)
		mu.Unlock()
	}))
	defer rcv.Close()
	_, adminToken := testkit.MustAdmin(t, app, "admin")
	sub := app.Do(t, "POST", "/api/v1/admin/webhooks", testkit.Req{Token: adminToken, Body: map[string]any{
		"url": rcv.URL, "events": []string{"order.created"}}}).Expect(t, 201).Map(t)
	secret := sub["secret"].(string)

	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Title: "Crew Tee", Price: 49900, GSTRate: 1800,
		Variants: []testkit.StoreVariant{{Inventory: 10}}})
	variant := p.Variants[0]
	cu, token := testkit.MustCustomer(t, app)
	addr := testkit.MustAddress(t, app, cu.ID)
	shopper := testkit.Req{Token: token}
	shopper.Body = map[string]any{"variantId": variant.ID, "quantity": 2}
	app.Do(t, "POST", "/cart/items", shopper).Expect(t, 201)
	shopper.Body = map[string]any{"shippingAddressId": addr, "billingAddressId": addr, "shippingCost": 50}
	var co checkoutAnswer
	app.Do(t, "POST", "/orders", shopper).Expect(t, 201).JSON(t, &co)
	if co.PaymentIntent.Amount != 104800 || co.PaymentIntent.Currency != "INR" {
		t.Fatalf("checkout %+v", co)
	}

	body := gateway.BuildEvent(gateway.Simulated{Name: gateway.PaymentCaptured, EventID: gateway.NewEventID(),
		OrderID: co.PaymentIntent.PaymentIntentID, Amount: int64(co.PaymentIntent.Amount), Currency: co.PaymentIntent.Currency})
	expectAnswer(t, post(t, app, body), 200, true, gateway.MsgAccepted)

	var orders struct {
		Data []struct {
			ID            string       `json:"id"`
			OrderNumber   string       `json:"orderNumber"`
			Status        string       `json:"status"`
			PaymentStatus string       `json:"paymentStatus"`
			Subtotal      money.Amount `json:"subtotal"`
			TaxTotal      money.Amount `json:"taxTotal"`
			ShippingCost  money.Amount `json:"shippingCost"`
			Total         money.Amount `json:"total"`
			Currency      string       `json:"currency"`
			Items         []struct {
				VariantID string `json:"variantId"`
				Quantity  int    `json:"quantity"`
			} `json:"items"`
		} `json:"data"`
	}
	testkit.Eventually(t, 15*time.Second, "the order in GET /orders", func() bool {
		app.Do(t, "GET", "/orders", testkit.Req{Token: token}).Expect(t, 200).JSON(t, &orders)
		return len(orders.Data) == 1
	})
	o := orders.Data[0]
	if !strings.HasPrefix(o.OrderNumber, "ORD-") || o.Status != "confirmed" || o.PaymentStatus != "paid" ||
		o.Subtotal != 99800 || o.ShippingCost != 5000 || o.Total != 104800 || o.Currency != "INR" ||
		o.TaxTotal != money.IncludedTax(99800, 1800) || len(o.Items) != 1 || o.Items[0].Quantity != 2 || o.Items[0].VariantID != variant.ID.String() {
		t.Fatalf("order %+v", o)
	}
	var v models.Variant
	app.DB.Take(&v, "id = ?", variant.ID)
	if v.Inventory != 10 || v.Reserved != 0 || v.Committed != 2 {
		t.Fatalf("stock: inventory %d reserved %d committed %d", v.Inventory, v.Reserved, v.Committed)
	}
	cart := app.Do(t, "GET", "/cart", testkit.Req{Token: token}).Expect(t, 200).Map(t)
	if items, _ := cart["items"].([]any); len(items) != 0 {
		t.Fatalf("cart after the order: %v", cart)
	}

	testkit.Eventually(t, 15*time.Second, "order.created at the subscriber", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return len(hooks) == 1
	})
	mu.Lock()
	h, b := hooks[0], bodies[0]
	mu.Unlock()
	standardWebhooksVerify(t, secret, h.Header, b)
	var env struct {
		Type string `json:"type"`
		Data struct {
			OrderID     string       `json:"orderId"`
			OrderNumber string       `json:"orderNumber"`
			Total       money.Amount `json:"total"`
		} `json:"data"`
	}
	if err := json.Unmarshal(b, &env); err != nil || env.Type != "order.created" || env.Data.OrderID != o.ID ||
		env.Data.OrderNumber != o.OrderNumber || env.Data.Total != 104800 {
		t.Fatalf("delivery body %s (%v)", b, err)
	}
}

// payment.failed after a guest checkout: the stock returns, the session is
// FAILED, and the guest can edit the cart again.
func TestFailedPaymentMakesTheCartEditable(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 5}}})
	g := testkit.Req{Headers: map[string]string{"X-Session-Id": "guest-" + uuid.NewString()}}
	g.Body = map[string]any{"variantId": p.Variants[0].ID, "quantity": 2}
	app.Do(t, "POST", "/cart/items", g).Expect(t, 201)
	g.Body = map[string]any{"email": "guest-" + uuid.NewString()[:8] + "@example.com", "name": "Guest", "phone": "+91 98765 43210",
		"address": map[string]any{"type": "shipping", "street": "1 Marine Drive", "city": "Mumbai", "state": "Maharashtra",
			"pincode": "400001", "district": "Mumbai", "country": "India"}, "shippingCost": 0}
	var co checkoutAnswer
	app.Do(t, "POST", "/orders", g).Expect(t, 201).JSON(t, &co)
	g.Body = map[string]any{"variantId": p.Variants[0].ID, "quantity": 1}
	app.Do(t, "POST", "/cart/items", g).ExpectError(t, 409, "CONFLICT") // locked while paying

	body := gateway.BuildEvent(gateway.Simulated{Name: gateway.PaymentFailed, EventID: gateway.NewEventID(),
		OrderID: co.PaymentIntent.PaymentIntentID, Amount: int64(co.PaymentIntent.Amount), Currency: "INR"})
	expectAnswer(t, post(t, app, body), 200, true, gateway.MsgAccepted)
	testkit.Eventually(t, 15*time.Second, "the session to fail", func() bool {
		var s models.CheckoutSession
		app.DB.Take(&s, "id = ?", co.CheckoutSessionID)
		return s.State == models.CheckoutFailed
	})
	var v models.Variant
	app.DB.Take(&v, "id = ?", p.Variants[0].ID)
	if v.Reserved != 0 {
		t.Fatalf("reserved %d", v.Reserved)
	}
	app.Do(t, "POST", "/cart/items", g).Expect(t, 201)
}

// standardWebhooksVerify checks a delivery as a Standard Webhooks receiver
// would, independently of the sender's code.
func standardWebhooksVerify(t *testing.T, secret string, h http.Header, body []byte) {
	t.Helper()
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		t.Fatal(err)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(h.Get("webhook-id") + "." + h.Get("webhook-timestamp") + "." + string(body)))
	want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	if h.Get("webhook-id") == "" || !strings.Contains(" "+h.Get("webhook-signature")+" ", " "+want+" ") {
		t.Fatalf("signature does not verify: id %q ts %q sig %q", h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature"))
	}
}
