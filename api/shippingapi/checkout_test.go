package shippingapi_test

import (
	"testing"
	"time"

	"github.com/gocommerce/shop/api/gatewayapi"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// shop is a store with one default zone holding a paid method with a
// free-above threshold and an express method, plus a Punjab-only zone.
type shop struct {
	app              *testkit.App
	admin            string
	standard, punjab method
	variant          uuid.UUID
}

const (
	standardPrice = money.Amount(7900)  // GST included at 18 %
	freeAbove     = money.Amount(99900) // the cart total that ships free
	productPrice  = money.Amount(49950) // two units reach freeAbove exactly
)

func newShop(t *testing.T, opts ...testkit.Option) *shop {
	app := testkit.MustApp(t, opts...)
	_, admin := testkit.MustAdmin(t, app, "admin")
	all := mustZone(t, app, admin, map[string]any{"name": "India", "isDefault": true})
	s := &shop{app: app, admin: admin}
	s.standard = mustMethod(t, app, admin, all.ID, map[string]any{"name": "Standard", "carrier": "India Post",
		"price": standardPrice, "freeAbove": freeAbove, "gstRate": 18, "minDays": 3, "maxDays": 7})
	mustMethod(t, app, admin, all.ID, map[string]any{"name": "Express", "carrier": "Blue Dart", "price": 199, "minDays": 1, "maxDays": 2})
	north := mustZone(t, app, admin, map[string]any{"name": "Punjab", "states": []string{"Punjab"}})
	s.punjab = mustMethod(t, app, admin, north.ID, map[string]any{"name": "Punjab Local", "price": 30, "minDays": 1, "maxDays": 3})
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: productPrice, GSTRate: 1200,
		Variants: []testkit.StoreVariant{{Inventory: 100}}})
	s.variant = p.Variants[0].ID
	return s
}

// guest fills a new guest cart with qty units and returns its request.
func (s *shop) guest(t *testing.T, qty int) testkit.Req {
	g := testkit.Req{Headers: map[string]string{"X-Session-Id": "guest-" + uuid.NewString()}}
	g.Body = map[string]any{"variantId": s.variant, "quantity": qty}
	s.app.Do(t, "POST", "/cart/items", g).Expect(t, 201)
	return g
}

