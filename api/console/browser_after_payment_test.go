package console_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// These steps drive the console pages built on docs/DECISIONS.md "Shipping", "Fulfilment" and "Returns"
// (shipping, fulfilments, returns). TestConsoleMerchantJourney runs them
// once the server has those routes.

// orderState is the part of the admin order detail these steps check.
type orderState struct {
	Status            string `json:"status"`
	FulfillmentStatus string `json:"fulfillmentStatus"`
	Fulfillments      []struct {
		Carrier        string `json:"carrier"`
		TrackingNumber string `json:"trackingNumber"`
		Status         string `json:"status"`
	} `json:"fulfillments"`
}

func readOrder(t *testing.T, app *testkit.App, token, id string) orderState {
	t.Helper()
	var o orderState
	app.Do(t, "GET", "/api/v1/admin/orders/"+id, testkit.Req{Token: token}).Expect(t, 200).JSON(t, &o)
	return o
}

// fulfilAndReturn ships the order in two parts with tracking, delivers
// both, then takes back the medium tee: opened, approved, received with
// restock and refunded, all from the console.
func fulfilAndReturn(t *testing.T, b *browser, app *testkit.App, token string, order models.Order) {
	var items []models.OrderItem
	app.DB.Order("sku DESC").Find(&items, "order_id = ?", order.ID) // CT-S before CT-M
	if len(items) != 2 {
		t.Fatalf("order items %d", len(items))
	}
	small, medium := items[0], items[1]
	id := order.ID.String()
	page := "/admin/orders/" + id
	heading := "Order " + order.OrderNumber

	ship := func(quantities map[string]string, carrier, tracking string) {
		b.open(page, heading)
		for itemID, qty := range quantities {
			b.set(fmt.Sprintf(`form[aria-label="Fulfil"] input[name="qty-%s"]`, itemID), qty)
		}
		b.fill("Fulfil", "Carrier", carrier)
		b.fill("Fulfil", "Tracking number", tracking)
		b.fill("Fulfil", "Tracking link", "https://track.example/"+tracking)
		b.press("Fulfil", "Create fulfilment")
		b.waitText("Fulfilment created.")
		b.waitText(tracking)
	}
	// Too many units are refused; the corrected fulfilment then goes
	// through with a new Idempotency-Key.
	b.open(page, heading)
	b.set(fmt.Sprintf(`form[aria-label="Fulfil"] input[name="qty-%s"]`, small.ID), "9")
	b.fill("Fulfil", "Carrier", "Delhivery")
	b.fill("Fulfil", "Tracking number", "DLV-0")
	b.press("Fulfil", "Create fulfilment")
	b.waitUntil("the refusal of 9 units", `!!document.querySelector('form[aria-label="Fulfil"] .form-status .notice.error')`)
	if o := readOrder(t, app, token, id); len(o.Fulfillments) != 0 {
		t.Fatalf("a refused fulfilment was made: %+v", o)
	}
	b.set(fmt.Sprintf(`form[aria-label="Fulfil"] input[name="qty-%s"]`, small.ID), "1")
	b.set(fmt.Sprintf(`form[aria-label="Fulfil"] input[name="qty-%s"]`, medium.ID), "0")
	b.fill("Fulfil", "Tracking number", "DLV-1")
	b.fill("Fulfil", "Tracking link", "https://track.example/DLV-1")
	b.press("Fulfil", "Create fulfilment")
	b.waitText("Fulfilment created.")
	b.waitText("DLV-1")
	if o := readOrder(t, app, token, id); o.FulfillmentStatus != "partially_fulfilled" || o.Status != "processing" || len(o.Fulfillments) != 1 {
		t.Fatalf("after the first part: %+v", o)
	}
	returnsOfPartlyFulfilled(t, b, app, order, small)
	ship(map[string]string{}, "BlueDart", "BD-2") // the rest, as the form offers it
	if o := readOrder(t, app, token, id); o.FulfillmentStatus != "fulfilled" || o.Status != "shipped" || len(o.Fulfillments) != 2 {
		t.Fatalf("after the second part: %+v", o)
	}
	b.accessible()
	for left := 1; left >= 0; left-- {
		b.press("", "Mark delivered")
		b.waitUntil(fmt.Sprintf("%d fulfilments left to deliver", left), fmt.Sprintf(
			`[...document.querySelectorAll('main button')].filter((e) => e.textContent === 'Mark delivered').length === %d && !document.querySelector('main > .loading')`, left))
	}
	if o := readOrder(t, app, token, id); o.Status != "delivered" {
		t.Fatalf("after delivery: %+v", o)
	}

	b.press("", "Open a return…")
	b.set(fmt.Sprintf(`input[name="return-qty-%s"]`, medium.ID), "1")
	b.set(fmt.Sprintf(`select[name="return-reason-%s"]`, medium.ID), "damaged")
	b.press("New return", "Open return")
	b.waitText("Return opened.")
	b.press("", "Approve")
	b.waitText("Return approved.")
	b.press("Receive return", "Mark received")
	b.waitText("Return received.")
	b.press("", "Refund ₹499.50")
	b.waitUntil("the confirmation", `!!document.querySelector('dialog[open].confirm')`)
	b.press("", "Refund ₹499.50") // the confirmation dialog's
	b.waitText("Return refunded.")
	var after models.Order
	app.DB.Take(&after, "id = ?", order.ID)
	if after.RefundedTotal != 10025+49950 {
		t.Fatalf("refunded %d after the return, want %d", after.RefundedTotal, 10025+49950)
	}
	var v models.Variant
	app.DB.Take(&v, "id = ?", medium.VariantID)
	if v.Inventory != 5 { // shipped one, the return put it back
		t.Fatalf("medium on hand %d after the restock, want 5", v.Inventory)
	}

	// The history tells the whole story in names: shipments by carrier and
	// tracking number, the refunds and the returns.
	b.open(page, heading)
	history := eval[string](b, `[...document.querySelectorAll('.timeline li')].map((l) => l.innerText.replace(/\s+/g, ' ')).join('\n')`)
	for _, want := range []string{"Shipped 1 unit by Delhivery DLV-1", "Shipped 2 units by BlueDart BD-2", "Delivered: BlueDart BD-2",
		"Refund of ₹100.25", "Refund of ₹499.50", "Return of 1 unit opened by the shop", "Reason: Worn, tags removed", "Return Cancelled"} {
		if !strings.Contains(history, want) {
			t.Fatalf("the history lacks %q:\n%s", want, history)
		}
	}
	if strings.Contains(history, "fulfilment ") {
		t.Fatalf("the history names a fulfilment by id:\n%s", history)
	}
}

