package console_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/gatewayapi"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/identity"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// A merchant runs the shop from the console in a real browser, against
// real Postgres and Redis and a running worker: signs in, turns on
// two-factor sign-in and signs in again with a code, creates a product with
// two variants and stock (the storefront lists it), finds the order a
// customer placed and paid through the gateway, refunds part of it, and
// sees the day's revenue on the dashboard chart. A viewer sees the same
// pages without a single edit control, and the server refuses the viewer's
// writes anyway. Fulfilment, returns and shipping steps are skipped with a
// message on a server without those routes.
// With CONSOLE_SCREENSHOTS=1 it writes the main pages at 1280 and 390 px to
// docs/console/.
func TestConsoleMerchantJourney(t *testing.T) {
	bin := testkit.MustChromium(t)
	// A person clicks slower than this test: the per-admin limits (100
	// requests a minute) are not what it checks.
	app := testkit.MustApp(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) {
		c.AdminGeneralRateLimit, c.AdminAnalyticsRateLimit = 100000, 100000
	}))
	merchant, superToken := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	b := newBrowser(t, bin, app.URL)

	// Signed out, any console URL leads to the sign-in page and back.
	b.open("/admin/orders", app.Config.AppName+" admin")
	if loc := b.location(); !strings.Contains(loc, "/admin/signin?next=%2Fadmin%2Forders") {
		t.Fatalf("signed out at %s", loc)
	}
	b.accessible()
	signIn(b, merchant.Email)
	b.waitHeading("Orders")

	// Two-factor sign-in, set up from the account page: the QR code, then
	// the backup codes, once.
	b.open("/admin/account", "Your account")
	b.press("", "Set up two-factor sign-in")
	b.waitUntil("the QR code", `(document.querySelector('img.qr') || {}).src?.startsWith('data:image/png;base64,')`)
	secret := eval[string](b, `document.querySelector('code[data-secret]').dataset.secret`)
	enableCode := testkit.TOTPCode(t, secret, time.Now())
	b.fill("Turn on two-factor sign-in", "6-digit code", enableCode)
	b.press("", "Turn on")
	b.waitUntil("ten backup codes", `document.querySelectorAll('.backup-codes li').length === 10`)
	// The profile says 2FA is on at once, not after the codes are put away.
	b.waitUntil("the profile's 2FA on", `!!document.querySelector('main dl .badge-on') && !document.querySelector('main dl .badge-off')`)
	b.accessible()
	b.press("", "I have saved them")
	b.waitUntil("the account page with 2FA on", `!!document.querySelector('main .badge-on') && !document.querySelector('.backup-codes')`)

	// Sign out, and in again: password, then a code of the next time step
	// (the one used to enable 2FA cannot be replayed).
	b.press("", "Sign out")
	b.waitHeading(app.Config.AppName + " admin")
	signIn(b, merchant.Email)
	b.fill("Second factor", "Authentication code", testkit.TOTPCode(t, secret, time.Now().Add(30*time.Second)))
	b.press("", "Verify")
	b.waitHeading("Dashboard")

	refreshOnce(t, b, app, merchant.ID)

	product := createProductInConsole(t, b, app)
	seeOnStorefront(t, app, product)
	order := placeOrder(t, app, product)

	// Find the order by its number and refund part of it.
	b.open("/admin/orders", "Orders")
	b.accessible()
	b.fill("Filter orders", "Search", strings.TrimLeft(strings.TrimPrefix(order.OrderNumber, "ORD-"), "0"))
	b.press("Filter orders", "Filter")
	b.waitUntil("the filtered list", fmt.Sprintf(`location.search.includes('search=') && document.querySelectorAll('main tbody tr').length === 1 && document.querySelector('main tbody a').textContent === %s`, js(order.OrderNumber)))
	b.press("", order.OrderNumber)
	b.waitHeading("Order " + order.OrderNumber)
	b.waitText("₹1,548.50") // 2 × 499.50 + 499.50 + 50 shipping
	b.waitText("CGST")      // Karnataka to Karnataka: split in halves
	b.accessible()
	b.press("", "Refund…")
	// The amount starts empty: a refund of the whole balance is typed.
	if got := eval[string](b, `document.querySelector('form[aria-label="Refund"] input[name="amount"]').value`); got != "" {
		t.Fatalf("the refund amount starts as %q", got)
	}
	// More than was paid is confirmed, then refused next to the amount,
	// worded with the field's label; the corrected request then goes
	// through with a new Idempotency-Key (the refused one's would answer
	// 409 "used with another request").
	b.fill("Refund", "Amount", "5000")
	b.fill("Refund", "Reason", "Box arrived damaged")
	b.press("Refund", "Refund")
	b.waitUntil("the confirmation", `!!document.querySelector('dialog[open].confirm')`)
	if got := eval[[]string](b, `[...document.querySelectorAll('dialog[open] button')].map((b) => b.textContent)`); !slices.Equal(got, []string{"Don't refund", "Refund ₹5,000.00"}) {
		t.Fatalf("the refund confirmation's buttons: %q", got)
	}
	b.press("", "Refund ₹5,000.00")
	b.waitUntil("the amount refused beside its field", `(() => {
		const form = document.querySelector('form[aria-label="Refund"]');
		const input = form && form.querySelector('input[name="amount"]');
		return !!input && input.getAttribute('aria-invalid') === 'true' &&
			document.getElementById(input.id + '-err').textContent === 'Amount (up to ₹1,548.50) must be at most 1548.5';
	})()`)
	b.fill("Refund", "Amount", "100.25")
	b.press("Refund", "Refund")
	b.press("", "Refund ₹100.25")
	b.waitText("Refund of ₹100.25")
	var after models.Order
	app.DB.Take(&after, "id = ?", order.ID)
	if after.RefundedTotal != 10025 || after.PaymentStatus != "partially_refunded" {
		t.Fatalf("after the refund: refunded %d, payment %s", after.RefundedTotal, after.PaymentStatus)
	}

	t.Run("fulfil in two parts with tracking, then a return", func(t *testing.T) {
		if !serverHas(t, app, "POST /orders/{}/fulfillments") || !serverHas(t, app, "GET /returns") {
			t.Skip("skipped: this server has no POST /api/v1/admin/orders/{id}/fulfillments or GET /api/v1/admin/returns (404)")
		}
		fulfilAndReturn(t, b.withT(t), app, superToken, order)
	})
	t.Run("shipping zones and methods", func(t *testing.T) {
		if !serverHas(t, app, "GET /shipping/zones") {
			t.Skip("skipped: GET /api/v1/admin/shipping/zones answers 404 on this server")
		}
		shippingInConsole(t, b.withT(t), app, superToken)
	})

	// The dashboard's chart shows today's revenue once the worker has
	// rolled the day up: the order total less what was refunded.
	// (Polled as another admin, in its own analytics rate-limit bucket, over
	// the dashboard's default range.)
	app.DB.Take(&after, "id = ?", order.ID)
	want := money.Amount(after.Total - after.RefundedTotal).String()
	now := time.Now().In(app.Config.StoreLocation()) // the store's today: the dashboard's and the analytics' days
	today, from := now.Format(time.DateOnly), now.AddDate(0, 0, -29).Format(time.DateOnly)
	_, poller := testkit.MustAdmin(t, app, string(rbac.Viewer))
	testkit.Eventually(t, 30*time.Second, "today's rolled-up revenue "+want+" and top product", func() bool {
		var rep struct {
			RevenueByDay []struct {
				Date    string          `json:"date"`
				Revenue json.RawMessage `json:"revenue"`
			} `json:"revenueByDay"`
			TopProducts []struct {
				Title string `json:"title"`
			} `json:"topProducts"`
		}
		time.Sleep(500 * time.Millisecond)
		q := "?dateFrom=" + from + "&dateTo=" + today
		app.Do(t, "GET", "/api/v1/admin/analytics/orders"+q, testkit.Req{Token: poller}).Expect(t, 200).JSON(t, &rep)
		last := rep.RevenueByDay[len(rep.RevenueByDay)-1]
		if last.Date != today || string(last.Revenue) != want {
			return false
		}
		app.Do(t, "GET", "/api/v1/admin/analytics/products"+q, testkit.Req{Token: poller}).Expect(t, 200).JSON(t, &rep)
		return len(rep.TopProducts) == 1 && rep.TopProducts[0].Title == "Console Tee"
	})
	b.open("/admin/", "Dashboard")
	bar := fmt.Sprintf(`rect.bar[data-date=%q]`, today)
	if got := eval[string](b, `document.querySelector('`+bar+`').dataset.revenue`); got != want {
		t.Fatalf("chart bar of %s shows %s, want %s", today, got, want)
	}
	if h := eval[float64](b, `+document.querySelector('`+bar+`').getAttribute('height')`); h < 10 {
		t.Fatalf("today's bar is %v px high", h)
	}
	b.waitText("Console Tee") // top products
	b.accessible()

	t.Run("every page, a bulk stock update and a reconcile followed to their end", func(t *testing.T) {
		everyPageAndJobs(t, b.withT(t), app, product)
	})

	t.Run("a viewer sees no edit controls and cannot write", func(t *testing.T) {
		viewerSeesNoEditControls(t, b.newTab(t), app, product, order)
	})

	if os.Getenv("CONSOLE_SCREENSHOTS") == "1" {
		screenshots(t, b, product, order)
	}
	b.check()
}