func guestBody(state string, extra map[string]any) map[string]any {
	b := map[string]any{"email": "buyer-" + uuid.NewString()[:8] + "@example.com", "name": "Buyer", "phone": "+91 98765 43210",
		"address": map[string]any{"type": "shipping", "street": "1 Main Road", "city": "Somewhere", "state": state,
			"pincode": "560001", "country": "India"}}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

type checkoutAnswer struct {
	CheckoutSessionID string `json:"checkoutSessionId"`
	PaymentIntent     struct {
		PaymentIntentID string       `json:"paymentIntentId"`
		Amount          money.Amount `json:"amount"`
		Currency        string       `json:"currency"`
	} `json:"paymentIntent"`
}

func (s *shop) checkout(t *testing.T, g testkit.Req, body map[string]any) *testkit.Response {
	g.Body = body
	return s.app.Do(t, "POST", "/orders", g)
}

type optionsAnswer struct {
	Data []struct {
		ID            string       `json:"id"`
		Name          string       `json:"name"`
		Price         money.Amount `json:"price"`
		EstimatedDays struct{ Min, Max int }
	} `json:"data"`
	Currency string `json:"currency"`
}

// The options for a state are its zone's (else the default zone's),
// cheapest first, priced for the cart: free at the threshold.
func TestShippingOptions(t *testing.T) {
	s := newShop(t)
	g := s.guest(t, 1)
	var o optionsAnswer
	g.Body = nil
	s.app.Do(t, "GET", "/cart/shipping-options?state=karnataka", g).Expect(t, 200).JSON(t, &o)
	if len(o.Data) != 2 || o.Data[0].ID != s.standard.ID || o.Data[0].Price != standardPrice || o.Data[1].Price != 19900 ||
		o.Data[0].EstimatedDays.Min != 3 || o.Data[0].EstimatedDays.Max != 7 || o.Currency != "INR" {
		t.Fatalf("Karnataka options %+v", o)
	}
	s.app.Do(t, "GET", "/cart/shipping-options?state=Punjab", g).Expect(t, 200).JSON(t, &o)
	if len(o.Data) != 1 || o.Data[0].ID != s.punjab.ID {
		t.Fatalf("Punjab options %+v: only its own zone's", o)
	}
	s.app.Do(t, "GET", "/cart/shipping-options?state=Atlantis", g).Expect(t, 200).JSON(t, &o)
	if len(o.Data) != 0 {
		t.Fatalf("unknown state options %+v", o)
	}
	g.Body = map[string]any{"variantId": s.variant, "quantity": 1}
	s.app.Do(t, "POST", "/cart/items", g).Expect(t, 201) // now 2 units: exactly freeAbove
	s.app.Do(t, "GET", "/cart/shipping-options?state=Goa", testkit.Req{Headers: g.Headers}).Expect(t, 200).JSON(t, &o)
	if o.Data[0].Name != "Standard" || o.Data[0].Price != 0 {
		t.Fatalf("at the threshold %+v", o)
	}
	s.app.Do(t, "GET", "/cart/shipping-options", testkit.Req{Headers: g.Headers}).ExpectField(t, "state")

	cu, tok := testkit.MustCustomer(t, s.app)
	addr := testkit.MustAddress(t, s.app, cu.ID)
	s.app.Do(t, "GET", "/cart/shipping-options?addressId="+addr.String(), testkit.Req{Token: tok}).Expect(t, 200).JSON(t, &o)
	if len(o.Data) != 2 {
		t.Fatalf("by address %+v", o)
	}
	_, other := testkit.MustCustomer(t, s.app)
	s.app.Do(t, "GET", "/cart/shipping-options?addressId="+addr.String(), testkit.Req{Token: other}).ExpectField(t, "addressId")
	s.app.Do(t, "GET", "/cart/shipping-options?addressId="+addr.String(), testkit.Req{Headers: g.Headers}).ExpectField(t, "addressId")
}

// A client cannot choose its price: forged costs, a missing or foreign
// method are 400 and reserve nothing.
func TestCheckoutRefusesClientShippingPrices(t *testing.T) {
	s := newShop(t)
	g := s.guest(t, 1)
	tests := []struct {
		name, state string
		extra       map[string]any
		field       string
	}{
		{"no method once the store has one", "Karnataka", map[string]any{"shippingCost": 0}, "shippingMethodId"},
		{"forged cost", "Karnataka", map[string]any{"shippingMethodId": s.standard.ID, "shippingCost": 10}, "shippingCost"},
		{"zero with a paid method", "Karnataka", map[string]any{"shippingMethodId": s.standard.ID, "shippingCost": 0}, "shippingCost"},
		{"a method of another zone", "Karnataka", map[string]any{"shippingMethodId": s.punjab.ID}, "shippingMethodId"},
		{"the default zone's method for a zoned state", "Punjab", map[string]any{"shippingMethodId": s.standard.ID}, "shippingMethodId"},
		{"an unknown state", "Atlantis", map[string]any{"shippingMethodId": s.standard.ID}, "shippingMethodId"},
		{"an unknown method", "Karnataka", map[string]any{"shippingMethodId": uuid.NewString()}, "shippingMethodId"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s.checkout(t, g, guestBody(tt.state, tt.extra)).ExpectField(t, tt.field)
			var sessions, reserved int64
			s.app.DB.Table("checkout_sessions").Count(&sessions)
			s.app.DB.Table("variants").Where("id = ?", s.variant).Pluck("reserved", &reserved)
			if sessions != 0 || reserved != 0 {
				t.Fatalf("%d sessions, %d reserved after a refused checkout", sessions, reserved)
			}
		})
	}
	// An inactive method is not offered either.
	s.app.Do(t, "PATCH", "/api/v1/admin/shipping/methods/"+s.punjab.ID, testkit.Req{Token: s.admin, Body: map[string]any{"isActive": false}}).Expect(t, 200)
	s.checkout(t, g, guestBody("Punjab", map[string]any{"shippingMethodId": s.punjab.ID})).ExpectField(t, "shippingMethodId")
}

