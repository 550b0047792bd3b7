package console_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/courier/shiprockettest"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/gocommerce/shop/worker"
	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

// The order page shows a booked fulfilment's courier: its status and AWB,
// the failed attempt's reason, the scans as a timeline, the label; and
// staff decide a failed delivery with one click, sent to the courier.
func TestConsoleShowsTheCourierAndDecidesAFailedDelivery(t *testing.T) {
	bin := needChromium(t)
	const token = "console-carrier-token-0123456789"
	sim := shiprockettest.New(shiprockettest.Config{Email: "ops@example.com", Password: "pw-0123456789"})
	srv := httptest.NewServer(sim.Handler())
	t.Cleanup(srv.Close)
	sim.SetPublicURL(srv.URL)
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) {
		c.AdminGeneralRateLimit = 100000
		c.Carrier, c.CarrierAPIURL, c.CarrierEmail, c.CarrierPassword, c.CarrierWebhookToken = "simulator", srv.URL, "ops@example.com", "pw-0123456789", token
	}))
	sim.SetWebhook(app.URL+"/api/v1/webhooks/carrier", token)
	app.DB.Exec(`UPDATE locations SET pickup_code = 'Primary', address = jsonb_set(address, '{pincode}', '"560002"') WHERE is_default`)
	staff, admin := testkit.MustAdmin(t, app, string(rbac.Staff))
	_, super := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	app.Do(t, http.MethodPut, "/api/v1/admin/settings/payments", testkit.Req{Token: super, Body: map[string]any{
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
			"pincode": "560001", "country": "India"}, "shippingCost": 0, "paymentMethod": "cod"}
	var o struct {
		ID uuid.UUID `json:"id"`
	}
	app.Do(t, http.MethodPost, "/orders", checkout).Expect(t, http.StatusCreated).JSON(t, &o)
	var f struct {
		ID string `json:"id"`
	}
	app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+o.ID.String()+"/fulfillments", testkit.Req{Token: admin, Body: map[string]any{}}).
		Expect(t, http.StatusCreated).JSON(t, &f)
	task, _ := tasks.NewCourierBookTask(f.ID)
	if err := worker.New(app.App).Handler().(*asynq.ServeMux).ProcessTask(context.Background(), task); err != nil {
		t.Fatal(err)
	}
	var sh models.Shipment
	app.DB.Take(&sh, "fulfillment_id = ?", f.ID)
	for _, st := range []string{"picked_up", "out_for_delivery", "undelivered"} {
		if code, err := sim.Scan(context.Background(), shiprockettest.ScanRequest{AWB: *sh.AWB, Status: st, Reason: "Door locked"}); err != nil || code != 200 {
			t.Fatalf("scan %s: %d %v", st, code, err)
		}
	}

	b := newBrowser(t, bin, app.URL)
	b.open("/admin/ndr", app.Config.AppName+" admin")
	signIn(b, staff.Email)
	b.waitHeading("Failed deliveries")
	b.waitText("Door locked")
	b.waitText(*sh.AWB)
	b.open("/admin/orders/"+o.ID.String(), "Order ")
	b.waitText("1 failed attempt: Door locked")
	b.waitText("Label (PDF)")
	b.press("", "Tracking (4)")
	b.waitText("SimExpress Hub Bengaluru")
	b.press("", "Return to us")
	b.waitText("The courier will bring the parcel back.")
	if !slices.Contains(sim.NDRActions(), *sh.AWB+":return") {
		t.Fatalf("the courier received %v", sim.NDRActions())
	}
}