// withT returns the browser reporting to t (a subtest).
func (b *browser) withT(t *testing.T) *browser {
	nb := &browser{t: t, ctx: b.ctx, base: b.base}
	t.Cleanup(func() {
		b.mu.Lock()
		nb.mu.Lock()
		b.problems = append(b.problems, nb.problems...)
		nb.mu.Unlock()
		b.mu.Unlock()
	})
	return nb
}

func signIn(b *browser, email string) {
	b.t.Helper()
	b.fill("Sign in", "Email", email)
	b.fill("Sign in", "Password", testkit.AdminPassword)
	b.press("Sign in", "Sign in")
}

// serverHas reports whether the server registered an admin route, as the
// console itself learns it (permissions.json).
func serverHas(t *testing.T, app *testkit.App, route string) bool {
	var doc struct {
		Routes map[string]string `json:"routes"`
	}
	consoleGet(t, app.URL+"/admin/permissions.json", nil).Expect(t, 200).JSON(t, &doc)
	_, ok := doc.Routes[route]
	return ok
}

// createProductInConsole creates an active product and two variants with
// stock through the console's forms and returns it as stored.
func createProductInConsole(t *testing.T, b *browser, app *testkit.App) *models.Product {
	t.Helper()
	suffix := uuid.NewString()[:6]
	b.open("/admin/products", "Products")
	b.press("", "New product")
	b.waitHeading("New product")
	b.accessible()
	b.fill("New product", "Title", "Console Tee")
	b.fill("New product", "Status", "active")
	b.fill("New product", "HSN code", "6109")
	// The server's refusal shows next to the field its details.field names.
	b.fill("New product", "Price", "0")
	b.press("New product", "Create product")
	b.waitUntil("the price error beside the price", `(() => {
		const input = document.getElementById([...document.querySelectorAll('label')].find((l) => l.textContent.startsWith('Price')).htmlFor);
		const err = document.getElementById(input.id + '-err');
		return input.getAttribute('aria-invalid') === 'true' && err.textContent === 'Price (INR, GST included) must be greater than 0' && document.activeElement === input;
	})()`)
	b.fill("New product", "Price", "499.50")
	b.press("New product", "Create product")
	b.waitHeading("Console Tee")
	b.waitText("Add its variants")
	for i, v := range []struct{ sku, size, units string }{{"CT-S-" + suffix, "S", "10"}, {"CT-M-" + suffix, "M", "5"}} {
		if i > 0 {
			b.press("", "Add a variant")
		}
		b.fill("New variant", "SKU", v.sku)
		b.fill("New variant", "Size", v.size)
		b.fill("New variant", "Colour", "Black")
		b.fill("New variant", "Units on hand", v.units)
		b.press("New variant", "Add variant")
		b.waitUntil("variant "+v.sku, fmt.Sprintf(`!!document.querySelector('article.variant[data-sku=%q] .available')`, v.sku))
	}
	b.accessible()
	// Stock adjusted from the console too: the small size gets 2 more.
	sku := "CT-S-" + suffix
	b.fill("Adjust stock of "+sku, "Units", "2")
	b.press("Adjust stock of "+sku, "Adjust stock")
	b.waitText(sku + ": 12 on hand, 12 available.")

	var p models.Product
	if err := app.DB.Preload("Variants").Take(&p, "title = ?", "Console Tee").Error; err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(p.Variants, func(a, b models.Variant) int { return strings.Compare(b.SKU, a.SKU) }) // S before M
	if p.Price != 49950 || p.Status != models.ProductActive || p.HSNCode != "6109" || len(p.Variants) != 2 ||
		p.Variants[0].Inventory != 12 || p.Variants[1].Inventory != 5 || p.Variants[0].Price != nil {
		t.Fatalf("stored product %+v variants %+v", p, p.Variants)
	}
	return &p
}

