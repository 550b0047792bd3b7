package invoiceapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/taxrule"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// valueProduct is an active product of HSN code hsn at price carrying
// rate (the rate a value rule overrides), with 100 units.
func valueProduct(t *testing.T, app *testkit.App, hsn string, price money.Amount, rate money.Rate) *models.Product {
	t.Helper()
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: price, GSTRate: rate})
	if err := app.DB.Exec(`UPDATE products SET hsn_code = ? WHERE id = ?`, hsn, p.ID).Error; err != nil {
		t.Fatal(err)
	}
	return p
}

// fixedCode is a discount code taking off a fixed amount from the order.
func fixedCode(t *testing.T, app *testkit.App, off money.Amount) string {
	t.Helper()
	code := "OFF" + strings.ToUpper(uuid.NewString()[:8])
	if err := app.DB.Create(&models.Discount{ID: uuid.New(), Code: &code, Type: models.DiscountFixedAmount, Value: int64(off),
		ApplicationType: models.DiscountManual, Scope: models.DiscountScopeOrder, IsActive: true}).Error; err != nil {
		t.Fatal(err)
	}
	return code
}

type cartLine struct {
	ProductID      uuid.UUID    `json:"productId"`
	Quantity       int          `json:"quantity"`
	DiscountAmount money.Amount `json:"discountAmount"`
	GSTRate        money.Rate   `json:"gstRate"`
}

type cartAnswer struct {
	Items    []cartLine   `json:"items"`
	TaxTotal money.Amount `json:"taxTotal"`
	Total    money.Amount `json:"total"`
}

// The GST 2.0 apparel rule decides each cart line's rate from the line's
// value after every discount: at and around ₹2,625 a piece (₹2,500 taxable
// at 5 %), a ₹3,000 piece with discounts, an order-level discount spread
// over two lines, and three units judged by the dearest.
func TestValueRuleRatesAtAndAroundTheLine(t *testing.T) {
	app := testkit.MustApp(t)
	type item struct {
		hsn   string
		price money.Amount
		qty   int
	}
	tests := []struct {
		name  string
		items []item
		off   money.Amount // a fixed discount code on the order, 0 for none
		want  []money.Rate
		tax   money.Amount
	}{
		// 2625 / 1.05 = 2500: exactly the threshold. Tax 2625 × 2.5/105 = 62.50 a half.
		{name: "2625 a piece is 5 %", items: []item{{"6109", 262500, 1}}, want: []money.Rate{500}, tax: 12500},
		{name: "a paisa above is 18 %", items: []item{{"6109", 262501, 1}}, want: []money.Rate{1800}, tax: 40042},
		{name: "3000 is 18 %", items: []item{{"6205", 300000, 1}}, want: []money.Rate{1800}, tax: 45762},
		// 2500 taxable 2380.95: well under.
		{name: "3000 less 500 is 5 %", items: []item{{"6205", 300000, 1}}, off: 50000, want: []money.Rate{500}, tax: 11904},
		// 2501 is 2381.90 taxable: the inclusive price above 2500 is not
		// what is compared, its value without GST is.
		{name: "3000 less 499 is 5 %", items: []item{{"6205", 300000, 1}}, off: 49900, want: []money.Rate{500}, tax: 11910},
		{name: "3000 less 375 is 5 %", items: []item{{"6403", 300000, 1}}, off: 37500, want: []money.Rate{500}, tax: 12500},
		{name: "3000 less 374 is 18 %", items: []item{{"6403", 300000, 1}}, off: 37400, want: []money.Rate{1800}, tax: 40058},
		// 800 off 4000 is spread 600 / 200: the shirt's 2400 moves below
		// the line; the speaker keeps its own 18 %.
		{name: "an order discount moves a unit across", items: []item{{"6205", 300000, 1}, {"8518", 100000, 1}}, off: 80000,
			want: []money.Rate{500, 1800}, tax: 11428 + 12204},
		{name: "the same order undiscounted", items: []item{{"6205", 300000, 1}, {"8518", 100000, 1}},
			want: []money.Rate{1800, 1800}, tax: 45762 + 15254},
		// Three at 2625.01 less 0.03 is 7875.00: 2625 each.
		{name: "three units at the line", items: []item{{"6302", 262501, 3}}, off: 3, want: []money.Rate{500}, tax: 37500},
		// Less 0.02 is 7875.01: one unit is 2625.01, and the line is
		// judged by its dearest unit.
		{name: "three units, one a paisa above", items: []item{{"6302", 262501, 3}}, off: 2, want: []money.Rate{1800}, tax: 120128},
		{name: "no rule: the product's 12 %", items: []item{{"8518", 300000, 1}}, want: []money.Rate{1200}, tax: 32142},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := testkit.Req{Headers: map[string]string{"X-Session-Id": "guest-" + uuid.NewString()}}
			order := map[uuid.UUID]int{}
			for i, it := range tc.items {
				rate := money.Rate(1200)
				if it.hsn == "8518" && len(tc.items) > 1 {
					rate = 1800
				}
				p := valueProduct(t, app, it.hsn, it.price, rate)
				order[p.ID] = i
				g.Body = map[string]any{"variantId": p.Variants[0].ID, "quantity": it.qty}
				app.Do(t, http.MethodPost, "/cart/items", g).Expect(t, http.StatusCreated)
			}
			var cart cartAnswer
			if tc.off > 0 {
				g.Body = map[string]any{"code": fixedCode(t, app, tc.off)}
				app.Do(t, http.MethodPost, "/cart/discount", g).Expect(t, http.StatusOK).JSON(t, &cart)
			} else {
				app.Do(t, http.MethodGet, "/cart", testkit.Req{Headers: g.Headers}).Expect(t, http.StatusOK).JSON(t, &cart)
			}
			got := make([]money.Rate, len(tc.items))
			for _, l := range cart.Items {
				got[order[l.ProductID]] = l.GSTRate
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("rates %v, want %v (cart %+v)", got, tc.want, cart)
				}
			}
			if cart.TaxTotal != tc.tax {
				t.Fatalf("tax %v, want %v (cart %+v)", cart.TaxTotal, tc.tax, cart)
			}
		})
	}
}

