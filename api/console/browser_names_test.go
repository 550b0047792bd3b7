package console_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// shop is the catalog and orders the names test works on, made through the
// API (catalog) and as rows (customers, orders, a review).
type shop struct {
	tees                       string // category id
	shirt, tote, poster        models.Product
	shirtM, shirtL, toteV      models.Variant
	asha, rahul                models.Customer
	ashaNew, ashaOld, rahulNew models.Order
	rahulCancelled             models.Order
}

func mustShop(t *testing.T, app *testkit.App, token string) *shop {
	t.Helper()
	post := func(path string, body map[string]any) map[string]any {
		return app.Do(t, "POST", "/api/v1/admin"+path, testkit.Req{Token: token, Body: body}).Expect(t, 201).Map(t)
	}
	s := &shop{}
	s.tees = post("/categories", map[string]any{"name": "Tees"})["id"].(string)
	shirt := post("/products", map[string]any{"title": "Linen Shirt", "price": 999, "hsnCode": "6205", "status": "active", "categoryId": s.tees})["id"].(string)
	post("/products/"+shirt+"/variants", map[string]any{"sku": "LS-M-WHT", "size": "M", "color": "White", "inventory": 5})
	post("/products/"+shirt+"/variants", map[string]any{"sku": "LS-L-WHT", "size": "L", "color": "White", "inventory": 0})
	tote := post("/products", map[string]any{"title": "Canvas Tote", "price": 450, "hsnCode": "4202"})["id"].(string)
	post("/products/"+tote+"/variants", map[string]any{"sku": "CT-TOTE", "inventory": 9})
	poster := post("/products", map[string]any{"title": "Old Poster", "price": 99, "hsnCode": "4911", "status": "active"})["id"].(string)
	app.Do(t, "PATCH", "/api/v1/admin/products/"+poster, testkit.Req{Token: token, Body: map[string]any{"status": "archived"}}).Expect(t, 200)
	db := app.DB
	for id, p := range map[string]*models.Product{shirt: &s.shirt, tote: &s.tote, poster: &s.poster} {
		db.Take(p, "id = ?", id)
	}
	db.Take(&s.shirtM, "sku = 'LS-M-WHT'")
	db.Take(&s.shirtL, "sku = 'LS-L-WHT'")
	db.Take(&s.toteV, "sku = 'CT-TOTE'")
	s.asha = fixtures.MustCustomer(t, db, "Asha Verma")
	s.rahul = fixtures.MustCustomer(t, db, "Rahul Khanna")
	line := func(p models.Product, v models.Variant, q int) []fixtures.Line {
		return []fixtures.Line{{Product: p, Variant: v, Qty: q}}
	}
	now := time.Now().UTC()
	s.ashaOld = fixtures.MustOrder(t, db, fixtures.OrderSpec{Customer: s.asha, CreatedAt: now.Add(-3 * time.Hour), Lines: line(s.shirt, s.shirtM, 1)})
	s.rahulCancelled = fixtures.MustOrder(t, db, fixtures.OrderSpec{Customer: s.rahul, Status: models.OrderCancelled, CreatedAt: now.Add(-2 * time.Hour), Lines: line(s.tote, s.toteV, 1)})
	s.rahulNew = fixtures.MustOrder(t, db, fixtures.OrderSpec{Customer: s.rahul, CreatedAt: now.Add(-time.Hour), Lines: line(s.tote, s.toteV, 2)})
	s.ashaNew = fixtures.MustOrder(t, db, fixtures.OrderSpec{Customer: s.asha, CreatedAt: now.Add(-time.Minute), Lines: line(s.shirt, s.shirtM, 1)})
	if err := db.Exec(`INSERT INTO reviews (product_id, customer_id, rating, comment, verified_purchase) VALUES (?, ?, 4, 'Soft and cool', true)`,
		s.shirt.ID, s.asha.ID).Error; err != nil {
		t.Fatal(err)
	}
	return s
}

