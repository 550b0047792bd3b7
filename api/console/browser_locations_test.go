package console_test

import (
	"fmt"
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// locationsEnv is a server, an admin's token for setting it up through the
// API, and a signed-in console tab.
type locationsEnv struct {
	app   *testkit.App
	token string
	b     *browser
}

// newLocationsEnv starts a server (with opts, e.g. testkit.WithWorker) and a
// browser signed in as role, on path (whose heading is heading).
func newLocationsEnv(t *testing.T, role rbac.Role, path, heading string, opts ...testkit.Option) *locationsEnv {
	t.Helper()
	bin := needChromium(t)
	app := testkit.MustApp(t, append([]testkit.Option{testkit.WithConfig(func(c *config.Config) { c.AdminGeneralRateLimit = 100000 })}, opts...)...)
	_, token := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	who, _ := testkit.MustAdmin(t, app, string(role))
	b := newBrowser(t, bin, app.URL)
	b.open("/admin"+path, app.Config.AppName+" admin")
	signIn(b, who.Email)
	b.waitHeading(heading)
	return &locationsEnv{app: app, token: token, b: b}
}

func (e *locationsEnv) do(t *testing.T, method, path string, body any) *testkit.Response {
	t.Helper()
	return e.app.Do(t, method, "/api/v1/admin"+path, testkit.Req{Token: e.token, Body: body})
}

// location creates a location in Karnataka with priority and returns its id.
func (e *locationsEnv) location(t *testing.T, name, code string, priority int) string {
	t.Helper()
	return e.do(t, "POST", "/locations", map[string]any{"name": name, "code": code, "priority": priority,
		"address": map[string]any{"line1": "4 Market Road", "city": "Mysuru", "state": "Karnataka", "pincode": "570001"}}).
		Expect(t, 201).Map(t)["id"].(string)
}

// level is the units of variant v on hand at location loc.
func (e *locationsEnv) level(t *testing.T, v uuid.UUID, loc string) int {
	t.Helper()
	var res struct {
		Data []struct {
			LocationID string `json:"locationId"`
			OnHand     int    `json:"onHand"`
		} `json:"data"`
	}
	e.do(t, "GET", "/variants/"+v.String()+"/stock", nil).Expect(t, 200).JSON(t, &res)
	for _, l := range res.Data {
		if l.LocationID == loc {
			return l.OnHand
		}
	}
	return 0
}

// defaultLocation is the id of the store's default location.
func (e *locationsEnv) defaultLocation(t *testing.T) string {
	t.Helper()
	var res struct {
		Data []struct {
			ID        string `json:"id"`
			IsDefault bool   `json:"isDefault"`
		} `json:"data"`
	}
	e.do(t, "GET", "/locations?limit=100", nil).Expect(t, 200).JSON(t, &res)
	for _, l := range res.Data {
		if l.IsDefault {
			return l.ID
		}
	}
	t.Fatal("no default location")
	return ""
}

// An admin finds Locations and Transfers in the menu beside Inventory,
// creates a location with its GSTIN, edits its priority and city (the rest
// of its address kept), cannot delete it while it holds units (the
// server's reason shown), and sees a variant's units per location on the
// product page.
func TestConsoleLocationsPageAndStock(t *testing.T) {
	e := newLocationsEnv(t, rbac.Admin, "/locations", "Locations")
	b := e.b
	b.waitUntil("Locations and Transfers in the menu beside Inventory", `(() => {
		const items = [...document.querySelectorAll('nav#nav a')].map((a) => a.getAttribute('href'));
		const i = items.indexOf('/admin/inventory');
		return i >= 0 && items.includes('/admin/locations') && items.includes('/admin/transfers');
	})()`)
	b.press("", "New location")
	b.fill("", "Name", "Pune Depot")
	b.fill("", "Code", "PUN-1")
	b.fill("", "Address", "7 Dock Road")
	b.fill("", "City", "Pune")
	b.fill("", "State", "Maharashtra")
	b.fill("", "PIN code", "411001")
	g := "27AABCS1429B1Z"
	b.fill("", "GSTIN", g+string(gstin.CheckChar(g)))
	b.fill("", "Priority", "5")
	b.press("", "Create location")
	b.waitText("Location created.")
	b.waitUntil("the new row", `[...document.querySelectorAll('main td')].some((td) => td.textContent.includes('Pune Depot'))
		&& [...document.querySelectorAll('main td')].some((td) => td.textContent === 'Pune, Maharashtra')`)
	// The name reads as the name; the code has a column of its own.
	b.waitUntil("the name without the code", `[...document.querySelectorAll('main tbody tr')].some((tr) =>
		tr.querySelector('td[data-label=Location]').textContent === 'Pune Depot' && tr.querySelector('td[data-label=Code]')?.textContent === 'PUN-1')`)
	b.accessible()

	var list struct {
		Data []struct {
			ID       string `json:"id"`
			Code     string `json:"code"`
			Priority int    `json:"priority"`
			GSTIN    string `json:"gstin"`
			Address  struct{ Line1, City, State, Pincode string }
		} `json:"data"`
	}
	find := func() (id string, priority int, addr struct{ Line1, City, State, Pincode string }, gst string) {
		e.do(t, "GET", "/locations?limit=100", nil).Expect(t, 200).JSON(t, &list)
		for _, l := range list.Data {
			if l.Code == "PUN-1" {
				return l.ID, l.Priority, l.Address, l.GSTIN
			}
		}
		t.Fatal("the location made in the console is not listed")
		return
	}
	id, priority, addr, gst := find()
	if priority != 5 || addr.Line1 != "7 Dock Road" || addr.State != "Maharashtra" || gst != g+string(gstin.CheckChar(g)) {
		t.Fatalf("created priority %d, address %+v, GSTIN %q", priority, addr, gst)
	}

	b.press("", "Edit Pune Depot")
	b.fill("", "Priority", "3")
	b.fill("", "City", "Pimpri")
	b.press("", "Save")
	b.waitText("Location saved.")
	if _, priority, addr, _ = find(); priority != 3 || addr != (struct{ Line1, City, State, Pincode string }{"7 Dock Road", "Pimpri", "Maharashtra", "411001"}) {
		t.Fatalf("edited priority %d, address %+v", priority, addr)
	}

	// Units at the location: the server refuses the delete and says why.
	p := fixtures.MustProduct(t, e.app.DB, "Dhurrie", 180000)
	v := fixtures.MustVariant(t, e.app.DB, p.ID, 7)
	e.do(t, "PATCH", "/variants/"+v.ID.String()+"/inventory", map[string]any{"operation": "set", "inventory": 4, "locationId": id}).Expect(t, 200)
	b.press("", "Delete Pune Depot")
	b.press("", "Delete location")
	b.waitUntil("the refusal", `!!document.querySelector('main .notice.error')`)
	e.do(t, "GET", "/locations/"+id, nil).Expect(t, 200)

	b.open("/admin/products/"+p.ID.String(), "Dhurrie")
	b.press("", "Stock per location")
	b.waitUntil("the levels per location", `(() => {
		const rows = [...document.querySelectorAll('.stock-by-location tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent));
		return rows.length === 2 && rows.some((r) => r[0].startsWith('Pune Depot') && r[1] === '4')
			&& rows.some((r) => r[1] === '7') && !document.querySelector('.stock-by-location').innerText.includes('null');
	})()`)
	b.accessible()
	b.check()
}

// Staff moves units between locations: a transfer made with the variant
// picker leaves the source at once, is received at the destination in two
// parts (the receipt's quantities), and
// another is cancelled back to the source; the list filters by status.
func TestConsoleLocationsTransfers(t *testing.T) {
	e := newLocationsEnv(t, rbac.Staff, "/transfers", "Transfers")
	b := e.b
	def := e.defaultLocation(t)
	mys := e.location(t, "Mysuru Store", "MYS", 10)
	p := fixtures.MustProduct(t, e.app.DB, "Sandal Soap", 9900)
	v := fixtures.MustVariant(t, e.app.DB, p.ID, 10)

	b.open("/admin/transfers", "Transfers")
	b.press("", "New transfer")
	b.fill("", "From", def)
	b.fill("", "To", mys)
	b.fill("", "Note", "Diwali stock")
	b.pick("", "Add a variant", "Sandal", "Sandal Soap")
	b.waitUntil("the line", `!!document.querySelector('dialog[open] input[name=quantity]')`)
	eval[bool](b, `(() => { const q = document.querySelector('dialog[open] input[name=quantity]'); q.value = '3';
		q.dispatchEvent(new Event('change', { bubbles: true })); return true; })()`)
	b.accessible()
	b.press("", "Send units")
	b.waitText("Transfer made: its units left the source.")
	b.waitText("3 × Sandal Soap")
	if at, there := e.level(t, v.ID, def), e.level(t, v.ID, mys); at != 7 || there != 0 {
		t.Fatalf("after the transfer: %d at the default, %d at Mysuru; want 7 and 0", at, there)
	}
	// Two of the three arrive first, then the rest.
	b.press("", "Receive")
	b.set("dialog[open] input[name=receive-qty-"+v.ID.String()+"]", "2")
	b.accessible()
	b.press("", "Receive units")
	b.waitText("Units received at Mysuru Store.")
	b.waitText("(2 received)")
	if there := e.level(t, v.ID, mys); there != 2 {
		t.Fatalf("partly received: %d at Mysuru, want 2", there)
	}
	b.press("", "Receive")
	b.press("", "Receive units")
	b.waitUntil("the rest received", `!document.querySelector('dialog[open]') && !document.querySelector('main > .loading')
		&& !document.querySelector('main tbody').textContent.includes('(2 received)')`)
	if there := e.level(t, v.ID, mys); there != 3 {
		t.Fatalf("received: %d at Mysuru, want 3", there)
	}

	e.do(t, "POST", "/inventory/transfers", map[string]any{"fromLocationId": mys, "toLocationId": def,
		"items": []any{map[string]any{"variantId": v.ID.String(), "quantity": 2}}}).Expect(t, 201)
	b.open("/admin/transfers", "Transfers")
	b.press("", "Cancel")
	b.press("", "Cancel transfer") // the confirmation
	b.waitText("Transfer cancelled; its units are back at the source.")
	if there := e.level(t, v.ID, mys); there != 3 {
		t.Fatalf("cancelled: %d at Mysuru, want 3", there)
	}
	b.fill("Filter transfers", "Status", "received")
	b.press("Filter transfers", "Filter")
	b.waitUntil("only the received transfer", `location.search === '?status=received' && !document.querySelector('main > .loading')
		&& document.querySelectorAll('main tbody tr').length === 1 && document.querySelector('main tbody').textContent.includes('Received')`)
	b.accessible()
	b.check()
}

// The fulfil form ships from the location picked, or, left on Automatic,
// sends no location and the server picks the highest-priority location
// holding every unit.
func TestConsoleLocationsFulfilFrom(t *testing.T) {
	e := newLocationsEnv(t, rbac.Staff, "/orders", "Orders")
	b := e.b
	def := e.defaultLocation(t)
	hub := e.location(t, "Chennai Hub", "MAA", 50)
	p := fixtures.MustProduct(t, e.app.DB, "Brass Lamp", 240000)
	v := fixtures.MustVariant(t, e.app.DB, p.ID, 10)
	e.do(t, "PATCH", "/variants/"+v.ID.String()+"/inventory", map[string]any{"operation": "set", "inventory": 5, "locationId": hub}).Expect(t, 200)
	c := fixtures.MustCustomer(t, e.app.DB, "Lakshmi")
	order := func() models.Order {
		return fixtures.MustOrder(t, e.app.DB, fixtures.OrderSpec{Customer: c, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})
	}
	shippedFrom := func(o models.Order) string {
		var res struct {
			Fulfillments []struct {
				LocationID string `json:"locationId"`
			} `json:"fulfillments"`
		}
		e.do(t, "GET", "/orders/"+o.ID.String(), nil).Expect(t, 200).JSON(t, &res)
		if len(res.Fulfillments) != 1 {
			t.Fatalf("%d fulfilments, want 1", len(res.Fulfillments))
		}
		return res.Fulfillments[0].LocationID
	}

	picked := order()
	b.open("/admin/orders/"+picked.ID.String(), "Order "+picked.OrderNumber)
	b.waitUntil("Automatic first", `document.querySelector('form[aria-label=Fulfil] select[name=locationId]').options[0].textContent === 'Automatic (highest priority able to ship)'`)
	eval[bool](b, `(document.querySelector('form[aria-label=Fulfil] select[name=locationId]').focus(), true)`)
	b.waitUntil("the active locations", fmt.Sprintf(`[...document.querySelector('form[aria-label=Fulfil] select[name=locationId]').options].some((o) => o.value === %s && o.textContent.startsWith('Chennai Hub'))`, js(hub)))
	b.accessible()
	b.fill("Fulfil", "Ship from", hub)
	b.fill("Fulfil", "Carrier", "Delhivery")
	b.fill("Fulfil", "Tracking number", "DL-1")
	b.press("Fulfil", "Create fulfilment")
	b.waitText("Fulfilment created.")
	if from := shippedFrom(picked); from != hub {
		t.Fatalf("shipped from %s, want the picked Chennai Hub %s", from, hub)
	}
	if at := e.level(t, v.ID, hub); at != 3 {
		t.Fatalf("%d left at Chennai Hub, want 3", at)
	}

	auto := order()
	b.open("/admin/orders/"+auto.ID.String(), "Order "+auto.OrderNumber)
	b.fill("Fulfil", "Carrier", "Delhivery")
	b.fill("Fulfil", "Tracking number", "DL-2")
	b.press("Fulfil", "Create fulfilment")
	b.waitText("Fulfilment created.")
	if from := shippedFrom(auto); from != def {
		t.Fatalf("shipped from %s, want the default location %s (priority 0)", from, def)
	}
	b.check()
}
