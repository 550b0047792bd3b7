package promotionapi_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/taxrule"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// store is an app with a tax identity (Karnataka), COD on, and two
// shipping zones: Karnataka (₹99) and the rest of India (₹149).
type store struct {
	app              *testkit.App
	token            string
	zoneKA, zoneRest string
	methodKA         string
	discounts        []string
}

func mustStore(t *testing.T) *store {
	t.Helper()
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) { c.AdminGeneralRateLimit = 100000 }))
	_, token := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	g := "29AABCS1429B1Z"
	g += string(gstin.CheckChar(g))
	app.Do(t, http.MethodPut, "/api/v1/admin/settings/tax", testkit.Req{Token: token, Body: map[string]any{
		"legalName": "Sahyadri Handlooms Private Limited", "tradeName": "Sahyadri", "gstin": g,
		"address": map[string]any{"line1": "14 Commercial Street", "line2": "Shivajinagar", "city": "Bengaluru", "state": "Karnataka", "pincode": "560001"}}}).
		Expect(t, http.StatusOK)
	app.Do(t, http.MethodPut, "/api/v1/admin/settings/payments", testkit.Req{Token: token, Body: map[string]any{
		"cod": map[string]any{"enabled": true, "fee": 0, "feeGstRate": 18, "maxOrderAmount": 0, "maxOpenPerCustomer": 1000,
			"zoneIds": []string{}}}}).Expect(t, http.StatusOK)
	s := &store{app: app, token: token}
	var z struct{ ID string }
	app.Do(t, http.MethodPost, "/api/v1/admin/shipping/zones", testkit.Req{Token: token,
		Body: map[string]any{"name": "Karnataka", "states": []string{"Karnataka"}}}).Expect(t, http.StatusCreated).JSON(t, &z)
	s.zoneKA = z.ID
	app.Do(t, http.MethodPost, "/api/v1/admin/shipping/zones", testkit.Req{Token: token,
		Body: map[string]any{"name": "India", "isDefault": true}}).Expect(t, http.StatusCreated).JSON(t, &z)
	s.zoneRest = z.ID
	var m struct{ ID string }
	app.Do(t, http.MethodPost, "/api/v1/admin/shipping/zones/"+s.zoneKA+"/methods", testkit.Req{Token: token,
		Body: map[string]any{"name": "Standard", "carrier": "India Post", "price": 99, "gstRate": 18, "minDays": 2, "maxDays": 5}}).
		Expect(t, http.StatusCreated).JSON(t, &m)
	s.methodKA = m.ID
	app.Do(t, http.MethodPost, "/api/v1/admin/shipping/zones/"+s.zoneRest+"/methods", testkit.Req{Token: token,
		Body: map[string]any{"name": "Standard", "carrier": "India Post", "price": 149, "gstRate": 18, "minDays": 3, "maxDays": 7}}).
		Expect(t, http.StatusCreated)
	return s
}

// product is an active product at price with 1000 units: HSN 6109
// (apparel: the GST 2.0 value rule decides 5 % or 18 %) or 8518 (18 %).
func (s *store) product(t *testing.T, price money.Amount, hsn string) *models.Product {
	t.Helper()
	p := testkit.MustStoreProduct(t, s.app.DB, testkit.StoreProduct{Price: price, GSTRate: 1800,
		Variants: []testkit.StoreVariant{{Inventory: 1000}}})
	if err := s.app.DB.Exec(`UPDATE products SET hsn_code = ? WHERE id = ?`, hsn, p.ID).Error; err != nil {
		t.Fatal(err)
	}
	return p
}

// collection puts products in a new collection and returns its id.
func (s *store) collection(t *testing.T, ps ...*models.Product) string {
	t.Helper()
	id := uuid.New()
	if err := s.app.DB.Create(&models.Collection{ID: id, Name: "C " + id.String()[:8], Slug: "c-" + id.String()}).Error; err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		if err := s.app.DB.Create(&models.CollectionProduct{CollectionID: id, ProductID: p.ID}).Error; err != nil {
			t.Fatal(err)
		}
	}
	return id.String()
}

// discount creates a discount through the admin API (AUTOMATIC unless
// the body says otherwise) and returns its id; endCase deactivates it.
func (s *store) discount(t *testing.T, body map[string]any) string {
	t.Helper()
	if _, ok := body["applicationType"]; !ok {
		body["applicationType"] = "AUTOMATIC"
	}
	var d struct{ ID string }
	s.app.Do(t, http.MethodPost, "/api/v1/admin/discounts", testkit.Req{Token: s.token, Body: body}).
		Expect(t, http.StatusCreated).JSON(t, &d)
	s.discounts = append(s.discounts, d.ID)
	return d.ID
}