// orderLine is an order line as the admin order answers it.
type orderLine struct {
	ID             uuid.UUID    `json:"id"`
	ProductID      uuid.UUID    `json:"productId"`
	Quantity       int          `json:"quantity"`
	LineTotal      money.Amount `json:"lineTotal"`
	DiscountAmount money.Amount `json:"discountAmount"`
	GSTRate        money.Rate   `json:"gstRate"`
	TaxAmount      money.Amount `json:"taxAmount"`
}

// A COD order under the apparel rule: the cart, the order, the invoice and
// a return's credit note agree on every unit's rate; an order edit that
// adds a line prices it by the same rule; and deleting the rule changes
// the next cart, not the order or its documents.
func TestValueRuleFollowsTheOrderToItsDocuments(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	app.Do(t, http.MethodPut, "/api/v1/admin/settings/payments", testkit.Req{Token: token, Body: map[string]any{
		"cod": map[string]any{"enabled": true, "fee": 0, "feeGstRate": 18, "maxOrderAmount": 0, "maxOpenPerCustomer": 3,
			"zoneIds": []string{}}}}).Expect(t, http.StatusOK)
	kurta := valueProduct(t, app, "6211", 300000, 1200) // 3000 less its share of 500: 2500, 5 %
	jacket := valueProduct(t, app, "6201", 500000, 1200)
	g := testkit.Req{Headers: map[string]string{"X-Session-Id": "guest-" + uuid.NewString()}}
	for _, it := range []struct {
		p   *models.Product
		qty int
	}{{kurta, 2}, {jacket, 1}} {
		g.Body = map[string]any{"variantId": it.p.Variants[0].ID, "quantity": it.qty}
		app.Do(t, http.MethodPost, "/cart/items", g).Expect(t, http.StatusCreated)
	}
	// 2200 off 11000 takes 1200 from the kurtas, 2400 a piece (5 %), and
	// 1000 from the jacket, 4000 (18 %).
	g.Body = map[string]any{"code": fixedCode(t, app, 220000)}
	var cart cartAnswer
	app.Do(t, http.MethodPost, "/cart/discount", g).Expect(t, http.StatusOK).JSON(t, &cart)
	want := map[uuid.UUID]money.Rate{kurta.ID: 500, jacket.ID: 1800}
	for _, l := range cart.Items {
		if l.GSTRate != want[l.ProductID] {
			t.Fatalf("cart line %+v, want %v", l, want[l.ProductID])
		}
	}

	g.Body = map[string]any{"email": "kurta-" + uuid.NewString()[:8] + "@example.com", "name": "Asha", "phone": "+91 98450 11111",
		"address": map[string]any{"type": "shipping", "street": "12 MG Road", "city": "Bengaluru", "state": "Karnataka",
			"pincode": "560001", "district": "Bengaluru Urban", "country": "India"}, "shippingCost": 0, "paymentMethod": "cod"}
	var placed struct {
		ID       uuid.UUID    `json:"id"`
		Total    money.Amount `json:"total"`
		TaxTotal money.Amount `json:"taxTotal"`
	}
	app.Do(t, http.MethodPost, "/orders", g).Expect(t, http.StatusCreated).JSON(t, &placed)
	if placed.Total != cart.Total || placed.TaxTotal != cart.TaxTotal {
		t.Fatalf("order %+v, cart %+v", placed, cart)
	}
	var order struct {
		Items []orderLine `json:"items"`
	}
	orderPath := "/api/v1/admin/orders/" + placed.ID.String()
	app.Do(t, http.MethodGet, orderPath, testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &order)
	lineOf := map[uuid.UUID]orderLine{}
	for _, l := range order.Items {
		if l.GSTRate != want[l.ProductID] {
			t.Fatalf("order line %+v, want %v", l, want[l.ProductID])
		}
		lineOf[l.ProductID] = l
	}

	// Deleting the rule: the next cart pays the products' own 12 %; the
	// order and its documents keep what it was sold at.
	app.Do(t, http.MethodDelete, "/api/v1/admin/tax/value-rules/"+taxrule.GST2Apparel.String(), testkit.Req{Token: token}).
		Expect(t, http.StatusNoContent)
	g2 := testkit.Req{Headers: map[string]string{"X-Session-Id": "guest-" + uuid.NewString()},
		Body: map[string]any{"variantId": kurta.Variants[0].ID, "quantity": 1}}
	var after cartAnswer
	app.Do(t, http.MethodPost, "/cart/items", g2).Expect(t, http.StatusCreated).JSON(t, &after)
	if after.Items[0].GSTRate != 1200 {
		t.Fatalf("cart after the rule went: %+v", after)
	}

	o := models.Order{ID: placed.ID}
	ship(t, app, token, o, nil)
	docs := docsOf(t, app, token, o)
	if len(docs) != 1 {
		t.Fatalf("%d documents, want 1", len(docs))
	}
	checkDoc(t, docs[0])
	rateOfHSN := map[string]money.Rate{"6211": 500, "6201": 1800}
	for _, l := range docs[0].Lines {
		if r, ok := rateOfHSN[l.HSN]; ok && l.GSTRate != r {
			t.Fatalf("invoice line %+v, want %v", l, r)
		}
	}

	// A return of one kurta, paid for first (COD), is credited at 5 %.
	app.Do(t, http.MethodPost, orderPath+"/payments", testkit.Req{Token: token,
		Body: map[string]any{"method": "cod", "amount": placed.Total, "reference": "COD-1"}}).Expect(t, http.StatusCreated)
	var ret struct{ ID string }
	k := lineOf[kurta.ID]
	app.Do(t, http.MethodPost, orderPath+"/returns", testkit.Req{Token: token, Body: map[string]any{
		"items": []any{map[string]any{"orderItemId": k.ID, "quantity": 1, "reason": "damaged"}}}}).Expect(t, http.StatusCreated).JSON(t, &ret)
	returns := "/api/v1/admin/returns/" + ret.ID
	app.Do(t, http.MethodPost, returns+"/approve", testkit.Req{Token: token}).Expect(t, http.StatusOK)
	app.Do(t, http.MethodPost, returns+"/receive", testkit.Req{Token: token, Body: map[string]any{
		"items": []any{map[string]any{"orderItemId": k.ID, "quantity": 1, "restock": true}}}}).Expect(t, http.StatusOK)
	app.Do(t, http.MethodPost, returns+"/refund", testkit.Req{Token: token, Body: map[string]any{"method": "manual", "reference": "UTR-1"}}).
		Expect(t, http.StatusOK)
	docs = docsOf(t, app, token, o)
	var credited bool
	for _, d := range docs {
		if d.Type != "credit_note" {
			continue
		}
		checkDoc(t, d)
		for _, l := range d.Lines {
			if l.HSN == "6211" {
				credited = l.GSTRate == 500 && l.Quantity == 1
			}
		}
	}
	if !credited {
		t.Fatalf("no credit note of one kurta at 5 %%: %+v", docs)
	}
}