// seeOnStorefront checks the new product on the storefront's GET /products.
func seeOnStorefront(t *testing.T, app *testkit.App, p *models.Product) {
	t.Helper()
	var list struct {
		Data []struct {
			ID       string       `json:"id"`
			Title    string       `json:"title"`
			Price    money.Amount `json:"price"`
			Variants []struct {
				ID string `json:"id"`
			} `json:"variants"`
		} `json:"data"`
	}
	app.Do(t, "GET", "/products?search=Console+Tee", testkit.Req{}).Expect(t, 200).JSON(t, &list)
	if len(list.Data) != 1 || list.Data[0].ID != p.ID.String() || list.Data[0].Price != 49950 || len(list.Data[0].Variants) != 2 {
		t.Fatalf("storefront list: %+v", list.Data)
	}
}

// placeOrder checks out 2 small and 1 medium as a customer in Karnataka
// with 50 shipping, pays through a signed gateway capture, and waits for
// the worker to make the order.
func placeOrder(t *testing.T, app *testkit.App, p *models.Product) models.Order {
	t.Helper()
	cu, token := testkit.MustCustomer(t, app)
	addr := testkit.MustAddress(t, app, cu.ID)
	for i, qty := range []int{2, 1} {
		app.Do(t, "POST", "/cart/items", testkit.Req{Token: token, Body: map[string]any{"variantId": p.Variants[i].ID, "quantity": qty}}).Expect(t, 201)
	}
	var co struct {
		PaymentIntent struct {
			PaymentIntentID string       `json:"paymentIntentId"`
			Amount          money.Amount `json:"amount"`
			Currency        string       `json:"currency"`
		} `json:"paymentIntent"`
	}
	app.Do(t, "POST", "/orders", testkit.Req{Token: token, Body: map[string]any{
		"shippingAddressId": addr, "billingAddressId": addr, "shippingCost": 50}}).Expect(t, 201).JSON(t, &co)
	if co.PaymentIntent.Amount != 154850 {
		t.Fatalf("checkout amount %d", co.PaymentIntent.Amount)
	}
	body := gateway.BuildEvent(gateway.Simulated{Name: gateway.PaymentCaptured, EventID: gateway.NewEventID(),
		OrderID: co.PaymentIntent.PaymentIntentID, Amount: int64(co.PaymentIntent.Amount), Currency: co.PaymentIntent.Currency})
	app.Do(t, "POST", gatewayapi.Path, testkit.Req{Body: body,
		Headers: map[string]string{gateway.SignatureHeader: gateway.Sign(app.Config.GatewayWebhookSecret, body)}}).Expect(t, 200)
	var o models.Order
	testkit.Eventually(t, 15*time.Second, "the order", func() bool {
		return app.DB.Take(&o, "payment_intent_id = ?", co.PaymentIntent.PaymentIntentID).Error == nil
	})
	return o
}