// endCase deactivates every discount made so far.
func (s *store) endCase(t *testing.T) {
	t.Helper()
	for _, id := range s.discounts {
		s.app.Do(t, http.MethodPatch, "/api/v1/admin/discounts/"+id, testkit.Req{Token: s.token,
			Body: map[string]any{"isActive": false}}).Expect(t, http.StatusOK)
	}
	s.discounts = nil
}

type applied struct {
	ID     string       `json:"id"`
	Code   *string      `json:"code"`
	Title  string       `json:"title"`
	Type   string       `json:"type"`
	Amount money.Amount `json:"amount"`
}

type cartItem struct {
	ID        string       `json:"id"`
	ProductID uuid.UUID    `json:"productId"`
	Quantity  int          `json:"quantity"`
	UnitPrice money.Amount `json:"unitPrice"`
	LineTotal money.Amount `json:"lineTotal"`
	Discount  money.Amount `json:"discount"`
	GSTRate   money.Rate   `json:"gstRate"`
}

type cartView struct {
	Items         []cartItem   `json:"items"`
	Subtotal      money.Amount `json:"subtotal"`
	DiscountTotal money.Amount `json:"discountTotal"`
	TaxTotal      money.Amount `json:"taxTotal"`
	Total         money.Amount `json:"total"`
	Discounts     []applied    `json:"discounts"`
	DiscountCode  *string      `json:"discountCode"`
}

type orderItem struct {
	ID             uuid.UUID    `json:"id"`
	ProductID      uuid.UUID    `json:"productId"`
	Quantity       int          `json:"quantity"`
	UnitPrice      money.Amount `json:"unitPrice"`
	DiscountAmount money.Amount `json:"discountAmount"`
	LineTotal      money.Amount `json:"lineTotal"`
	GSTRate        money.Rate   `json:"gstRate"`
	TaxAmount      money.Amount `json:"taxAmount"`
	HSNCode        string       `json:"hsnCode"`
}

type orderView struct {
	ID            uuid.UUID    `json:"id"`
	Items         []orderItem  `json:"items"`
	Subtotal      money.Amount `json:"subtotal"`
	DiscountTotal money.Amount `json:"discountTotal"`
	TaxTotal      money.Amount `json:"taxTotal"`
	ShippingCost  money.Amount `json:"shippingCost"`
	Total         money.Amount `json:"total"`
	Discounts     []applied    `json:"discounts"`
}

// guest is a shopper's cart.
type guest struct{ headers map[string]string }

func newGuest() guest {
	return guest{headers: map[string]string{"X-Session-Id": "promo-" + uuid.NewString()}}
}

func (s *store) add(t *testing.T, g guest, p *models.Product, qty int) {
	t.Helper()
	s.app.Do(t, http.MethodPost, "/cart/items", testkit.Req{Headers: g.headers,
		Body: map[string]any{"variantId": p.Variants[0].ID, "quantity": qty}}).Expect(t, http.StatusCreated)
}

func (s *store) cart(t *testing.T, g guest) cartView {
	t.Helper()
	var c cartView
	s.app.Do(t, http.MethodGet, "/cart", testkit.Req{Headers: g.headers}).Expect(t, http.StatusOK).JSON(t, &c)
	return c
}

// placeCOD checks the cart out, cash on delivery, to state by the first
// method the shipping options offer, sending the price they showed (0
// under free shipping); it fails t unless the order charges that.
func (s *store) placeCOD(t *testing.T, g guest, state string) orderView {
	t.Helper()
	return s.place(t, g, state, true)
}

// place is placeCOD, sending the options' price only when withCost.
func (s *store) place(t *testing.T, g guest, state string, withCost bool) orderView {
	t.Helper()
	var opts struct {
		Data []struct {
			ID    string       `json:"id"`
			Price money.Amount `json:"price"`
		} `json:"data"`
	}
	s.app.Do(t, http.MethodGet, "/cart/shipping-options?state="+state, testkit.Req{Headers: g.headers}).Expect(t, http.StatusOK).JSON(t, &opts)
	methods := opts.Data
	if len(methods) == 0 {
		t.Fatalf("no shipping option for %s", state)
	}
	var cost any
	if withCost {
		cost = methods[0].Price
	}
	var o orderView
	s.app.Do(t, http.MethodPost, "/orders", testkit.Req{Headers: g.headers, Body: map[string]any{
		"email": "promo-" + uuid.NewString()[:8] + "@example.com", "name": "Asha", "phone": "+91 98450 11111",
		"address": map[string]any{"type": "shipping", "street": "12 MG Road", "city": "Bengaluru", "state": state,
			"pincode": "560001", "district": "Bengaluru Urban", "country": "India"},
		"shippingMethodId": methods[0].ID, "shippingCost": cost, "paymentMethod": "cod"}}).Expect(t, http.StatusCreated).JSON(t, &o)
	if withCost && o.ShippingCost != methods[0].Price {
		t.Fatalf("the options showed %v for shipping, the order charged %v", methods[0].Price, o.ShippingCost)
	}
	return o
}