// A merchant finds and names things in the console as they know them:
// products by SKU with their stock and category, published and archived
// together; orders by customer name or part of the number, a customer
// picked by name, several fulfilled at once (a refused one corrected and
// sent again), exported as CSV; fulfilment lines and the history in names;
// reviews by product title; discounts, bundle items and price-list rules
// by product, category and SKU; the audit log by admin and entity; dialogs
// that say what their buttons do; a delete that says whether it archived;
// a dashboard whose order count matches its average; a shipping zone that
// blocks checkout flagged; and a warning before a super admin demotes
// themself. Every page passes the accessibility check.
func TestConsoleNamesPickersAndBulk(t *testing.T) {
	bin := needChromium(t)
	app := testkit.MustApp(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) {
		c.AdminGeneralRateLimit, c.AdminAnalyticsRateLimit, c.AdminBulkRateLimit = 100000, 100000, 100000
	}))
	merchant, token := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	s := mustShop(t, app, token)
	b := newBrowser(t, bin, app.URL)
	b.open("/admin/products", app.Config.AppName+" admin")
	signIn(b, merchant.Email)
	b.waitHeading("Products")

	t.Run("products by SKU, stock and category, bulk publish and archive", func(t *testing.T) { productsList(t, b.withT(t), app, s) })
	t.Run("orders searched, a customer picked, fulfilled together, exported", func(t *testing.T) { ordersList(t, b.withT(t), app, token, s) })
	t.Run("an order names its lines, shipments and history", func(t *testing.T) { orderNames(t, b.withT(t), s) })
	t.Run("reviews, discounts, bundles and price lists by name", func(t *testing.T) { catalogNames(t, b.withT(t), app, token, s) })
	t.Run("the audit log by admin and entity", func(t *testing.T) { auditNames(t, b.withT(t), app, token, merchant, s) })
	t.Run("dialogs, deletes, dashboard, shipping and self-demotion", func(t *testing.T) { merchantSafety(t, b.withT(t), app, token, merchant, s) })
	t.Run("a large export is a job", func(t *testing.T) { exportJob(t, b.withT(t), app) })
	b.check()
}

// tick clicks the checkbox matched by a CSS selector, with the mouse.
func (b *browser) tick(css string) {
	b.t.Helper()
	b.do("check "+css, chromedp.Click(chromedp.CSS(css), chromedp.NodeVisible))
}

func productsList(t *testing.T, b *browser, app *testkit.App, s *shop) {
	b.open("/admin/products", "Products")
	b.fill("Find products", "Search", "ls-l")
	b.press("Find products", "Search")
	b.waitUntil("the shirt found by part of a SKU", `location.search.includes('search=ls-l') && document.querySelectorAll('main tbody tr').length === 1`)
	row := eval[string](b, `document.querySelector('main tbody tr').innerText`)
	if !strings.Contains(row, "Linen Shirt") || !strings.Contains(row, "Tees") || !strings.Contains(row, "3 available") || !strings.Contains(row, "5 on hand · 2 variants") {
		t.Fatalf("the shirt's row: %q", row)
	}
	b.accessible()

	b.open("/admin/products", "Products")
	for _, p := range []models.Product{s.shirt, s.tote, s.poster} {
		b.tick(fmt.Sprintf(`input[name="select-%s"]`, p.ID))
	}
	b.press("", "Publish selected")
	b.waitUntil("the confirmation", `!!document.querySelector('dialog[open].confirm')`)
	b.press("", "Publish 3 products")
	b.waitText("2 products published. Not changed: Old Poster (archived: move it to draft first).")
	status := func(p models.Product) string {
		var st string
		app.DB.Raw(`SELECT status FROM products WHERE id = ?`, p.ID).Scan(&st)
		return st
	}
	if status(s.shirt) != "active" || status(s.tote) != "active" || status(s.poster) != "archived" {
		t.Fatalf("after publishing: %s %s %s", status(s.shirt), status(s.tote), status(s.poster))
	}
	b.tick(fmt.Sprintf(`input[name="select-%s"]`, s.tote.ID))
	b.press("", "Archive selected")
	b.press("", "Archive product")
	b.waitText("1 product archived.")
	if status(s.tote) != "archived" {
		t.Fatalf("the tote is %s", status(s.tote))
	}
	b.accessible()
}

