package console_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
)

// inr writes an amount as the console shows it (en-IN grouping): ₹4,598.00,
// ₹1,23,456.00.
func inr(v float64) string {
	text := strconv.FormatFloat(v, 'f', 2, 64)
	whole, frac := text[:len(text)-3], text[len(text)-3:]
	if len(whole) > 3 {
		head, tail := whole[:len(whole)-3], whole[len(whole)-3:]
		var groups []string
		for len(head) > 2 {
			groups = append([]string{head[len(head)-2:]}, groups...)
			head = head[:len(head)-2]
		}
		if head != "" {
			groups = append([]string{head}, groups...)
		}
		whole = strings.Join(append(groups, tail), ",")
	}
	return "₹" + whole + frac
}

// draftView is what the test reads of a draft order.
type draftView struct {
	ID     string  `json:"id"`
	Status string  `json:"status"`
	Total  float64 `json:"total"`
	// CODTotal is the total with the COD fee.
	CODTotal float64 `json:"codTotal"`
	OrderID  *string `json:"orderId"`
	Items    []struct {
		Quantity int `json:"quantity"`
	} `json:"items"`
	ShippingMethodID *string `json:"shippingMethodId"`
	PaymentLink      *struct {
		URL string `json:"url"`
	} `json:"paymentLink"`
}