// viewerSeesNoEditControls signs a viewer in on another computer: the
// pages show, their edit controls do not, and a write sent anyway (a
// same-origin fetch with the viewer's cookie, or a bearer call) is 403 and
// changes nothing.
func viewerSeesNoEditControls(t *testing.T, b *browser, app *testkit.App, p *models.Product, o models.Order) {
	viewer, viewerToken := testkit.MustAdmin(t, app, string(rbac.Viewer))
	b.open("/admin/", app.Config.AppName+" admin")
	signIn(b, viewer.Email)
	b.waitHeading("Dashboard")
	nav := eval[[]string](b, `[...document.querySelectorAll('nav#nav a')].map((a) => a.textContent)`)
	for _, hidden := range []string{"Webhooks", "Admin users", "Audit log", "Queue dashboard ↗"} {
		if slices.Contains(nav, hidden) {
			t.Fatalf("viewer's navigation shows %s: %v", hidden, nav)
		}
	}
	if !slices.Contains(nav, "Orders") || !slices.Contains(nav, "Products") {
		t.Fatalf("viewer's navigation: %v", nav)
	}
	pages := []struct{ path, heading string }{
		{"/admin/products", "Products"},
		{"/admin/products/" + p.ID.String(), "Console Tee"},
		{"/admin/orders/" + o.ID.String(), "Order " + o.OrderNumber},
		{"/admin/categories", "Categories"},
		{"/admin/customers/" + o.CustomerID.String(), o.Name},
		{"/admin/reviews", "Reviews"},
		{"/admin/inventory", "Inventory"},
	}
	for _, pg := range pages {
		b.open(pg.path, pg.heading)
		b.accessible()
		for _, c := range b.controls() {
			// Reading is all a viewer may do: filters, the
			// chart's table toggle, a variant's stock per
			// location and an order's messages (read when
			// opened) are the only controls.
			if !strings.HasPrefix(c, "summary:Revenue by day") && c != "summary:Stock per location" && c != "summary:Show messages" &&
				!filterControl(b, c) {
				t.Fatalf("viewer sees the control %q on %s", c, pg.path)
			}
		}
	}
	b.open("/admin/webhooks", "Not available")
	b.waitText("Your role does not allow this page.")

	status := eval[int](b, fmt.Sprintf(`fetch('/api/v1/admin/products/%s', {method: 'PATCH', headers: {'Content-Type': 'application/json'},
		body: JSON.stringify({title: 'Viewer was here'})}).then((r) => r.status)`, p.ID))
	if status != 403 {
		t.Fatalf("viewer's cookie PATCH answered %d", status)
	}
	app.Do(t, "PATCH", "/api/v1/admin/products/"+p.ID.String(), testkit.Req{Token: viewerToken, Body: map[string]any{"title": "Viewer was here"}}).
		ExpectError(t, 403, "FORBIDDEN")
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/refund", testkit.Req{Token: viewerToken, Body: map[string]any{"amount": 1}}).
		ExpectError(t, 403, "FORBIDDEN")
	var stored models.Product
	app.DB.Take(&stored, "id = ?", p.ID)
	if stored.Title != "Console Tee" {
		t.Fatalf("viewer's write changed the product: %q", stored.Title)
	}
	b.check()
}