// Free shipping starts at the exact threshold, not a paisa below.
func TestFreeAboveThreshold(t *testing.T) {
	s := newShop(t)
	g := s.guest(t, 2) // 2 × 499.50 = 999.00 = freeAbove
	var co checkoutAnswer
	s.checkout(t, g, guestBody("Goa", map[string]any{"shippingMethodId": s.standard.ID, "shippingCost": 0})).Expect(t, 201).JSON(t, &co)
	if co.PaymentIntent.Amount != freeAbove {
		t.Fatalf("at the threshold amount %s, want %s (free shipping)", co.PaymentIntent.Amount, freeAbove)
	}
	// One paisa more on the threshold: the same cart pays for shipping.
	s.app.Do(t, "PATCH", "/api/v1/admin/shipping/methods/"+s.standard.ID, testkit.Req{Token: s.admin,
		Body: map[string]any{"freeAbove": freeAbove + 1}}).Expect(t, 200)
	g2 := s.guest(t, 2)
	s.checkout(t, g2, guestBody("Goa", map[string]any{"shippingMethodId": s.standard.ID, "shippingCost": 0})).ExpectField(t, "shippingCost")
	s.checkout(t, g2, guestBody("Goa", map[string]any{"shippingMethodId": s.standard.ID})).Expect(t, 201).JSON(t, &co)
	if co.PaymentIntent.Amount != freeAbove+standardPrice {
		t.Fatalf("a paisa under the threshold amount %s, want %s", co.PaymentIntent.Amount, freeAbove+standardPrice)
	}
}

type adminOrder struct {
	Subtotal       money.Amount `json:"subtotal"`
	TaxTotal       money.Amount `json:"taxTotal"`
	ShippingCost   money.Amount `json:"shippingCost"`
	Total          money.Amount `json:"total"`
	ShippingMethod *struct {
		ID, Name, Carrier string
	} `json:"shippingMethod"`
	Tax struct {
		CGST money.Amount `json:"cgst"`
		SGST money.Amount `json:"sgst"`
		IGST money.Amount `json:"igst"`
	} `json:"tax"`
	Items []struct {
		TaxAmount money.Amount `json:"taxAmount"`
	} `json:"items"`
}

// pay captures the checkout's payment through the gateway webhook and
// returns the order the worker made.
func (s *shop) pay(t *testing.T, co checkoutAnswer) adminOrder {
	body := gateway.BuildEvent(gateway.Simulated{Name: gateway.PaymentCaptured, EventID: gateway.NewEventID(),
		OrderID: co.PaymentIntent.PaymentIntentID, Amount: int64(co.PaymentIntent.Amount), Currency: co.PaymentIntent.Currency})
	s.app.Do(t, "POST", gatewayapi.Path, testkit.Req{Body: body,
		Headers: map[string]string{gateway.SignatureHeader: gateway.Sign(s.app.Config.GatewayWebhookSecret, body)}}).Expect(t, 200)
	var o models.Order
	testkit.Eventually(t, 15*time.Second, "the order", func() bool {
		return s.app.DB.Take(&o, "payment_intent_id = ?", co.PaymentIntent.PaymentIntentID).Error == nil
	})
	var v adminOrder
	s.app.Do(t, "GET", "/api/v1/admin/orders/"+o.ID.String(), testkit.Req{Token: s.admin}).Expect(t, 200).JSON(t, &v)
	return v
}

