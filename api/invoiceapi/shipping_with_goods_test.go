package invoiceapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// withGoodsShop is a store with a tax identity, one shipping method (₹79
// at 18 %), COD with a ₹59 fee at 18 %, and two products: tea at 5 % (HSN
// 0902, ₹1000) and a keyboard at 18 % (HSN 8471, ₹500).
type withGoodsShop struct {
	app           *testkit.App
	token         string
	method        string
	tea, keyboard uuid.UUID
}

func newWithGoodsShop(t *testing.T) *withGoodsShop {
	t.Helper()
	app := testkit.MustApp(t)
	s := &withGoodsShop{app: app, token: mustTaxIdentity(t, app)}
	var z struct{ ID string }
	app.Do(t, "POST", "/api/v1/admin/shipping/zones", testkit.Req{Token: s.token, Body: map[string]any{"name": "India", "isDefault": true}}).
		Expect(t, http.StatusCreated).JSON(t, &z)
	var m struct{ ID string }
	app.Do(t, "POST", "/api/v1/admin/shipping/zones/"+z.ID+"/methods", testkit.Req{Token: s.token, Body: map[string]any{
		"name": "Standard", "carrier": "India Post", "price": 79, "gstRate": 18, "minDays": 2, "maxDays": 5}}).
		Expect(t, http.StatusCreated).JSON(t, &m)
	s.method = m.ID
	app.Do(t, "PUT", "/api/v1/admin/settings/payments", testkit.Req{Token: s.token, Body: map[string]any{
		"cod": map[string]any{"enabled": true, "fee": 59, "feeGstRate": 18, "maxOrderAmount": 0, "maxOpenPerCustomer": 10,
			"zoneIds": []string{}}}}).Expect(t, http.StatusOK)
	product := func(price money.Amount, rate money.Rate, hsn string) uuid.UUID {
		p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: price, GSTRate: rate})
		if err := app.DB.Model(&models.Product{}).Where("id = ?", p.ID).Update("hsn_code", hsn).Error; err != nil {
			t.Fatal(err)
		}
		return p.Variants[0].ID
	}
	s.tea, s.keyboard = product(100000, 500, "0902"), product(50000, 1800, "8471")
	return s
}

// order checks out one tea and one keyboard by COD to Karnataka with the
// shipping method (and buyerGstin when given) and returns the order.
func (s *withGoodsShop) order(t *testing.T, buyerGSTIN string) models.Order {
	t.Helper()
	g := testkit.Req{Headers: map[string]string{"X-Session-Id": "guest-" + uuid.NewString()}}
	for _, v := range []uuid.UUID{s.tea, s.keyboard} {
		g.Body = map[string]any{"variantId": v, "quantity": 1}
		s.app.Do(t, "POST", "/cart/items", g).Expect(t, http.StatusCreated)
	}
	g.Body = map[string]any{"email": "buyer-" + uuid.NewString()[:8] + "@example.com", "name": "Buyer", "phone": "+91 98765 43210",
		"address": map[string]any{"type": "shipping", "street": "1 Main Road", "city": "Bengaluru", "state": "Karnataka",
			"pincode": "560001", "country": "India"}, "paymentMethod": "cod", "shippingMethodId": s.method}
	if buyerGSTIN != "" {
		g.Body.(map[string]any)["buyerGstin"], g.Body.(map[string]any)["buyerName"] = buyerGSTIN, "Bharat Traders"
	}
	var placed struct{ ID uuid.UUID }
	s.app.Do(t, "POST", "/orders", g).Expect(t, http.StatusCreated).JSON(t, &placed)
	var o models.Order
	if err := s.app.DB.Preload("Items").Take(&o, "id = ?", placed.ID).Error; err != nil {
		t.Fatal(err)
	}
	return o
}

// adminTax is the admin order answer's tax.
type adminTax struct {
	TaxTotal money.Amount `json:"taxTotal"`
	Total    money.Amount `json:"total"`
	Tax      struct {
		CGST, SGST, IGST money.Amount
	} `json:"tax"`
}