func ordersList(t *testing.T, b *browser, app *testkit.App, token string, s *shop) {
	b.open("/admin/orders", "Orders")
	numbers := func() []string {
		return eval[[]string](b, `[...document.querySelectorAll('main tbody tr td[data-label="Order"] a')].map((a) => a.textContent)`)
	}
	b.fill("Filter orders", "Search", "ASHA")
	b.press("Filter orders", "Filter")
	b.waitUntil("Asha's orders", `location.search.includes('search=ASHA') && document.querySelectorAll('main tbody tr').length === 2`)
	if got := numbers(); !slices.Equal(got, []string{s.ashaNew.OrderNumber, s.ashaOld.OrderNumber}) {
		t.Fatalf("search asha: %v", got)
	}

	// The COD orders still to collect: paid by cash on delivery, pending.
	if err := app.DB.Exec(`UPDATE orders SET payment_method = 'cod', payment_status = 'pending' WHERE id = ?`, s.ashaOld.ID).Error; err != nil {
		t.Fatal(err)
	}
	b.open("/admin/orders", "Orders")
	b.fill("Filter orders", "Paid by", "cod")
	b.fill("Filter orders", "Payment", "pending")
	b.press("Filter orders", "Filter")
	b.waitUntil("the COD orders to collect", `location.search.includes('paymentMethod=cod') && location.search.includes('paymentStatus=pending') &&
		document.querySelectorAll('main tbody tr').length === 1`)
	if got := numbers(); !slices.Equal(got, []string{s.ashaOld.OrderNumber}) {
		t.Fatalf("COD to collect: %v", got)
	}
	if got := b.pageText(); !strings.Contains(got, "Cash on delivery") {
		t.Fatalf("the row does not say how the order is paid:\n%s", got)
	}

	// A customer picked by name, and named again after the page reloads.
	b.open("/admin/orders", "Orders")
	b.pick("Filter orders", "Customer", "khanna", "Rahul Khanna")
	b.press("Filter orders", "Filter")
	b.waitUntil("Rahul's orders", fmt.Sprintf(`location.search.includes('customerId=%s') && document.querySelectorAll('main tbody tr').length === 2`, s.rahul.ID))
	b.open("/admin/orders?customerId="+s.rahul.ID.String(), "Orders")
	if got := eval[string](b, `document.querySelector('form[aria-label="Filter orders"] [role=combobox]').value`); got != "Rahul Khanna" {
		t.Fatalf("the customer filter shows %q", got)
	}
	b.accessible()

	// Two orders fulfilled together: one refused (a bad tracking link),
	// corrected and sent again; the other is not sent twice.
	b.open("/admin/orders", "Orders")
	b.tick(fmt.Sprintf(`input[name="select-%s"]`, s.ashaNew.ID))
	b.tick(fmt.Sprintf(`input[name="select-%s"]`, s.rahulNew.ID))
	if eval[bool](b, fmt.Sprintf(`!!document.querySelector('input[name="select-%s"]')`, s.rahulCancelled.ID)) {
		t.Fatal("a cancelled order can be selected for fulfilment")
	}
	b.press("", "Fulfil 2 selected…")
	b.fill("", "Carrier", "Delhivery")
	b.set(fmt.Sprintf(`input[name="tracking-%s"]`, s.ashaNew.ID), "DL-1")
	b.press("", "Fulfil 2 orders")
	b.waitUntil("the missing tracking number named", fmt.Sprintf(`document.querySelector('dialog[open]').innerText.includes('Tracking number of %s is required.')`, s.rahulNew.OrderNumber))
	b.set(fmt.Sprintf(`input[name="tracking-%s"]`, s.rahulNew.ID), "DL-3")
	b.set(fmt.Sprintf(`input[name="tracking-url-%s"]`, s.rahulNew.ID), "not a link")
	b.press("", "Fulfil 2 orders")
	b.waitUntil("one fulfilled, one refused", `document.querySelector('dialog[open]').innerText.includes('1 fulfilled, 1 refused')`)
	b.accessible()
	b.set(fmt.Sprintf(`input[name="tracking-url-%s"]`, s.rahulNew.ID), "https://track.example/DL-3")
	b.press("", "Fulfil 2 orders")
	b.waitText("2 orders fulfilled.")
	var shipments []models.Fulfillment
	app.DB.Order("tracking_number").Find(&shipments, "order_id IN ?", []any{s.ashaNew.ID, s.rahulNew.ID})
	if len(shipments) != 2 || shipments[0].TrackingNumber != "DL-1" || shipments[1].TrackingNumber != "DL-3" ||
		shipments[1].TrackingURL != "https://track.example/DL-3" || shipments[0].Carrier != "Delhivery" {
		t.Fatalf("fulfilments %+v", shipments)
	}

	// The filtered orders as CSV, downloaded by the browser.
	dir := downloads(t, b)
	b.open("/admin/orders?search=asha", "Orders")
	b.press("", "Export CSV")
	b.waitText("Exported 2 orders.")
	rows := downloaded(t, dir, 3)
	if rows[1][0] != s.ashaNew.OrderNumber || rows[2][0] != s.ashaOld.OrderNumber || rows[1][5] != "Asha Verma" {
		t.Fatalf("exported %q", rows)
	}
}

