package paymentapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// withGateway points the app at a counting gateway stub.
func withGateway(url string) testkit.Option {
	return testkit.WithConfig(func(c *config.Config) {
		c.PaymentProvider, c.RazorpayBaseURL, c.RazorpayKeyID, c.RazorpayKeySecret = "razorpay", url, "rzp_test", "secret"
	})
}

func guest() testkit.Req {
	return testkit.Req{Headers: map[string]string{"X-Session-Id": "guest-" + uuid.NewString()}}
}

func with(r testkit.Req, body any) testkit.Req {
	r.Body = body
	return r
}

func keyed(r testkit.Req, key string, body any) testkit.Req {
	h := map[string]string{"Idempotency-Key": key}
	for k, v := range r.Headers {
		h[k] = v
	}
	r.Headers, r.Body = h, body
	return r
}

func addItem(t *testing.T, app *testkit.App, r testkit.Req, variantID uuid.UUID, qty int) {
	t.Helper()
	app.Do(t, http.MethodPost, "/cart/items", with(r, map[string]any{"variantId": variantID, "quantity": qty})).Expect(t, http.StatusCreated)
}

func address(state string) map[string]any {
	return map[string]any{"type": "shipping", "street": "12 MG Road", "city": "Bengaluru", "state": state,
		"pincode": "560001", "district": "Bengaluru Urban", "country": "India"}
}

// codCheckout is a guest COD checkout body shipping to state.
func codCheckout(email, phone, state string) map[string]any {
	return map[string]any{"email": email, "name": "Guest Shopper", "phone": phone, "address": address(state),
		"shippingCost": 0, "paymentMethod": "cod"}
}

func uniqueEmail(prefix string) string {
	return fmt.Sprintf("%s-%s@example.com", prefix, uuid.NewString()[:8])
}

func uniquePhone() string {
	return fmt.Sprintf("+91 9%09d", uuid.New().ID()%1000000000)
}

// codSettings enables COD with fee (paise), limit (paise, 0: none), cap and
// zones, as a super admin, and returns that admin's token.
func codSettings(t *testing.T, app *testkit.App, fee, limit money.Amount, maxOpen int, zones ...uuid.UUID) string {
	t.Helper()
	_, token := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	if zones == nil {
		zones = []uuid.UUID{}
	}
	app.Do(t, http.MethodPut, "/api/v1/admin/settings/payments", testkit.Req{Token: token, Body: map[string]any{
		"cod": map[string]any{"enabled": true, "fee": fee, "feeGstRate": 18, "maxOrderAmount": limit,
			"maxOpenPerCustomer": maxOpen, "zoneIds": zones}}}).Expect(t, http.StatusOK)
	return token
}

// storeOrder is a COD checkout's answer.
type storeOrder struct {
	ID            uuid.UUID    `json:"id"`
	OrderNumber   string       `json:"orderNumber"`
	Status        string       `json:"status"`
	PaymentStatus string       `json:"paymentStatus"`
	PaymentMethod string       `json:"paymentMethod"`
	CODFee        money.Amount `json:"codFee"`
	Total         money.Amount `json:"total"`
	TaxTotal      money.Amount `json:"taxTotal"`
}

// placeCOD puts qty units of variantID in a new guest's cart and checks out
// with COD; it returns the order.
func placeCOD(t *testing.T, app *testkit.App, variantID uuid.UUID, qty int) storeOrder {
	t.Helper()
	g := guest()
	addItem(t, app, g, variantID, qty)
	var o storeOrder
	app.Do(t, http.MethodPost, "/orders", with(g, codCheckout(uniqueEmail("cod"), uniquePhone(), "Karnataka"))).
		Expect(t, http.StatusCreated).JSON(t, &o)
	return o
}

func loadOrder(t *testing.T, app *testkit.App, id uuid.UUID) models.Order {
	t.Helper()
	var o models.Order
	if err := app.DB.Take(&o, "id = ?", id).Error; err != nil {
		t.Fatal(err)
	}
	return o
}

// counters reads a variant's stock counters.
func counters(t *testing.T, app *testkit.App, id uuid.UUID) (inventory, reserved, committed int) {
	t.Helper()
	var v models.Variant
	if err := app.DB.Take(&v, "id = ?", id).Error; err != nil {
		t.Fatal(err)
	}
	return v.Inventory, v.Reserved, v.Committed
}

func count(t *testing.T, app *testkit.App, sql string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := app.DB.Raw(sql, args...).Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// storeGSTIN is the Karnataka GSTIN the tests' store issues under.
var storeGSTIN = func() string {
	s := "29AABCS1429B1Z"
	return s + string(gstin.CheckChar(s))
}()

// mustTaxIdentity sets the store's tax identity (Karnataka).
func mustTaxIdentity(t *testing.T, app *testkit.App, token string) {
	t.Helper()
	app.Do(t, http.MethodPut, "/api/v1/admin/settings/tax", testkit.Req{Token: token, Body: map[string]any{
		"legalName": "Sahyadri Handlooms Private Limited", "tradeName": "Sahyadri", "gstin": storeGSTIN,
		"address": map[string]any{"line1": "14 Commercial Street", "line2": "", "city": "Bengaluru", "state": "Karnataka", "pincode": "560001"}}}).
		Expect(t, http.StatusOK)
}