// The shipping (₹79) and the COD fee (₹59) of a cart of ₹1000 at 5 % and
// ₹500 at 18 % are part of the value of the goods (CGST Act s.15(2)(c)),
// split two to one, the odd paisa to the larger remainder: shipping 52.67
// at 5 % (GST 2 × 1.25) and 26.33 at 18 % (2 × 2.01); the fee 39.33 at 5 %
// (2 × 0.94) and 19.67 at 18 % (2 × 1.50). With the lines' GST (2 × 23.81
// and 2 × 38.14) the order's tax is 135.30, not 144.96 as at 18 %. The
// invoice bills one shipping and one COD fee line per rate with the goods'
// HSN, adding up to the order; GSTR-1 reports each part with its goods, in
// b2cs, b2b and both HSN tables.
func TestShippingAndCODFeeTaxedWithTheGoods(t *testing.T) {
	s := newWithGoodsShop(t)
	o := s.order(t, "")
	const tax = 4762 + 7628 + 250 + 402 + 188 + 300
	if o.ShippingTax != 652 || o.CODFeeTax != 488 || o.TaxTotal != tax || o.CGSTTotal != tax/2 || o.SGSTTotal != tax/2 ||
		o.Total != 163800 || o.CessTotal != 0 {
		t.Fatalf("order shipping tax %s, fee tax %s, tax %s (cgst %s sgst %s), total %s", o.ShippingTax, o.CODFeeTax,
			o.TaxTotal, o.CGSTTotal, o.SGSTTotal, o.Total)
	}
	var view adminTax
	s.app.Do(t, "GET", "/api/v1/admin/orders/"+o.ID.String(), testkit.Req{Token: s.token}).Expect(t, http.StatusOK).JSON(t, &view)
	if view.TaxTotal != tax || view.Tax.CGST != tax/2 || view.Tax.SGST != tax/2 || view.Total != 163800 {
		t.Fatalf("order answer %+v", view)
	}

	ship(t, s.app, s.token, o, nil)
	docs := docsOf(t, s.app, s.token, o)
	if len(docs) != 1 {
		t.Fatalf("%d documents", len(docs))
	}
	inv := docs[0]
	checkDoc(t, inv)
	want := []docLine{
		{HSN: "0902", GSTRate: 500, Total: 5267, CGST: 125, SGST: 125, TaxableValue: 5017},
		{HSN: "8471", GSTRate: 1800, Total: 2633, CGST: 201, SGST: 201, TaxableValue: 2231},
		{HSN: "0902", GSTRate: 500, Total: 3933, CGST: 94, SGST: 94, TaxableValue: 3745},
		{HSN: "8471", GSTRate: 1800, Total: 1967, CGST: 150, SGST: 150, TaxableValue: 1667},
	}
	if len(inv.Lines) != 6 {
		t.Fatalf("invoice lines %+v", inv.Lines)
	}
	for i, w := range want {
		l := inv.Lines[2+i]
		desc := "Shipping: Standard"
		if i >= 2 {
			desc = "Cash on delivery fee"
		}
		if l.Description != desc || l.HSN != w.HSN || l.GSTRate != w.GSTRate || l.Total != w.Total || l.CGST != w.CGST ||
			l.SGST != w.SGST || l.TaxableValue != w.TaxableValue || l.Quantity != 1 || l.UnitPrice != w.Total {
			t.Fatalf("line %d %+v, want %s %+v", 3+i, l, desc, w)
		}
	}
	if total, docTax := sumDocs(docs, "invoice"); total != o.Total || docTax != o.TaxTotal {
		t.Fatalf("invoice %s (tax %s), order %s (tax %s)", total, docTax, o.Total, o.TaxTotal)
	}

	// A registered buyer's order: b2b reports each rate with its part of
	// the shipping and the fee.
	b2b := s.order(t, gstinOf("29", "AAFCB7707D"))
	ship(t, s.app, s.token, b2b, nil)
	r := gstr1Now(t, s.app, s.token)
	// 5 %: the tea's 952.38 + 50.17 + 37.45; 18 %: the keyboard's 423.72 +
	// 22.31 + 16.67.
	rate5, rate18 := gstr1Row{Rt: 500, Txval: 104000, Camt: 2600, Samt: 2600}, gstr1Row{Rt: 1800, Txval: 46270, Camt: 4165, Samt: 4165}
	if len(r.B2CS) != 2 || r.B2CS[0] != rate5 || r.B2CS[1] != rate18 {
		t.Fatalf("b2cs %+v", r.B2CS)
	}
	if len(r.B2B) != 1 || len(r.B2B[0].Inv) != 1 {
		t.Fatalf("b2b %+v", r.B2B)
	}
	if itms := r.B2B[0].Inv[0].Itms; len(itms) != 2 || itms[0].ItmDet != rate5 || itms[1].ItmDet != rate18 {
		t.Fatalf("b2b items %+v", itms)
	}
	for name, rows := range map[string][]gstr1Row{"hsn_b2c": r.HSN.B2C, "hsn_b2b": r.HSN.B2B} {
		// The charges add value to the goods' rows, never quantity.
		tea := gstr1Row{HsnSc: "0902", Uqc: "NOS", Qty: 1, Rt: 500, Txval: 104000, Camt: 2600, Samt: 2600}
		keyboard := gstr1Row{HsnSc: "8471", Uqc: "NOS", Qty: 1, Rt: 1800, Txval: 46270, Camt: 4165, Samt: 4165}
		if len(rows) != 2 || rows[0] != tea || rows[1] != keyboard {
			t.Fatalf("%s %+v", name, rows)
		}
	}
}