// downloads lets the tab download into a new directory and returns it.
func downloads(t *testing.T, b *browser) string {
	t.Helper()
	dir := t.TempDir()
	b.do("allow downloads", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
			Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir})
		return err
	}))
	return dir
}

// downloaded waits for the one CSV file of dir and returns its rows, which
// must number want.
func downloaded(t *testing.T, dir string, want int) [][]string {
	t.Helper()
	var rows [][]string
	testkit.Eventually(t, 20*time.Second, "the downloaded CSV", func() bool {
		files, _ := filepath.Glob(filepath.Join(dir, "*.csv"))
		if len(files) != 1 {
			return false
		}
		f, err := os.Open(files[0])
		if err != nil {
			return false
		}
		defer f.Close()
		rows, err = csv.NewReader(f).ReadAll()
		return err == nil && len(rows) == want
	})
	return rows
}

func orderNames(t *testing.T, b *browser, s *shop) {
	b.open("/admin/orders/"+s.ashaNew.ID.String(), "Order "+s.ashaNew.OrderNumber)
	items := eval[string](b, `document.querySelector('main td[data-label="Items"] li').textContent`)
	if items != "1 × Linen Shirt — M / White (LS-M-WHT)" {
		t.Fatalf("fulfilment line %q", items)
	}
	if line := eval[string](b, `document.querySelector('main td[data-label="Item"]').innerText`); !strings.Contains(line, "M / White · LS-M-WHT") {
		t.Fatalf("order line %q", line)
	}
	history := eval[string](b, `[...document.querySelectorAll('.timeline li')].map((l) => l.innerText).join('\n')`)
	if !strings.Contains(history, "Shipped 1 unit by Delhivery DL-1") || strings.Contains(history, s.ashaNew.ID.String()) {
		t.Fatalf("history:\n%s", history)
	}
	b.accessible()
}