// returnsOfPartlyFulfilled opens a return of the one shipped unit of a
// partly fulfilled order: approved, then cancelled (it will not come back:
// stock untouched); opened again and rejected, the reason shown.
func returnsOfPartlyFulfilled(t *testing.T, b *browser, app *testkit.App, order models.Order, small models.OrderItem) {
	var before models.Variant
	app.DB.Take(&before, "id = ?", small.VariantID)
	open := func() {
		b.press("", "Open a return…")
		b.set(fmt.Sprintf(`input[name="return-qty-%s"]`, small.ID), "1")
		b.press("New return", "Open return")
		b.waitText("Return opened.")
	}
	open()
	b.press("", "Approve")
	b.waitText("Return approved.")
	b.press("", "Cancel return")
	b.waitUntil("the confirmation", `!!document.querySelector('dialog[open].confirm')`)
	b.press("", "Cancel return")
	b.waitText("Return cancelled.")
	var after models.Variant
	app.DB.Take(&after, "id = ?", small.VariantID)
	if after.Inventory != before.Inventory || after.Committed != before.Committed || after.Reserved != before.Reserved {
		t.Fatalf("cancelling an approved return moved stock: %+v → %+v", before, after)
	}
	var statuses []string
	app.DB.Raw(`SELECT status FROM returns WHERE order_id = ?`, order.ID).Scan(&statuses)
	if len(statuses) != 1 || statuses[0] != "cancelled" {
		t.Fatalf("returns %v", statuses)
	}
	open()
	b.press("", "Reject…")
	b.fill("Reject return", "Reason", "Worn, tags removed")
	b.press("Reject return", "Reject return")
	b.waitText("Return rejected.")
	b.waitText("Rejected because")
	b.waitText("Worn, tags removed")
	b.accessible()
}

// shippingInConsole creates a zone for Karnataka with a method from the
// shipping page and reads it back from the API.
func shippingInConsole(t *testing.T, b *browser, app *testkit.App, token string) {
	b.open("/admin/shipping", "Shipping")
	b.press("", "New zone")
	b.fill("", "Zone name", "South")
	b.fill("", "Karnataka", "true")
	b.press("", "Save")
	b.waitText("Zone created.")
	b.press("", "Add method")
	b.fill("", "Name", "Standard")
	b.fill("", "Carrier", "Delhivery")
	b.fill("", "Price", "49")
	b.fill("", "Free from", "999")
	b.press("", "Save")
	b.waitText("Method added.")
	b.accessible()
	var zones struct {
		Data []struct {
			Name    string   `json:"name"`
			States  []string `json:"states"`
			Methods []struct {
				Name      string       `json:"name"`
				Price     money.Amount `json:"price"`
				FreeAbove money.Amount `json:"freeAbove"`
			} `json:"methods"`
		} `json:"data"`
	}
	app.Do(t, "GET", "/api/v1/admin/shipping/zones", testkit.Req{Token: token}).Expect(t, 200).JSON(t, &zones)
	if len(zones.Data) != 1 || zones.Data[0].Name != "South" || len(zones.Data[0].States) != 1 || zones.Data[0].States[0] != "Karnataka" ||
		len(zones.Data[0].Methods) != 1 || zones.Data[0].Methods[0].Price != 4900 || zones.Data[0].Methods[0].FreeAbove != 99900 {
		t.Fatalf("zones %+v", zones.Data)
	}
}