// Staff builds a draft order for a customer picked by name: the draft is
// created with its first line, its totals are the server's and follow the
// quantity typed, and it is completed as cash on delivery, becoming an
// order: before it commits, the amount to collect with the COD fee is
// said, and the drafts list links the order it made. Another draft is completed as paid offline with a reference, and
// a third by a payment link whose address the page shows with a Copy
// button; a fourth is deleted.
func TestConsoleDraftsBuildAndComplete(t *testing.T) {
	bin := needChromium(t)
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) { c.AdminGeneralRateLimit = 100000 }))
	_, token := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	staff, _ := testkit.MustAdmin(t, app, string(rbac.Staff))
	do := func(method, path string, body any) *testkit.Response {
		return app.Do(t, method, "/api/v1/admin"+path, testkit.Req{Token: token, Body: body})
	}
	draft := func(id string) draftView {
		var d draftView
		do("GET", "/draft-orders/"+id, nil).Expect(t, 200).JSON(t, &d)
		return d
	}
	p := fixtures.MustProduct(t, app.DB, "Silk Stole", 150000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 20)
	fixtures.MustCustomer(t, app.DB, "Meera Iyer")
	zone := do("POST", "/shipping/zones", map[string]any{"name": "South", "states": []string{"Karnataka"}}).Expect(t, 201).Map(t)
	method := do("POST", "/shipping/zones/"+zone["id"].(string)+"/methods", map[string]any{"name": "Standard", "price": 49, "minDays": 2, "maxDays": 5, "isActive": true}).
		Expect(t, 201).Map(t)["id"].(string)

	do("PUT", "/settings/payments", map[string]any{"cod": map[string]any{"enabled": true, "fee": 49, "feeGstRate": 18,
		"maxOrderAmount": 0, "maxOpenPerCustomer": 3, "zoneIds": []string{}}}).Expect(t, 200)

	b := newBrowser(t, bin, app.URL)
	b.open("/admin/draft-orders", app.Config.AppName+" admin")
	signIn(b, staff.Email)
	b.waitHeading("Draft orders")
	b.waitUntil("Draft orders in the menu", `!!document.querySelector('nav#nav a[href="/admin/draft-orders"]')`)
	b.press("", "New draft order")
	b.waitHeading("New draft order")
	b.pick("Draft order", "Customer", "Meera", "Meera Iyer")
	b.fill("Draft order", "Street", "12 MG Road")
	b.fill("Draft order", "City", "Bengaluru")
	b.fill("Draft order", "State", "Karnataka")
	b.fill("Draft order", "PIN code", "560001")
	b.fill("Draft order", "Shipping method", method)
	b.pick("Draft order", "Add a variant", "Silk", "Silk Stole")
	// The first line creates the draft; the page moves to its address.
	b.waitUntil("the draft created with its totals", `location.pathname.startsWith('/admin/draft-orders/') && !location.pathname.endsWith('/new')
		&& !!document.querySelector('.draft-totals')`)
	id := eval[string](b, `location.pathname.split('/').pop()`)
	d := draft(id)
	if len(d.Items) != 1 || d.Items[0].Quantity != 1 || d.ShippingMethodID == nil || *d.ShippingMethodID != method {
		t.Fatalf("created draft %+v", d)
	}
	shown := func() float64 {
		f, _ := strconv.ParseFloat(eval[string](b, `document.querySelector('.draft-totals').dataset.total`), 64)
		return f
	}
	if shown() != d.Total {
		t.Fatalf("the page shows a total of %v, the server %v", shown(), d.Total)
	}
	one := d.Total
	b.accessible()

	// Three units: saved after a moment, and the server's new total shown.
	eval[bool](b, `(() => { const q = document.querySelector('form[aria-label="Draft order"] input[name=quantity]'); q.value = '3';
		q.dispatchEvent(new Event('change', { bubbles: true })); return true; })()`)
	b.waitUntil("the total of three units", fmt.Sprintf(`Number(document.querySelector('.draft-totals').dataset.total) !== %v`, one))
	d = draft(id)
	if d.Items[0].Quantity != 3 || shown() != d.Total || d.Total <= one {
		t.Fatalf("after three units: draft %+v, page total %v", d, shown())
	}
	collect := "Collect " + inr(d.CODTotal) + " on delivery (includes COD fee ₹49.00)"
	if d.CODTotal != d.Total+49 {
		t.Fatalf("the draft's codTotal %v, total %v", d.CODTotal, d.Total)
	}
	b.waitText(collect)
	b.press("", "Complete as cash on delivery")
	b.waitUntil("the amount to collect asked before it commits", `(document.querySelector('dialog[open]') || {innerText: ''}).innerText.includes(`+js(collect)+`)`)
	if d = draft(id); d.Status != "open" {
		t.Fatalf("the draft completed before the confirmation: %+v", d)
	}
	b.press("", "Complete as COD")
	b.waitHeading("Order ")
	b.waitText("Draft completed: the order is placed.")
	if d = draft(id); d.Status != "completed" || d.OrderID == nil {
		t.Fatalf("after COD: %+v", d)
	}

	// A guest's draft, paid offline.
	body := func(email string) map[string]any {
		return map[string]any{"email": email, "name": "Kiran Rao", "phone": "+91 98450 11111", "shippingMethodId": method,
			"items":           []any{map[string]any{"variantId": v.ID.String(), "quantity": 2}},
			"shippingAddress": map[string]any{"street": "3 Park Street", "city": "Mysuru", "state": "Karnataka", "pincode": "570001", "country": "India"}}
	}
	offline := do("POST", "/draft-orders", body("kiran@example.com")).Expect(t, 201).Map(t)["id"].(string)
	b.open("/admin/draft-orders/"+offline, "Draft order for Kiran Rao")
	b.press("", "Paid offline…")
	b.fill("Offline payment", "Method", "bank_transfer")
	b.fill("Offline payment", "Reference", "UTR-88")
	b.press("Offline payment", "Complete as paid")
	b.waitHeading("Order ")
	if d = draft(offline); d.Status != "completed" || d.OrderID == nil {
		t.Fatalf("after the offline payment: %+v", d)
	}

	// A payment link: the page shows its address.
	linked := do("POST", "/draft-orders", body("kiran.link@example.com")).Expect(t, 201).Map(t)["id"].(string)
	b.open("/admin/draft-orders/"+linked, "Draft order for Kiran Rao")
	b.press("", "Send a payment link")
	b.waitText("Payment link created and emailed to the customer.")
	d = draft(linked)
	if d.Status != "awaiting_payment" || d.PaymentLink == nil || d.PaymentLink.URL == "" {
		t.Fatalf("after the link: %+v", d)
	}
	b.waitUntil("the link's address", fmt.Sprintf(`(document.querySelector('a.payment-link') || {}).textContent === %s`, js(d.PaymentLink.URL)))
	// Copy puts the address on the clipboard; Share is there only where the
	// browser can share.
	eval[bool](b, `(() => { window.copied = []; Object.defineProperty(navigator, 'clipboard', { configurable: true,
		value: { writeText: async (t) => { window.copied.push(t); } } }); return true; })()`)
	b.press("", "Copy the payment link")
	b.waitUntil("the link copied", fmt.Sprintf(`(window.copied || []).includes(%s) && document.querySelector('main').innerText.includes('Copied.')`, js(d.PaymentLink.URL)))
	if share := eval[bool](b, `typeof navigator.share === 'function' === !![...document.querySelectorAll('main button')].find((e) => e.textContent === 'Share')`); !share {
		t.Fatal("the Share button does not follow navigator.share")
	}
	// An open draft is deleted.
	dropped := do("POST", "/draft-orders", body("kiran.drop@example.com")).Expect(t, 201).Map(t)["id"].(string)
	b.open("/admin/draft-orders/"+dropped, "Draft order for Kiran Rao")
	b.press("", "Delete draft")
	b.press("", "Delete draft") // the confirmation
	b.waitHeading("Draft orders")
	b.waitText("Draft order deleted.")
	do("GET", "/draft-orders/"+dropped, nil).Expect(t, 404)
	b.waitUntil("three drafts listed", `document.querySelectorAll('main tbody tr').length === 3`)
	orders := eval[[]string](b, `[...document.querySelectorAll('main tbody a')].filter((a) => a.textContent === 'Open the order').map((a) => a.getAttribute('href'))`)
	if len(orders) != 2 {
		t.Fatalf("the drafts list links the orders %v, want the two completed drafts' orders", orders)
	}
	for _, o := range orders {
		if o != "/admin/orders/"+*draft(id).OrderID && o != "/admin/orders/"+*draft(offline).OrderID {
			t.Fatalf("the drafts list links %s, not a completed draft's order", o)
		}
	}
	b.accessible()
	b.check()
}