func catalogNames(t *testing.T, b *browser, app *testkit.App, token string, s *shop) {
	// Reviews carry their product's title and are filtered by a product
	// picked by title.
	b.open("/admin/reviews", "Reviews")
	if got := eval[string](b, `document.querySelector('main td[data-label="Product"] a').textContent`); got != "Linen Shirt" {
		t.Fatalf("review's product %q", got)
	}
	b.pick("Filter reviews", "Product", "linen", "Linen Shirt")
	b.press("Filter reviews", "Filter")
	b.waitUntil("the shirt's reviews", fmt.Sprintf(`location.search.includes('productId=%s') && document.querySelectorAll('main tbody tr').length === 1`, s.shirt.ID))
	b.accessible()

	// A discount on a product and a category, picked by name.
	b.open("/admin/discounts", "Discounts")
	b.press("", "New discount")
	b.fill("", "Code", "LINEN10")
	b.fill("", "Value", "10")
	b.fill("", "Scope", "PRODUCT")
	b.pick("", "Products", "ls-m", "Linen Shirt")
	b.pick("", "Categories", "te", "Tees")
	b.accessible()
	b.press("", "Create discount")
	b.waitText("Discount created.")
	b.waitText("Linen Shirt, Tees")
	var d struct {
		Data []struct {
			ProductIDs  []string `json:"productIds"`
			CategoryIDs []string `json:"categoryIds"`
		} `json:"data"`
	}
	app.Do(t, "GET", "/api/v1/admin/discounts", testkit.Req{Token: token}).Expect(t, 200).JSON(t, &d)
	if len(d.Data) != 1 || !slices.Equal(d.Data[0].ProductIDs, []string{s.shirt.ID.String()}) || !slices.Equal(d.Data[0].CategoryIDs, []string{s.tees}) {
		t.Fatalf("discount %+v", d.Data)
	}

	// A bundle item picked by SKU and shown by name.
	bundle := app.Do(t, "POST", "/api/v1/admin/bundles", testkit.Req{Token: token, Body: map[string]any{"title": "Summer set", "discountPercent": 5}}).Expect(t, 201).Map(t)
	app.Do(t, "POST", "/api/v1/admin/bundles/"+bundle["id"].(string)+"/sets", testkit.Req{Token: token,
		Body: map[string]any{"title": "Shirt", "minQuantity": 1, "maxQuantity": 1}}).Expect(t, 201)
	b.open("/admin/bundles/"+bundle["id"].(string), "Summer set")
	b.press("", "Add item")
	b.pick("", "Variant", "LS-L", "Linen Shirt — L / White")
	b.press("", "Save")
	b.waitText("Item added.")
	b.waitText("Linen Shirt — L / White")
	b.waitText("LS-L-WHT")
	b.accessible()

	// A price list whose rules are SKUs.
	app.Do(t, "POST", "/api/v1/admin/customer-groups", testkit.Req{Token: token, Body: map[string]any{"name": "Wholesale"}}).Expect(t, 201)
	b.open("/admin/price-lists", "Price lists")
	b.press("", "New price list")
	b.fill("", "Name", "Trade")
	b.fill("", "Rules", "LS-M-WHT 899\nNOPE-1 10")
	b.press("", "Create price list")
	b.waitUntil("the unknown SKU refused", `document.querySelector('dialog[open]').innerText.includes('Rule on line 2: no variant has the SKU NOPE-1.')`)
	b.fill("", "Rules", "LS-M-WHT 899")
	b.press("", "Create price list")
	b.waitText("Price list created.")
	var rule struct{ VariantID string }
	app.DB.Raw(`SELECT variant_id FROM price_list_rules`).Scan(&rule)
	if rule.VariantID != s.shirtM.ID.String() {
		t.Fatalf("rule for variant %s, want %s", rule.VariantID, s.shirtM.ID)
	}
	b.press("", "Edit Trade")
	b.waitUntil("the rule by SKU", `document.querySelector('dialog[open] textarea[name="rules"]').value === 'LS-M-WHT 899'`)
	b.press("", "Close")
}