// filterControl reports whether a control only reads: it belongs to a
// filter form or a pager.
func filterControl(b *browser, control string) bool {
	return eval[bool](b, fmt.Sprintf(`(() => {
		const all = [...document.querySelectorAll('main button, main input, main select, main textarea, main summary')];
		const want = %s;
		return all.filter((e) => (e.tagName.toLowerCase() + ':' + (e.textContent.trim() || e.getAttribute('aria-label') || e.name || '')) === want)
			.every((e) => !!e.closest('form.filters, nav.pager'));
	})()`, js(control)))
}

// screenshots writes the main pages at 1280 and 390 px to docs/console/.
func screenshots(t *testing.T, b *browser, p *models.Product, o models.Order) {
	dir := filepath.Join("..", "..", "docs", "console")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	signedOut := b.newTab(t)
	for _, size := range [][2]int64{{1280, 860}, {390, 844}} {
		w, h := size[0], size[1]
		signedOut.viewport(w, h)
		signedOut.open("/admin/signin", "")
		signedOut.screenshot(dir, "signin", w, h)
		b.viewport(w, h)
		for _, pg := range []struct{ name, path, heading string }{
			{"dashboard", "/admin/", "Dashboard"},
			{"orders", "/admin/orders", "Orders"},
			{"order", "/admin/orders/" + o.ID.String(), "Order " + o.OrderNumber},
			{"product", "/admin/products/" + p.ID.String(), "Console Tee"},
			{"products", "/admin/products", "Products"},
			{"returns", "/admin/returns", "Returns"},
			{"audit", "/admin/audit", "Audit log"},
			{"shipping", "/admin/shipping", "Shipping"},
		} {
			b.open(pg.path, pg.heading)
			b.screenshot(dir, pg.name, w, h)
		}
		// A picker open on its matches, as a merchant filters orders by customer.
		b.open("/admin/orders", "Orders")
		b.waitUntil("the customer picker", `(() => {
			const el = document.querySelector('form[aria-label="Filter orders"] [role=combobox]');
			if (!el) return false;
			el.focus(); el.value = 'shop'; el.dispatchEvent(new Event('input', { bubbles: true }));
			return true;
		})()`)
		b.waitUntil("the matches", `[...document.querySelectorAll('[role=option]')].some((o) => o.getClientRects().length > 0)`)
		b.screenshot(dir, "orders-picker", w, h)
	}
}