// docTotals are an order's tax documents summed by type.
type docTotals struct {
	invoices, creditNotes money.Amount
	n                     int
}

type docLine struct {
	Quantity     int          `json:"quantity"`
	UnitPrice    money.Amount `json:"unitPrice"`
	Discount     money.Amount `json:"discount"`
	TaxableValue money.Amount `json:"taxableValue"`
	GSTRate      money.Rate   `json:"gstRate"`
	CGST         money.Amount `json:"cgst"`
	SGST         money.Amount `json:"sgst"`
	IGST         money.Amount `json:"igst"`
	Total        money.Amount `json:"total"`
	HSN          string       `json:"hsn"`
}

type document struct {
	Type  string       `json:"type"`
	Lines []docLine    `json:"lines"`
	Total money.Amount `json:"total"`
}

func (s *store) documents(t *testing.T, orderID uuid.UUID) []document {
	t.Helper()
	var page struct {
		Data []document `json:"data"`
	}
	s.app.Do(t, http.MethodGet, "/api/v1/admin/invoices?limit=100&orderId="+orderID.String(), testkit.Req{Token: s.token}).
		Expect(t, http.StatusOK).JSON(t, &page)
	return page.Data
}

// fullCircle ships order o, records its cash, returns every unit with
// the shipping and refunds it; it fails t unless the invoices bill the
// order's total with each goods line's discount as the order's, and the
// refund and the credit notes give back exactly that.
func (s *store) fullCircle(t *testing.T, o orderView) {
	t.Helper()
	path := "/api/v1/admin/orders/" + o.ID.String()
	s.app.Do(t, http.MethodPost, path+"/fulfillments", testkit.Req{Token: s.token, Body: map[string]any{
		"carrier": "Delhivery", "trackingNumber": "DL" + uuid.NewString()[:8], "notifyCustomer": false}}).Expect(t, http.StatusCreated)
	docs := s.documents(t, o.ID)
	if len(docs) != 1 || docs[0].Type != "invoice" || docs[0].Total != o.Total {
		t.Fatalf("documents %+v, want one invoice of %v", docs, o.Total)
	}
	discounts := map[money.Amount]int{}
	for _, it := range o.Items {
		discounts[it.DiscountAmount]++
	}
	for _, l := range docs[0].Lines {
		if l.HSN == "6109" || l.HSN == "8518" {
			if l.Total != l.TaxableValue+l.CGST+l.SGST+l.IGST {
				t.Fatalf("invoice line %+v does not add up", l)
			}
			if discounts[l.Discount] == 0 && l.Discount != 0 {
				t.Fatalf("invoice line %+v: discount not an order line's (%+v)", l, o.Items)
			}
		}
	}
	s.app.Do(t, http.MethodPost, path+"/payments", testkit.Req{Token: s.token,
		Body: map[string]any{"method": "cod", "amount": o.Total, "reference": "COD-" + uuid.NewString()[:6]}}).Expect(t, http.StatusCreated)
	var items, received []any
	for _, it := range o.Items {
		items = append(items, map[string]any{"orderItemId": it.ID, "quantity": it.Quantity, "reason": "damaged"})
		received = append(received, map[string]any{"orderItemId": it.ID, "quantity": it.Quantity, "restock": true})
	}
	var ret struct {
		ID           string       `json:"id"`
		RefundAmount money.Amount `json:"refundAmount"`
	}
	s.app.Do(t, http.MethodPost, path+"/returns", testkit.Req{Token: s.token, Body: map[string]any{"items": items}}).
		Expect(t, http.StatusCreated).JSON(t, &ret)
	rp := "/api/v1/admin/returns/" + ret.ID
	s.app.Do(t, http.MethodPost, rp+"/approve", testkit.Req{Token: s.token}).Expect(t, http.StatusOK)
	s.app.Do(t, http.MethodPost, rp+"/receive", testkit.Req{Token: s.token, Body: map[string]any{
		"items": received, "refundShipping": true}}).Expect(t, http.StatusOK)
	s.app.Do(t, http.MethodPost, rp+"/refund", testkit.Req{Token: s.token, Body: map[string]any{"method": "manual", "reference": "UTR-1"}}).
		Expect(t, http.StatusOK)
	s.app.Do(t, http.MethodGet, rp, testkit.Req{Token: s.token}).Expect(t, http.StatusOK).JSON(t, &ret)
	if ret.RefundAmount != o.Total {
		t.Fatalf("a full return refunds %v, the order was %v", ret.RefundAmount, o.Total)
	}
	var credited money.Amount
	for _, d := range s.documents(t, o.ID) {
		if d.Type == "credit_note" {
			credited += d.Total
		}
	}
	if credited != o.Total {
		t.Fatalf("credit notes %v, the order was %v", credited, o.Total)
	}
}

