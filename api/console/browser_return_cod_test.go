package console_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// A return of a cash on delivery order is received in the console (the
// form offers where to restock) and refunded by hand: the money never went
// through the gateway, so the refund form asks for the reference of the
// money paid back, and the refund is recorded as manual with it.
func TestConsoleRefundsACashOnDeliveryReturnByHand(t *testing.T) {
	bin := needChromium(t)
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) { c.AdminGeneralRateLimit = 100000 }))
	admin, token := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	app.Do(t, http.MethodPut, "/api/v1/admin/settings/payments", testkit.Req{Token: token, Body: map[string]any{
		"cod": map[string]any{"enabled": true, "fee": 0, "feeGstRate": 18, "maxOrderAmount": 0, "maxOpenPerCustomer": 3, "zoneIds": []string{}}}}).
		Expect(t, http.StatusOK)
	p := fixtures.MustProduct(t, app.DB, "Saree", 150000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	guest := testkit.Req{Headers: map[string]string{"X-Session-Id": "guest-" + uuid.NewString()}}
	add := guest
	add.Body = map[string]any{"variantId": v.ID, "quantity": 1}
	app.Do(t, http.MethodPost, "/cart/items", add).Expect(t, http.StatusCreated)
	checkout := guest
	checkout.Body = map[string]any{"email": "cod-" + uuid.NewString()[:8] + "@example.com", "name": "Asha", "phone": "+91 98450 22222",
		"address": map[string]any{"type": "shipping", "street": "12 MG Road", "city": "Bengaluru", "state": "Karnataka",
			"pincode": "560001", "district": "Bengaluru Urban", "country": "India"}, "shippingCost": 0, "paymentMethod": "cod"}
	var o struct {
		ID    uuid.UUID    `json:"id"`
		Total money.Amount `json:"total"`
	}
	app.Do(t, http.MethodPost, "/orders", checkout).Expect(t, http.StatusCreated).JSON(t, &o)
	var line string
	app.DB.Raw(`SELECT id FROM order_items WHERE order_id = ?`, o.ID).Scan(&line)
	orders := "/api/v1/admin/orders/" + o.ID.String()
	app.Do(t, http.MethodPost, orders+"/fulfillments", testkit.Req{Token: token, Body: map[string]any{
		"carrier": "Delhivery", "trackingNumber": "DL7", "items": []any{map[string]any{"orderItemId": line, "quantity": 1}}}}).Expect(t, http.StatusCreated)
	app.Do(t, http.MethodPost, orders+"/payments", testkit.Req{Token: token, Body: map[string]any{"method": "cod", "amount": o.Total, "reference": "REM-1"}}).
		Expect(t, http.StatusCreated)
	var ret struct{ ID string }
	app.Do(t, http.MethodPost, orders+"/returns", testkit.Req{Token: token, Body: map[string]any{
		"items": []any{map[string]any{"orderItemId": line, "quantity": 1, "reason": "damaged"}}}}).Expect(t, http.StatusCreated).JSON(t, &ret)
	app.Do(t, http.MethodPost, "/api/v1/admin/returns/"+ret.ID+"/approve", testkit.Req{Token: token}).Expect(t, http.StatusOK)

	b := newBrowser(t, bin, app.URL)
	b.open("/admin/returns/"+ret.ID, app.Config.AppName+" admin")
	signIn(b, admin.Email)
	b.waitText("Restock into")
	b.press("Receive return", "Mark received")
	b.waitText("Return received.")
	b.fill("Refund return by hand", "Reference of the money paid back", "UTR-4242")
	b.press("Refund return by hand", "Record refund")
	b.waitUntil("the confirmation", `(document.querySelector('dialog[open]') || {innerText: ''}).innerText.includes('UTR-4242')`)
	b.press("", "Refund ₹1,500.00")
	b.waitText("Return refunded.")
	b.accessible()
	b.check()

	var rf models.Refund
	app.DB.Take(&rf, "order_id = ?", o.ID)
	if rf.Method != models.RefundManual || rf.Reference == nil || *rf.Reference != "UTR-4242" || rf.Status != models.RefundProcessed || rf.Amount != 150000 {
		t.Fatalf("refund %+v", rf)
	}
	if after := fixtures.Reload(t, app.DB, v); after.Inventory != 10 {
		t.Fatalf("on hand %d after the restock, want 10", after.Inventory)
	}
}