// everyPageAndJobs opens every page of the navigation (each loads without
// an error and passes the accessibility check), creates a category in a
// dialog, and follows a bulk stock update and a reconcile to their end.
func everyPageAndJobs(t *testing.T, b *browser, app *testkit.App, p *models.Product) {
	b.open("/admin/", "Dashboard")
	links := eval[[][2]string](b, `[...document.querySelectorAll('nav#nav a:not([target])')].map((a) => [a.getAttribute('href'), a.textContent])`)
	if len(links) < 15 {
		t.Fatalf("navigation has %d pages: %v", len(links), links)
	}
	for _, l := range links {
		b.do("open "+l[0], chromedp.Navigate(b.base+l[0]))
		b.waitUntil("the page "+l[0], `!!document.querySelector('main h1') && !document.querySelector('main > .loading')`)
		if errs := eval[[]string](b, `[...document.querySelectorAll('main .notice.error')].map((e) => e.textContent)`); len(errs) > 0 {
			t.Fatalf("%s shows errors: %v", l[0], errs)
		}
		b.accessible()
	}

	b.open("/admin/categories", "Categories")
	b.press("", "New category")
	b.fill("", "Name", "Tees")
	b.press("", "Create category")
	b.waitText("Category created.")
	b.waitText("Tees")

	var before models.Variant
	app.DB.Take(&before, "id = ?", p.Variants[0].ID)
	b.open("/admin/inventory", "Inventory")
	// By SKU, as a stock sheet has them; an unknown SKU is refused with its line first.
	b.fill("Bulk update", "Updates", fmt.Sprintf("%s add 3\nNO-SUCH-SKU set 1", p.Variants[0].SKU))
	b.press("Bulk update", "Queue update")
	b.waitText("Line 2 (NO-SUCH-SKU set 1): is not the SKU of any variant.")
	lines := fmt.Sprintf("%s add 3\n%s set 40", p.Variants[0].SKU, p.Variants[1].SKU)
	b.fill("Bulk update", "Updates", lines)
	b.press("Bulk update", "Queue update")
	b.waitUntil("the bulk update job to complete", `document.querySelector('.job')?.dataset.state === 'completed'`)
	var small, medium models.Variant
	app.DB.Take(&small, "id = ?", p.Variants[0].ID)
	app.DB.Take(&medium, "id = ?", p.Variants[1].ID)
	if small.Inventory != before.Inventory+3 || medium.Inventory != 40 {
		t.Fatalf("after the bulk update: small %d (want %d), medium %d (want 40)", small.Inventory, before.Inventory+3, medium.Inventory)
	}

	b.open("/admin/system", "System")
	b.press("", "Run reconcile now")
	b.waitUntil("the reconcile job to complete", `document.querySelector('.job')?.dataset.state === 'completed' && !!document.querySelector('.job pre.json')`)
	b.accessible()
}

// refreshOnce drops the access cookie (as if it expired) and moves to the
// dashboard, whose two analytics calls then both answer 401: the console
// refreshes the session, retries both, and stays signed in. Two refreshes
// presenting one token would end the session (reuse detection).
func refreshOnce(t *testing.T, b *browser, app *testkit.App, adminID uuid.UUID) {
	t.Helper()
	b.open("/admin/orders", "Orders")
	b.do("expire the access cookie", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, network.DeleteCookies, network.DeleteCookiesParams{Name: adminroute.AccessCookie, URL: b.base + "/api/v1/admin"})
		return err
	}))
	b.press("", "Dashboard")
	b.waitHeading("Dashboard")
	b.waitText("Revenue by day")
	var refreshes, reuses int64
	app.DB.Table("admin_audit_logs").Where("admin_id = ? AND action = ?", adminID, identity.ActionRefresh).Count(&refreshes)
	app.DB.Table("admin_audit_logs").Where("admin_id = ? AND action = ?", adminID, identity.ActionRefreshReuse).Count(&reuses)
	// A second refresh is legitimate when a 401 arrives after the first
	// refresh ended (it presents the new token); a reuse never is.
	if refreshes < 1 || reuses != 0 {
		t.Fatalf("%d refreshes and %d reuses of a refresh token", refreshes, reuses)
	}
}