// Under shippingTax "own_rate" checkout taxes as before: the shipping
// (2 × 6.03) and the fee (2 × 4.50) at their own 18 %, billed on one line
// each under SAC 996812.
func TestShippingTaxOwnRateKeepsTheOlderTreatment(t *testing.T) {
	s := newWithGoodsShop(t)
	body := settingsBody(storeGSTIN, "Karnataka")
	body["shippingTax"] = "own_rate"
	s.app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: s.token, Body: body}).Expect(t, http.StatusOK)
	o := s.order(t, "")
	const tax = 4762 + 7628 + 1206 + 900
	if o.ShippingTax != 1206 || o.CODFeeTax != 900 || o.TaxTotal != tax || o.Total != 163800 || o.ChargeParts != nil {
		t.Fatalf("order shipping tax %s, fee tax %s, tax %s, total %s, parts %+v", o.ShippingTax, o.CODFeeTax, o.TaxTotal,
			o.Total, o.ChargeParts)
	}
	ship(t, s.app, s.token, o, nil)
	inv := docsOf(t, s.app, s.token, o)[0]
	checkDoc(t, inv)
	if len(inv.Lines) != 4 {
		t.Fatalf("invoice lines %+v", inv.Lines)
	}
	for i, w := range []docLine{
		{Description: "Shipping: Standard", HSN: invoice.SACShipping, GSTRate: 1800, Total: 7900, CGST: 603, SGST: 603},
		{Description: "Cash on delivery fee", HSN: invoice.SACShipping, GSTRate: 1800, Total: 5900, CGST: 450, SGST: 450},
	} {
		l := inv.Lines[2+i]
		if l.Description != w.Description || l.HSN != w.HSN || l.GSTRate != w.GSTRate || l.Total != w.Total ||
			l.CGST != w.CGST || l.SGST != w.SGST {
			t.Fatalf("line %+v, want %+v", l, w)
		}
	}
	if inv.Total != o.Total || inv.CGSTTotal+inv.SGSTTotal != o.TaxTotal {
		t.Fatalf("invoice %+v, order total %s tax %s", inv, o.Total, o.TaxTotal)
	}
}