func auditNames(t *testing.T, b *browser, app *testkit.App, token string, merchant *models.Admin, s *shop) {
	// Entries of the kinds named in one request besides products, variants
	// and orders: a customer, a return, a collection, a webhook (the
	// bundle's is catalogNames').
	admin := func(method, path string, body map[string]any, status int) map[string]any {
		return app.Do(t, method, "/api/v1/admin"+path, testkit.Req{Token: token, Body: body}).Expect(t, status).Map(t)
	}
	admin("PATCH", "/customers/"+s.asha.ID.String(), map[string]any{"phone": "+91 98450 12345"}, 200)
	var item string
	app.DB.Raw(`SELECT id FROM order_items WHERE order_id = ?`, s.ashaNew.ID).Scan(&item)
	admin("POST", "/orders/"+s.ashaNew.ID.String()+"/returns", map[string]any{"items": []map[string]any{{"orderItemId": item, "quantity": 1, "reason": "damaged"}}}, 201)
	admin("POST", "/collections", map[string]any{"name": "Monsoon picks", "slug": "monsoon-picks"}, 201)
	admin("POST", "/webhooks", map[string]any{"url": "https://8.8.8.8/hooks/shop", "events": []string{"return.received"}, "description": "ERP"}, 201)

	b.open("/admin/audit", "Audit log")
	admins := eval[[]string](b, `[...document.querySelectorAll('main td[data-label="Admin"] a')].map((a) => a.textContent)`)
	if len(admins) == 0 || slices.ContainsFunc(admins, func(a string) bool { return a != merchant.Name && a != merchant.Email }) {
		t.Fatalf("admins named %v, want %q", admins, merchant.Name)
	}
	entity := eval[map[string]string](b, `Object.fromEntries([...document.querySelectorAll('main tbody tr')].map((tr) =>
		[tr.querySelector('td[data-label="Action"]').innerText, tr.querySelector('td[data-label="Entity"]').innerText]))`)
	for action, want := range map[string]string{
		"customer.update":   "Asha Verma " + s.asha.Email,
		"return.create":     "Return of " + s.ashaNew.OrderNumber + " Requested",
		"bundle.create":     "Summer set",
		"collection.create": "Monsoon picks monsoon-picks",
		"webhook.create":    "https://8.8.8.8/hooks/shop ERP",
		"product.create":    "Linen Shirt",
		"category.create":   "Tees tees",
	} {
		if got := strings.Join(strings.Fields(entity[action]), " "); got != want {
			t.Errorf("the entity of %s reads %q, want %q", action, entity[action], want)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	// A customer picked as the entity is named again after a reload.
	b.open("/admin/audit?entityId="+s.asha.ID.String(), "Audit log")
	if got := eval[string](b, `document.querySelectorAll('form[aria-label="Filter the audit log"] [role=combobox]')[1].value`); got != "Asha Verma" {
		t.Fatalf("the entity filter shows %q after a reload", got)
	}
	b.waitUntil("Asha's entry", `document.querySelectorAll('main tbody tr').length === 1`)
	b.pick("Filter the audit log", "Entity", "linen", "Linen Shirt")
	b.press("Filter the audit log", "Filter")
	b.waitUntil("the shirt's entries", fmt.Sprintf(`location.search.includes('entityId=%s') && document.querySelectorAll('main tbody tr').length > 0`, s.shirt.ID))
	entities := eval[[]string](b, `[...document.querySelectorAll('main td[data-label="Entity"]')].map((e) => e.innerText)`)
	for _, e := range entities {
		if !strings.HasPrefix(e, "Linen Shirt") {
			t.Fatalf("entity %q among %v", e, entities)
		}
	}
	b.pick("Filter the audit log", "Admin", strings.Fields(merchant.Name)[0], merchant.Name)
	b.press("Filter the audit log", "Filter")
	b.waitUntil("the admin filter", fmt.Sprintf(`location.search.includes('adminId=%s')`, merchant.ID))
	b.accessible()
}

func merchantSafety(t *testing.T, b *browser, app *testkit.App, token string, merchant *models.Admin, s *shop) {
	// Cancelling an order: the dialog's buttons say what they do, and
	// keeping the order keeps it.
	b.open("/admin/orders/"+s.ashaOld.ID.String(), "Order "+s.ashaOld.OrderNumber)
	b.press("", "Cancel order")
	buttons := eval[[]string](b, `[...document.querySelectorAll('dialog[open] button')].map((b) => b.textContent)`)
	if !slices.Equal(buttons, []string{"Keep order", "Cancel order"}) {
		t.Fatalf("the dialog's buttons: %v", buttons)
	}
	b.press("", "Keep order")
	var st string
	app.DB.Raw(`SELECT status FROM orders WHERE id = ?`, s.ashaOld.ID).Scan(&st)
	if st != "confirmed" {
		t.Fatalf("kept order is %s", st)
	}

	// Deleting a product with orders archives it, and says so.
	b.open("/admin/products/"+s.shirt.ID.String(), "Linen Shirt")
	b.press("", "Delete")
	b.press("", "Delete product")
	b.waitHeading("Products")
	b.waitText("Linen Shirt has orders, so it was archived instead of deleted")
	b.open("/admin/products/"+s.poster.ID.String(), "Old Poster")
	b.press("", "Delete")
	b.press("", "Delete product")
	b.waitText("Old Poster deleted.")

	// The dashboard counts the orders its average counts.
	var rep struct {
		TotalOrders    int            `json:"totalOrders"`
		OrdersByStatus map[string]int `json:"ordersByStatus"`
	}
	b.open("/admin/", "Dashboard")
	app.Do(t, "GET", "/api/v1/admin/analytics/orders", testkit.Req{Token: token}).Expect(t, 200).JSON(t, &rep)
	stat := eval[string](b, `[...document.querySelectorAll('.stat')].find((s) => s.querySelector('.stat-label').textContent === 'Orders').innerText`)
	want := fmt.Sprintf("%d", rep.TotalOrders-rep.OrdersByStatus["cancelled"])
	if rep.OrdersByStatus["cancelled"] != 1 || !strings.Contains(stat, want) || !strings.Contains(stat, "not counting 1 cancelled") {
		t.Fatalf("the Orders stat %q, report %+v", stat, rep)
	}

	// A zone without an active method is flagged once another zone has one.
	south := app.Do(t, "POST", "/api/v1/admin/shipping/zones", testkit.Req{Token: token, Body: map[string]any{"name": "South", "states": []string{"Karnataka"}}}).Expect(t, 201).Map(t)
	app.Do(t, "POST", "/api/v1/admin/shipping/zones/"+south["id"].(string)+"/methods", testkit.Req{Token: token,
		Body: map[string]any{"name": "Standard", "price": 49, "minDays": 2, "maxDays": 5}}).Expect(t, 201)
	north := app.Do(t, "POST", "/api/v1/admin/shipping/zones", testkit.Req{Token: token, Body: map[string]any{"name": "North", "states": []string{"Punjab"}}}).Expect(t, 201).Map(t)
	b.open("/admin/shipping", "Shipping")
	b.waitText("Checkout refuses the states of North")
	if flagged := eval[[]string](b, `[...document.querySelectorAll('[data-blocked]')].map((e) => e.dataset.blocked)`); !slices.Equal(flagged, []string{north["id"].(string)}) {
		t.Fatalf("flagged zones %v", flagged)
	}
	b.accessible()

	// A super admin is warned before lowering their own role.
	b.open("/admin/users", "Admin users")
	b.press("", "Edit "+merchant.Email)
	b.fill("", "Role", "admin")
	b.press("", "Save")
	b.waitUntil("the warning", `(document.querySelector('dialog[open].confirm') || {}).innerText?.includes('Change your own role to Admin?')`)
	b.press("", "Stay super admin")
	var role string
	app.DB.Raw(`SELECT role FROM admins WHERE id = ?`, merchant.ID).Scan(&role)
	if role != string(rbac.SuperAdmin) {
		t.Fatalf("role %s after staying", role)
	}
	b.press("", "Close")
}

// exportJob exports more orders than are answered at once: the console
// queues the job, follows it and downloads its file.
func exportJob(t *testing.T, b *browser, app *testkit.App) {
	var before int
	app.DB.Raw(`SELECT count(*) FROM orders`).Scan(&before)
	fixtures.MustManyOrders(t, app.DB, 1001, 5, time.Now().UTC().AddDate(0, 0, -40))
	dir := downloads(t, b)
	b.open("/admin/orders", "Orders")
	b.press("", "Export CSV")
	b.waitUntil("the export job to complete", `document.querySelector('.job')?.dataset.state === 'completed'`)
	b.press("", "Download CSV")
	if rows := downloaded(t, dir, before+1001+1); rows[0][0] != "Order number" {
		t.Fatalf("header %q", rows[0])
	}
	b.accessible()
}
