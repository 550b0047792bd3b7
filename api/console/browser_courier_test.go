package console_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

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

// An admin runs the courier from the console: sets the default location's
// pickup code on the courier settings page (without it a fulfilment is not
// booked), selects two booked parcels on the shipments page and prints
// their labels as one PDF, schedules their pickup and sees the manifest
// and the pickup dates, on a phone 390 px wide. The order page then shows
// a booked fulfilment's courier: its status and AWB, the failed attempt's
// reason, the scans as a timeline, the label; and a failed delivery is
// decided with one click, sent to the courier.
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
	app.DB.Exec(`UPDATE locations SET address = jsonb_set(address, '{pincode}', '"560002"') WHERE is_default`)
	var home struct {
		ID         uuid.UUID
		Name       string
		PickupCode *string
	}
	pickupLocation := func() { app.DB.Raw(`SELECT id, name, pickup_code FROM locations WHERE is_default`).Scan(&home) }
	pickupLocation()
	manager, admin := testkit.MustAdmin(t, app, string(rbac.Admin))
	_, super := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	app.Do(t, http.MethodPut, "/api/v1/admin/settings/payments", testkit.Req{Token: super, Body: map[string]any{
		"cod": map[string]any{"enabled": true, "fee": 0, "feeGstRate": 18, "maxOrderAmount": 0, "maxOpenPerCustomer": 3, "zoneIds": []string{}}}}).
		Expect(t, http.StatusOK)

	// The pickup code, set on the courier settings page.
	b := newBrowser(t, bin, app.URL)
	b.viewport(390, 844)
	b.open("/admin/courier", app.Config.AppName+" admin")
	signIn(b, manager.Email)
	b.waitHeading("Courier settings")
	b.waitText("Courier simulator (testing)")
	b.fill("Pickup code of "+home.Name, "Pickup code of "+home.Name, "Primary")
	b.press("Pickup code of "+home.Name, "Save")
	b.waitText("Fulfilments from " + home.Name + " are booked from pickup location Primary.")
	b.fits(390)
	b.accessible()
	if pickupLocation(); home.PickupCode == nil || *home.PickupCode != "Primary" {
		t.Fatalf("the location's pickup code %v", home.PickupCode)
	}

	// Two COD orders, fulfilled without tracking: the courier books them.
	p := fixtures.MustProduct(t, app.DB, "Saree", 150000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	var orders []uuid.UUID
	var shipments []models.Shipment
	for i := range 2 {
		guest := testkit.Req{Headers: map[string]string{"X-Session-Id": "guest-" + uuid.NewString()}}
		add := guest
		add.Body = map[string]any{"variantId": v.ID, "quantity": 1}
		app.Do(t, http.MethodPost, "/cart/items", add).Expect(t, http.StatusCreated)
		checkout := guest
		checkout.Body = map[string]any{"email": "cod-" + uuid.NewString()[:8] + "@example.com", "name": []string{"Asha", "Ravi"}[i], "phone": "+91 98450 22222",
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
		orders, shipments = append(orders, o.ID), append(shipments, sh)
	}

	// Both selected on the shipments page: one PDF of their two labels,
	// then their pickup, its manifest and their pickup dates.
	dir := downloads(t, b)
	b.open("/admin/shipments", "Shipments")
	b.waitText(*shipments[1].AWB)
	for _, sh := range shipments {
		b.tick(fmt.Sprintf(`input[name="select-%s"]`, sh.FulfillmentID))
	}
	b.press("", "Print labels")
	b.waitText("Labels of 2 parcels downloaded")
	pages, text := downloadedPDF(t, dir)
	if pages != 2 || !strings.Contains(text, "AWB: "+*shipments[0].AWB) || !strings.Contains(text, "AWB: "+*shipments[1].AWB) {
		t.Fatalf("the labels' PDF has %d pages:\n%s", pages, text)
	}
	b.press("", "Schedule pickup")
	b.waitText("The courier collects 2 parcels on ")
	b.waitUntil("the manifest and both pickup dates", fmt.Sprintf(`(() => {
		const m = document.querySelector('main .manifest');
		const a = [...document.querySelectorAll('main a')].find((a) => a.textContent === 'Manifest (PDF)');
		return !!m && m.innerText.includes(%s) && m.innerText.includes(%s) && !!a && a.href.startsWith(%s) &&
			!document.querySelector('main').innerText.includes('Not scheduled') && document.querySelectorAll('main tbody tr').length === 2;
	})()`, js(*shipments[0].AWB), js(*shipments[1].AWB), js(srv.URL+"/sim/docs/manifest-")))
	b.fits(390)
	b.accessible()
	var dated int64
	app.DB.Model(&models.Shipment{}).Where("fulfillment_id IN ? AND pickup_scheduled_for IS NOT NULL AND manifest_url <> ''",
		[]uuid.UUID{shipments[0].FulfillmentID, shipments[1].FulfillmentID}).Count(&dated)
	if dated != 2 {
		t.Fatalf("%d shipments with their pickup recorded", dated)
	}

	sh := shipments[0]
	for _, st := range []string{"picked_up", "out_for_delivery", "undelivered"} {
		if code, err := sim.Scan(context.Background(), shiprockettest.ScanRequest{AWB: *sh.AWB, Status: st, Reason: "Door locked"}); err != nil || code != 200 {
			t.Fatalf("scan %s: %d %v", st, code, err)
		}
	}

	b.viewport(1280, 900)
	b.open("/admin/ndr", "Failed deliveries")
	b.waitText("Door locked")
	b.waitText(*sh.AWB)
	b.open("/admin/orders/"+orders[0].String(), "Order ")
	b.waitText("1 failed attempt: Door locked")
	b.waitText("Label (PDF)")
	b.press("", "Tracking (4)")
	b.waitText("SimExpress Hub Bengaluru")
	b.press("", "Return to us")
	b.waitText("The courier will bring the parcel back.")
	if !slices.Contains(sim.NDRActions(), *sh.AWB+":return") {
		t.Fatalf("the courier received %v", sim.NDRActions())
	}
	b.check()
}

// fits fails the test when the page is wider than width: nothing may make
// a person scroll sideways.
func (b *browser) fits(width int) {
	b.t.Helper()
	if w := eval[int](b, `document.documentElement.scrollWidth`); w > width {
		b.t.Fatalf("%s is %d px wide, more than %d", b.location(), w, width)
	}
}

// downloadedPDF waits for the one PDF of dir and answers its page count
// and text (pdfinfo, pdftotext: a missing one fails the test).
func downloadedPDF(t *testing.T, dir string) (int, string) {
	t.Helper()
	var pdf []byte
	testkit.Eventually(t, 20*time.Second, "the downloaded PDF", func() bool {
		files, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
		if len(files) != 1 {
			return false
		}
		pdf, _ = os.ReadFile(files[0])
		return bytes.HasPrefix(pdf, []byte("%PDF-")) && bytes.Contains(pdf, []byte("%%EOF"))
	})
	run := func(name string, args ...string) string {
		cmd := exec.Command(name, args...)
		cmd.Stdin = bytes.NewReader(pdf)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return string(out)
	}
	var pages int
	for _, line := range strings.Split(run("pdfinfo", "-"), "\n") {
		if n, ok := strings.CutPrefix(line, "Pages:"); ok {
			fmt.Sscan(strings.TrimSpace(n), &pages)
		}
	}
	return pages, run("pdftotext", "-layout", "-", "-")
}
