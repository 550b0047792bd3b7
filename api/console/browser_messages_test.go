package console_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/gocommerce/shop/api/messageapi"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/messaging/messagingsim"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Customer messages and COD confirmation in the console: the payment
// settings ask COD orders to be confirmed by link; the message
// settings refuse a wrong DLT template id next to its field and save the
// right one (the confirmation link then goes out by SMS); the order list
// finds the COD order waiting for its confirmation; its page lists the
// message sent, with its delivery status; and staff confirm it for the
// customer, who then gets the order-confirmed message. Both pages fit a
// 390 px screen.
func TestConsoleCustomerMessagesAndCODConfirmation(t *testing.T) {
	bin := needChromium(t)
	sim := messagingsim.New(slog.New(slog.NewTextHandler(testkit.TestWriter(t), nil)))
	srv := httptest.NewServer(sim.Handler())
	t.Cleanup(srv.Close)
	app := testkit.MustApp(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) {
		c.AdminGeneralRateLimit = 100000
		c.SMSProvider, c.WhatsAppProvider, c.MessagingSimURL = messaging.Simulator, messaging.Simulator, srv.URL
	}))
	t.Cleanup(sim.Wait)
	sim.SetTargets(messagingsim.Targets{SMSReceipts: app.URL + messageapi.SMSReceiptsPath + "?token=" + url.QueryEscape(app.Config.SMSWebhookToken)})
	admin, super := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	app.Do(t, http.MethodPut, "/api/v1/admin/settings/payments", testkit.Req{Token: super, Body: map[string]any{
		"cod": map[string]any{"enabled": true, "fee": 0, "maxOpenPerCustomer": 3}}}).Expect(t, http.StatusOK)
	tpl := messaging.DemoTemplates[messaging.EventOrderConfirmed]
	app.Do(t, http.MethodPut, "/api/v1/admin/settings/messages", testkit.Req{Token: super, Body: map[string]any{"events": map[string]any{
		messaging.EventOrderConfirmed: map[string]any{"channels": []string{"sms"},
			"sms": map[string]any{"templateId": tpl.SMSTemplateID, "dltTemplateId": tpl.DLTTemplateID, "senderId": tpl.SenderID}}}}}).
		Expect(t, http.StatusOK)
	p := fixtures.MustProduct(t, app.DB, "Saree", 150000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	// An order not waiting for anything, which the filter leaves out.
	other := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "T"),
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})

	b := newBrowser(t, bin, app.URL)
	b.viewport(390, 844)
	b.open("/admin/payments", app.Config.AppName+" admin")
	signIn(b, admin.Email)
	b.waitHeading("Payment settings")
	b.fill("Cash on delivery", "Customer confirms a COD order", "link")
	b.press("Cash on delivery", "Save")
	b.waitText("Payment settings saved.")
	b.open("/admin/message-settings", "Customer messages")
	const form = "Cash on delivery: confirmation link"
	b.do("open the event", chromedp.Click(chromedp.JSPath(`document.querySelector('details[data-event="codConfirmation"] > summary')`), chromedp.NodeVisible))
	b.fill(form, "SMS", "true")
	b.fill(form, "SMS DLT template id", "1107")
	b.press(form, "Save")
	b.waitUntil("the error next to the DLT template id", `(() => {
		const f = document.querySelector('[name="events.codConfirmation.sms.dltTemplateId"]').closest('.field');
		return f.querySelector('.field-error').textContent === 'SMS DLT template id must be the 19-digit DLT content template id'; })()`)
	b.fill(form, "SMS DLT template id", messaging.DemoTemplates[messaging.EventCODConfirmation].DLTTemplateID)
	b.press(form, "Save")
	b.waitText(form + ": message settings saved.")
	b.open("/admin/message-settings", "Customer messages")
	b.waitText(form + " · SMS")
	b.do("open the event", chromedp.Click(chromedp.JSPath(`document.querySelector('details[data-event="codConfirmation"] > summary')`), chromedp.NodeVisible))
	fitsNarrowScreen(b, "the message settings")

	// A guest's COD order: placed waiting, its link sent by SMS and delivered.
	guest := testkit.Req{Headers: map[string]string{"X-Session-Id": "guest-" + uuid.NewString()}}
	add := guest
	add.Body = map[string]any{"variantId": v.ID, "quantity": 1}
	app.Do(t, http.MethodPost, "/cart/items", add).Expect(t, http.StatusCreated)
	checkout := guest
	checkout.Body = map[string]any{"email": "cod-" + uuid.NewString()[:8] + "@example.com", "name": "Asha", "phone": "+91 98450 22222",
		"address": map[string]any{"type": "shipping", "street": "12 MG Road", "city": "Bengaluru", "state": "Karnataka",
			"pincode": "560001", "district": "Bengaluru Urban", "country": "India"}, "shippingCost": 0, "paymentMethod": "cod"}
	var o models.Order
	app.Do(t, http.MethodPost, "/orders", checkout).Expect(t, http.StatusCreated).JSON(t, &o)
	testkit.Eventually(t, 20*time.Second, "the confirmation link delivered", func() bool {
		var n int64
		app.DB.Raw(`SELECT count(*) FROM messages WHERE order_id = ? AND event = 'codConfirmation' AND status = 'delivered'`, o.ID).Scan(&n)
		return n == 1
	})

	b.open("/admin/orders", "Orders")
	b.fill("Filter orders", "Status", models.OrderPendingConfirmation)
	b.press("Filter orders", "Filter")
	b.waitUntil("the waiting order alone", fmt.Sprintf(`location.search.includes('status=pending_confirmation') &&
		document.querySelector('main').innerText.includes(%s) && !document.querySelector('main').innerText.includes(%s)`,
		js(o.OrderNumber), js(other.OrderNumber)))
	b.press("", o.OrderNumber)
	b.waitHeading("Order " + o.OrderNumber)
	b.waitText("Waiting for the customer's confirmation")
	b.press("", "Show messages")
	b.waitUntil("the message with its status", `(() => {
		const t = document.querySelector('.order-messages')?.innerText || '';
		return ['Cash on delivery: confirmation link', 'SMS', '+91 98450 22222', 'Delivered'].every((s) => t.includes(s)); })()`)
	fitsNarrowScreen(b, "the order page")
	b.accessible()
	b.press("", "Customer confirmed")
	b.press("", "Customer confirmed")
	b.waitText("Order confirmed for the customer.")
	b.check()

	var now models.Order
	app.DB.Take(&now, "id = ?", o.ID)
	var confirmed int64
	app.DB.Raw(`SELECT count(*) FROM messages WHERE order_id = ? AND event = 'orderConfirmed'`, o.ID).Scan(&confirmed)
	if now.Status != models.OrderConfirmed || confirmed != 1 {
		t.Fatalf("order %s with %d order-confirmed messages: want confirmed, 1", now.Status, confirmed)
	}
}

// fitsNarrowScreen fails the test when the page scrolls sideways.
func fitsNarrowScreen(b *browser, what string) {
	b.t.Helper()
	if w := eval[int](b, `document.documentElement.scrollWidth - window.innerWidth`); w > 0 {
		b.t.Fatalf("%s is %d px wider than the %d px screen", what, w, eval[int](b, `window.innerWidth`))
	}
}