// A phone order: staff give a name and a phone, no email; the draft is made
// for the guest record of that phone and the page shows no email.
func TestConsoleDraftByPhone(t *testing.T) {
	bin := needChromium(t)
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) { c.AdminGeneralRateLimit = 100000 }))
	staff, _ := testkit.MustAdmin(t, app, string(rbac.Staff))
	p := fixtures.MustProduct(t, app.DB, "Brass Lamp", 90000)
	fixtures.MustVariant(t, app.DB, p.ID, 5)

	b := newBrowser(t, bin, app.URL)
	b.open("/admin/draft-orders", app.Config.AppName+" admin")
	signIn(b, staff.Email)
	b.waitHeading("Draft orders")
	b.press("", "New draft order")
	b.waitHeading("New draft order")
	b.fill("Draft order", "Name", "Ravi Kumar")
	b.fill("Draft order", "Phone", "98401 23456")
	b.fill("Draft order", "Street", "3 Temple Road")
	b.fill("Draft order", "City", "Mysuru")
	b.fill("Draft order", "State", "Karnataka")
	b.fill("Draft order", "PIN code", "570001")
	b.pick("Draft order", "Add a variant", "Brass", "Brass Lamp")
	b.waitUntil("the draft created", `location.pathname.startsWith('/admin/draft-orders/') && !location.pathname.endsWith('/new')
		&& !!document.querySelector('.draft-totals')`)
	id := eval[string](b, `location.pathname.split('/').pop()`)
	var d struct {
		Email, Phone, Name string
		CustomerID         string `json:"customerId"`
	}
	_, token := testkit.MustAdmin(t, app, string(rbac.Admin))
	app.Do(t, "GET", "/api/v1/admin/draft-orders/"+id, testkit.Req{Token: token}).Expect(t, 200).JSON(t, &d)
	var phone string
	app.DB.Raw(`SELECT phone FROM customers WHERE id = ? AND email = ''`, d.CustomerID).Scan(&phone)
	if d.Email != "" || d.Name != "Ravi Kumar" || phone != "+919840123456" {
		t.Fatalf("draft %+v, customer phone %q", d, phone)
	}
	b.accessible()
	b.check()
}