// shippingTax is answered ("with_goods" by default), refused unless it is
// one of the two, and kept by a PUT that leaves it out.
func TestShippingTaxSetting(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	var got struct {
		ShippingTax string `json:"shippingTax"`
	}
	app.Do(t, "GET", "/api/v1/admin/settings/tax", testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &got)
	if got.ShippingTax != "with_goods" {
		t.Fatalf("default shippingTax %q", got.ShippingTax)
	}
	for _, bad := range []any{"goods", "", 1} {
		body := settingsBody(storeGSTIN, "Karnataka")
		body["shippingTax"] = bad
		app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: token, Body: body, Invalid: true}).ExpectField(t, "shippingTax")
	}
	body := settingsBody(storeGSTIN, "Karnataka")
	body["shippingTax"] = "own_rate"
	app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: token, Body: body}).Expect(t, http.StatusOK).JSON(t, &got)
	if got.ShippingTax != "own_rate" {
		t.Fatalf("after PUT own_rate: %q", got.ShippingTax)
	}
	app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: token, Body: settingsBody(storeGSTIN, "Karnataka")}).
		Expect(t, http.StatusOK).JSON(t, &got)
	app.Do(t, "GET", "/api/v1/admin/settings/tax", testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &got)
	if got.ShippingTax != "own_rate" {
		t.Fatalf("a PUT without shippingTax changed it to %q", got.ShippingTax)
	}
}

// An order whose shipping was taxed with goods of several rates, shipped
// in parts, bills the per-rate shipping lines once, on its first invoice,
// and its invoices add up to it; a return of everything with the shipping
// credits every part of it at its rate, exactly what the invoice charged.
func TestShippingWithGoodsInvoicedOnceAndCreditedByRate(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	for _, tc := range amountCases {
		if tc.shipping == 0 {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			cust := fixtures.MustCustomer(t, app.DB, "Meera")
			o := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust, ShipState: tc.state,
				Shipping: tc.shipping, ShippingRate: tc.shipRate, Lines: tc.lines, WithGoods: true})
			for _, part := range tc.parts {
				units := map[uuid.UUID]int{}
				for i, q := range part {
					if q > 0 {
						units[o.Items[i].ID] = q
					}
				}
				ship(t, app, token, o, units)
			}
			ship(t, app, token, o, nil)
			docs := docsOf(t, app, token, o)
			parts := o.ChargeParts.Of(models.LineShipping)
			for i, d := range docs {
				checkDoc(t, d)
				var shipping []docLine
				for _, l := range d.Lines {
					if l.HSN == invoice.SACShipping {
						t.Fatalf("%s bills shipping under SAC: %+v", d.Number, l)
					}
					if len(l.Description) >= 8 && l.Description[:8] == "Shipping" {
						shipping = append(shipping, l)
					}
				}
				if i > 0 && len(shipping) > 0 || i == 0 && len(shipping) != len(parts) {
					t.Fatalf("%s (invoice %d) bills shipping lines %+v; the parts are %+v", d.Number, i+1, shipping, parts)
				}
				for j, l := range shipping {
					p := parts[j]
					if l.HSN != p.HSN || l.GSTRate != p.GSTRate || l.Total != p.Amount || l.CGST+l.SGST+l.IGST != p.Tax {
						t.Fatalf("shipping line %+v, part %+v", l, p)
					}
				}
			}
			if len(parts) < 2 && len(tc.lines) > 1 {
				t.Fatalf("one shipping part over goods of several rates: %+v", parts)
			}
			total, tax := sumDocs(docs, "invoice")
			if total != o.Total || tax != o.TaxTotal {
				t.Fatalf("invoices add to %s (tax %s), the order is %s (tax %s)", total, tax, o.Total, o.TaxTotal)
			}

			returnAll(t, app, token, o)
			docs = docsOf(t, app, token, o)
			credited := map[[2]string]money.Amount{}
			for _, d := range docs {
				if d.Type != "credit_note" {
					continue
				}
				checkDoc(t, d)
				for _, l := range d.Lines {
					if len(l.Description) >= 8 && l.Description[:8] == "Shipping" {
						credited[[2]string{l.HSN, l.GSTRate.String()}] += l.CGST + l.SGST + l.IGST
					}
				}
			}
			for _, p := range parts {
				if got := credited[[2]string{p.HSN, p.GSTRate.String()}]; got != p.Tax {
					t.Fatalf("shipping part %+v credited tax %s", p, got)
				}
			}
			if len(credited) != len(parts) {
				t.Fatalf("credited shipping %+v, parts %+v", credited, parts)
			}
			mustDocumentKept(t, app, token, o)
		})
	}
}