// An order edit prices a line it adds by the rule, at the order's
// discount: a ₹3,000 shirt added to an order under 10 % off is 2,700, 18 %;
// one at ₹2,900 is 2,610, 5 %. A line the edit raises keeps its rate.
func TestOrderEditAddsLinesByTheValueRule(t *testing.T) {
	app := testkit.MustApp(t)
	_, admin := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	app.Do(t, http.MethodPut, "/api/v1/admin/settings/payments", testkit.Req{Token: admin, Body: map[string]any{
		"cod": map[string]any{"enabled": true, "fee": 0, "feeGstRate": 18, "maxOrderAmount": 0, "maxOpenPerCustomer": 3,
			"zoneIds": []string{}}}}).Expect(t, http.StatusOK)
	tee := valueProduct(t, app, "6109", 50000, 1200)
	code := "TEN" + strings.ToUpper(uuid.NewString()[:8])
	if err := app.DB.Create(&models.Discount{ID: uuid.New(), Code: &code, Type: models.DiscountPercentage, Value: 1000,
		ApplicationType: models.DiscountManual, Scope: models.DiscountScopeOrder, IsActive: true}).Error; err != nil {
		t.Fatal(err)
	}
	g := testkit.Req{Headers: map[string]string{"X-Session-Id": "guest-" + uuid.NewString()},
		Body: map[string]any{"variantId": tee.Variants[0].ID, "quantity": 1}}
	app.Do(t, http.MethodPost, "/cart/items", g).Expect(t, http.StatusCreated)
	g.Body = map[string]any{"code": code}
	app.Do(t, http.MethodPost, "/cart/discount", g).Expect(t, http.StatusOK)
	g.Body = map[string]any{"email": "edit-" + uuid.NewString()[:8] + "@example.com", "name": "Asha", "phone": "+91 98450 11111",
		"address": map[string]any{"type": "shipping", "street": "12 MG Road", "city": "Bengaluru", "state": "Karnataka",
			"pincode": "560001", "district": "Bengaluru Urban", "country": "India"}, "shippingCost": 0, "paymentMethod": "cod"}
	var placed struct {
		ID    uuid.UUID   `json:"id"`
		Items []orderLine `json:"items"`
	}
	app.Do(t, http.MethodPost, "/orders", g).Expect(t, http.StatusCreated).JSON(t, &placed)

	dear := valueProduct(t, app, "6205", 300000, 1200)
	cheap := valueProduct(t, app, "6205", 290000, 1200)
	var edited struct {
		Order struct {
			Items []orderLine `json:"items"`
		} `json:"order"`
	}
	app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+placed.ID.String()+"/edits", testkit.Req{Token: admin, Body: map[string]any{
		"items": []any{map[string]any{"orderItemId": placed.Items[0].ID, "quantity": 3}},
		"add": []any{map[string]any{"variantId": dear.Variants[0].ID, "quantity": 1},
			map[string]any{"variantId": cheap.Variants[0].ID, "quantity": 2}}}}).Expect(t, http.StatusOK).JSON(t, &edited)
	want := map[uuid.UUID]struct {
		rate money.Rate
		qty  int
	}{tee.ID: {500, 3}, dear.ID: {1800, 1}, cheap.ID: {500, 2}}
	if len(edited.Order.Items) != 3 {
		t.Fatalf("edited order %+v", edited)
	}
	for _, l := range edited.Order.Items {
		w := want[l.ProductID]
		tax, _ := money.IncludedGST(l.LineTotal, w.rate, 0)
		if l.GSTRate != w.rate || l.Quantity != w.qty || l.TaxAmount != tax {
			t.Fatalf("edited line %+v, want %d at %v (tax %v)", l, w.qty, w.rate, tax)
		}
	}
}