// The server's price is charged; shipping charged with goods is part of
// their value (CGST Act s.15(2)(c)), so its GST is the goods' 12 %, not the
// method's 18 % (₹79 / 1.12 × 6 % = 4.23, two equal halves), and joins the
// lines' GST in taxTotal, split into equal CGST and SGST within
// STORE_STATE (Karnataka), else IGST.
func TestShippingGSTSplitToThePaisa(t *testing.T) {
	s := newShop(t, testkit.WithWorker())
	lineTax, _ := money.IncludedGST(productPrice, 1200, 0)  // 53.52
	shipTax, _ := money.IncludedGST(standardPrice, 1200, 0) // 8.46
	if shipTax != 846 || lineTax != 5352 {
		t.Fatalf("tax arithmetic: line %s, shipping %s", lineTax, shipTax)
	}
	tests := []struct {
		state            string
		cgst, sgst, igst money.Amount
	}{
		{"Karnataka", 3099, 3099, 0},
		{"Maharashtra", 0, 0, 6198},
	}
	for _, tt := range tests {
		t.Run(tt.state, func(t *testing.T) {
			g := s.guest(t, 1)
			var co checkoutAnswer
			s.checkout(t, g, guestBody(tt.state, map[string]any{"shippingMethodId": s.standard.ID,
				"shippingCost": standardPrice})).Expect(t, 201).JSON(t, &co)
			if co.PaymentIntent.Amount != productPrice+standardPrice {
				t.Fatalf("amount %s", co.PaymentIntent.Amount)
			}
			o := s.pay(t, co)
			if o.Subtotal != productPrice || o.ShippingCost != standardPrice || o.Total != productPrice+standardPrice ||
				o.TaxTotal != lineTax+shipTax || len(o.Items) != 1 || o.Items[0].TaxAmount != lineTax {
				t.Fatalf("order %+v", o)
			}
			if o.Tax.CGST != tt.cgst || o.Tax.SGST != tt.sgst || o.Tax.IGST != tt.igst || o.Tax.CGST+o.Tax.SGST+o.Tax.IGST != o.TaxTotal {
				t.Fatalf("split %+v, want cgst %s sgst %s igst %s", o.Tax, tt.cgst, tt.sgst, tt.igst)
			}
			if m := o.ShippingMethod; m == nil || m.ID != s.standard.ID || m.Name != "Standard" || m.Carrier != "India Post" {
				t.Fatalf("shippingMethod %+v", o.ShippingMethod)
			}
			// The session recorded the part the worker's order bills.
			var row models.Order
			if err := s.app.DB.Take(&row, "payment_intent_id = ?", co.PaymentIntent.PaymentIntentID).Error; err != nil {
				t.Fatal(err)
			}
			if p := row.ChargeParts; len(p) != 1 || p[0].Kind != models.LineShipping || p[0].GSTRate != 1200 ||
				p[0].Amount != standardPrice || p[0].Tax != shipTax {
				t.Fatalf("charge parts %+v", p)
			}
		})
	}
}

// A store with no active method keeps the behaviour from before shipping methods: the
// client's cost (0 to 100000), no tax part, no method on the order.
func TestStoreWithoutMethodsChargesClientCost(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	_, admin := testkit.MustAdmin(t, app, "admin")
	z := mustZone(t, app, admin, map[string]any{"name": "India", "isDefault": true})
	mustMethod(t, app, admin, z.ID, map[string]any{"name": "Off", "price": 10, "minDays": 1, "maxDays": 2, "isActive": false})
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 10000, GSTRate: 1800})
	s := &shop{app: app, admin: admin, variant: p.Variants[0].ID}
	g := s.guest(t, 1)
	g.Invalid = true // above the document's maximum on purpose
	s.checkout(t, g, guestBody("Karnataka", map[string]any{"shippingCost": money.Amount(10000001)})).ExpectField(t, "shippingCost")
	g.Invalid = false
	var co checkoutAnswer
	s.checkout(t, g, guestBody("Karnataka", map[string]any{"shippingCost": 50})).Expect(t, 201).JSON(t, &co)
	o := s.pay(t, co)
	if tax, _ := money.IncludedGST(10000, 1800, 0); o.ShippingCost != 5000 || o.Total != 15000 || o.TaxTotal != tax || o.ShippingMethod != nil {
		t.Fatalf("order %+v", o)
	}
}