// gstr1Row is a b2cs row, a b2b item's detail or an HSN row of GSTR-1,
// the fields the tests read.
type gstr1Row struct {
	HsnSc string       `json:"hsn_sc"`
	Uqc   string       `json:"uqc"`
	Qty   int64        `json:"qty"`
	Rt    money.Rate   `json:"rt"`
	Txval money.Amount `json:"txval"`
	Iamt  money.Amount `json:"iamt"`
	Camt  money.Amount `json:"camt"`
	Samt  money.Amount `json:"samt"`
	Csamt money.Amount `json:"csamt"`
}

type gstr1Answer struct {
	B2B []struct {
		Inv []struct {
			Itms []struct {
				ItmDet gstr1Row `json:"itm_det"`
			} `json:"itms"`
		} `json:"inv"`
	} `json:"b2b"`
	B2CS []gstr1Row `json:"b2cs"`
	HSN  struct {
		B2B []gstr1Row `json:"hsn_b2b"`
		B2C []gstr1Row `json:"hsn_b2c"`
	} `json:"hsn"`
}

// gstr1Now is this month's GSTR-1 (India Standard Time), the rows' num and
// the b2cs supply type and place of supply left out.
func gstr1Now(t *testing.T, app *testkit.App, token string) gstr1Answer {
	t.Helper()
	period := time.Now().In(time.FixedZone("IST", 5*3600+1800)).Format("2006-01")
	var r gstr1Answer
	app.Do(t, "GET", "/api/v1/admin/reports/gstr1?period="+period, testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &r)
	return r
}

// Shipping taxed with goods under a compensation cess carries their cess
// too (levied on the s.15 value): ₹100 over cigarettes (₹1400 at 28 % and
// 12 % cess) and tea (₹600 at 5 %) is 70 and 30; inside 70 the taxable
// value is 50 (70 / 1.40), GST 2 × 7.00 and cess 6.00; inside 30 GST
// 2 × 0.71. The order's cessTotal and the invoice's carry the 6.00.
func TestShippingWithGoodsCarriesTheirCess(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	cust := fixtures.MustCustomer(t, app.DB, "Imran")
	o := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust, Shipping: 10000, ShippingRate: 1800, WithGoods: true,
		Lines: []fixtures.TaxLine{
			{Title: "Cigarettes", HSN: "24022090", Qty: 1, Unit: 140000, Rate: 2800, Cess: 1200, UQC: "PCS"},
			{Title: "Tea", HSN: "0902", Qty: 1, Unit: 60000, Rate: 500},
		}})
	if o.CessTotal != 12000+600 || o.ShippingTax != 142+1400 {
		t.Fatalf("order cess %s, shipping tax %s", o.CessTotal, o.ShippingTax)
	}
	ship(t, app, token, o, nil)
	inv := docsOf(t, app, token, o)[0]
	checkDoc(t, inv)
	want := []docLine{
		{HSN: "0902", Unit: "NOS", GSTRate: 500, Total: 3000, TaxableValue: 2858, CGST: 71, SGST: 71},
		{HSN: "24022090", Unit: "PCS", GSTRate: 2800, CessRate: 1200, Total: 7000, TaxableValue: 5000, CGST: 700, SGST: 700, Cess: 600},
	}
	if len(inv.Lines) != 4 {
		t.Fatalf("lines %+v", inv.Lines)
	}
	for i, w := range want {
		l := inv.Lines[2+i]
		w.Description, w.Quantity, w.UnitPrice = "Shipping: Standard", 1, w.Total
		if l != w {
			t.Fatalf("shipping line %+v, want %+v", l, w)
		}
	}
	if inv.CessTotal != o.CessTotal || inv.Total != o.Total || inv.CGSTTotal+inv.SGSTTotal != o.TaxTotal {
		t.Fatalf("invoice %+v; order total %s tax %s cess %s", inv, o.Total, o.TaxTotal, o.CessTotal)
	}
}