// mustAgree fails t unless order o has cart c's lines, discounts and
// totals (plus shipping), and every line's tax is the GST in its
// discounted total at the rate its discounted value decides.
func mustAgree(t *testing.T, c cartView, o orderView) {
	t.Helper()
	if o.Subtotal != c.Subtotal || o.DiscountTotal != c.DiscountTotal || o.TaxTotal-shippingTax(o) != c.TaxTotal ||
		o.Total != c.Total+o.ShippingCost {
		t.Fatalf("order %+v does not agree with cart %+v", o, c)
	}
	byProduct := map[uuid.UUID]cartItem{}
	for _, it := range c.Items {
		byProduct[it.ProductID] = it
	}
	for _, it := range o.Items {
		ci := byProduct[it.ProductID]
		if it.DiscountAmount != ci.Discount || it.GSTRate != ci.GSTRate || it.LineTotal != ci.LineTotal-ci.Discount {
			t.Fatalf("order line %+v, cart line %+v", it, ci)
		}
		mustTaxFollow(t, it)
	}
	for i := range c.Discounts {
		if c.Discounts[i].Type != "free_shipping" && (i >= len(o.Discounts) || o.Discounts[i] != c.Discounts[i]) {
			t.Fatalf("order discounts %+v, cart %+v", o.Discounts, c.Discounts)
		}
	}
}

// shippingTax is the GST in o's shipping (18 % of it, with the goods or
// on its own: the test store's goods and method are 18 % or 5 %).
func shippingTax(o orderView) money.Amount {
	var lines money.Amount
	for _, it := range o.Items {
		lines += it.TaxAmount
	}
	return o.TaxTotal - lines
}

var apparel = taxrule.Rule{Threshold: 250000, RateUpTo: 500, RateAbove: 1800}

// mustTaxFollow fails t unless the line's tax is the GST in its
// discounted total at the rate its discounted value decides: the apparel
// rule's for HSN 6109, the products' 18 % otherwise.
func mustTaxFollow(t *testing.T, it orderItem) {
	t.Helper()
	want := money.Rate(1800)
	if it.HSNCode == "6109" {
		want = taxrule.Rate(1800, &apparel, it.LineTotal, it.Quantity, 0)
	}
	if tax, _ := money.IncludedGST(it.LineTotal, want, 0); it.GSTRate != want || tax != it.TaxAmount || it.LineTotal < 0 {
		t.Fatalf("line %+v: tax %v at %v, want %v at %v", it, it.TaxAmount, it.GSTRate, tax, want)
	}
}

func mustDiscounts(t *testing.T, got []applied, want ...string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("discounts %+v, want %v", got, want)
	}
	for i := range want {
		if got[i].ID != want[i] {
			t.Fatalf("discounts %+v, want %v", got, want)
		}
	}
}

// mustAnnounce checks that the order.created event of o carries the
// discounts the order applied and each line's share of them, as the order
// answers them: a subscriber (an ERP, an accountant's tool) books the same
// figures.
func mustAnnounce(t *testing.T, s *store, o orderView) {
	t.Helper()
	var raw string
	if err := s.app.DB.Raw(`SELECT data FROM events WHERE type = 'order.created' AND data->>'orderId' = ?`, o.ID.String()).
		Scan(&raw).Error; err != nil || raw == "" {
		t.Fatalf("order.created of %s: %q (%v)", o.ID, raw, err)
	}
	var ev struct {
		Discounts []applied `json:"discounts"`
		Items     []struct {
			Quantity  int          `json:"quantity"`
			Discount  money.Amount `json:"discount"`
			LineTotal money.Amount `json:"lineTotal"`
		} `json:"items"`
		DiscountTotal money.Amount `json:"discountTotal"`
	}
	if err := json.Unmarshal([]byte(raw), &ev); err != nil {
		t.Fatal(err)
	}
	if len(ev.Discounts) != len(o.Discounts) || ev.DiscountTotal != o.DiscountTotal || len(ev.Items) != len(o.Items) {
		t.Fatalf("order.created %s, the order %+v", raw, o)
	}
	for i, d := range o.Discounts {
		e := ev.Discounts[i]
		if e.ID != d.ID || e.Type != d.Type || e.Title != d.Title || e.Amount != d.Amount || (e.Code == nil) != (d.Code == nil) ||
			(e.Code != nil && *e.Code != *d.Code) {
			t.Fatalf("order.created discounts %+v, the order's %+v", ev.Discounts, o.Discounts)
		}
	}
	for i, it := range o.Items {
		if ev.Items[i].Discount != it.DiscountAmount || ev.Items[i].LineTotal != it.LineTotal {
			t.Fatalf("order.created line %d %+v, the order's %+v", i, ev.Items[i], it)
		}
	}
}
