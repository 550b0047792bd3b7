package invoiceapi_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

// A 40 % product and a 28 % product with 12 % compensation cess sell,
// invoice and report: the cess is a line of its own (never CGST or SGST),
// CGST equals SGST, the unit is the product's, and GSTR-1 reports the cess
// as csamt under the product's UQC.
func TestFortyPercentAndCessSellInvoiceAndReport(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	app.Invoices.WithClock(func() time.Time { return time.Date(2026, 5, 10, 12, 0, 0, 0, catalog.IST) })

	// The cart prices the cess product as an order would: 1400 = 1000
	// taxable + 140 CGST + 140 SGST + 120 cess.
	cig := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 140000, GSTRate: 2800})
	if err := app.DB.Exec(`UPDATE products SET cess_rate = 1200, unit = 'PCS', hsn_code = '24022090' WHERE id = ?`, cig.ID).Error; err != nil {
		t.Fatal(err)
	}
	guest := testkit.Req{Headers: map[string]string{"X-Session-Id": "guest-" + uuid.NewString()}}
	guest.Body = map[string]any{"variantId": cig.Variants[0].ID, "quantity": 1}
	cart := app.Do(t, http.MethodPost, "/cart/items", guest).Expect(t, http.StatusCreated).Map(t)
	if cart["taxTotal"].(float64) != 280 || cart["cessTotal"].(float64) != 120 || cart["total"].(float64) != 1400 {
		t.Fatalf("cart of the cess product: %v", cart)
	}

	cust := fixtures.MustCustomer(t, app.DB, "Buyer")
	o := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust, Lines: []fixtures.TaxLine{
		{Title: "Cigarettes", HSN: "24022090", Qty: 2, Unit: 140000, Rate: 2800, Cess: 1200, UQC: "PCS"},
		{Title: "Pan masala", HSN: "21069020", Qty: 1, Unit: 14000, Rate: 4000},
	}})
	var order struct {
		TaxTotal money.Amount                                  `json:"taxTotal"`
		Tax      struct{ CGST, SGST, IGST, Cess money.Amount } `json:"tax"`
		Items    []struct {
			GSTRate    money.Rate   `json:"gstRate"`
			CessRate   money.Rate   `json:"cessRate"`
			TaxAmount  money.Amount `json:"taxAmount"`
			CessAmount money.Amount `json:"cessAmount"`
			Unit       string       `json:"unit"`
		} `json:"items"`
	}
	app.Do(t, http.MethodGet, "/api/v1/admin/orders/"+o.ID.String(), testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &order)
	if order.TaxTotal != 60000 || order.Tax.CGST != 30000 || order.Tax.SGST != 30000 || order.Tax.Cess != 24000 {
		t.Fatalf("order %+v", order)
	}
	for _, it := range order.Items {
		if it.GSTRate == 2800 && (it.CessAmount != 24000 || it.TaxAmount != 56000 || it.Unit != "PCS") ||
			it.GSTRate == 4000 && (it.CessAmount != 0 || it.TaxAmount != 4000 || it.Unit != "NOS") {
			t.Fatalf("order line %+v", it)
		}
	}

	ship(t, app, token, o, nil)
	docs := docsOf(t, app, token, o)
	if len(docs) != 1 {
		t.Fatalf("%d documents, want 1", len(docs))
	}
	d := docs[0]
	checkDoc(t, d)
	if d.Lines[0].HSN != "24022090" {
		d.Lines[0], d.Lines[1] = d.Lines[1], d.Lines[0]
	}
	want := []docLine{
		{Description: d.Lines[0].Description, HSN: "24022090", Unit: "PCS", Quantity: 2, UnitPrice: 140000, TaxableValue: 200000,
			GSTRate: 2800, CGST: 28000, SGST: 28000, CessRate: 1200, Cess: 24000, Total: 280000},
		{Description: d.Lines[1].Description, HSN: "21069020", Unit: "NOS", Quantity: 1, UnitPrice: 14000, TaxableValue: 10000,
			GSTRate: 4000, CGST: 2000, SGST: 2000, Total: 14000},
	}
	for i := range want {
		if d.Lines[i] != want[i] {
			t.Fatalf("line %d: %+v, want %+v", i+1, d.Lines[i], want[i])
		}
	}
	if d.CessTotal != 24000 || d.CGSTTotal != 30000 || d.SGSTTotal != 30000 || d.Total != 294000 || d.SGSTLabel != "SGST" {
		t.Fatalf("document %+v", d)
	}

	var r struct {
		B2CS []struct {
			Rt       money.Rate `json:"rt"`
			RawTxval float64    `json:"txval"`
			RawCamt  float64    `json:"camt"`
			RawSamt  float64    `json:"samt"`
			RawCsamt float64    `json:"csamt"`
		} `json:"b2cs"`
		HSN struct {
			B2C []struct {
				HSN   string  `json:"hsn_sc"`
				UQC   string  `json:"uqc"`
				Qty   float64 `json:"qty"`
				Csamt float64 `json:"csamt"`
				Camt  float64 `json:"camt"`
			} `json:"hsn_b2c"`
		} `json:"hsn"`
	}
	app.Do(t, http.MethodGet, "/api/v1/admin/reports/gstr1?period=2026-05", testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &r)
	if len(r.B2CS) != 2 || r.B2CS[0].Rt != 2800 || r.B2CS[0].RawTxval != 2000 || r.B2CS[0].RawCamt != 280 ||
		r.B2CS[0].RawSamt != 280 || r.B2CS[0].RawCsamt != 240 ||
		r.B2CS[1].Rt != 4000 || r.B2CS[1].RawTxval != 100 || r.B2CS[1].RawCamt != 20 || r.B2CS[1].RawCsamt != 0 {
		t.Fatalf("b2cs %+v", r.B2CS)
	}
	var cigs, pan bool
	for _, h := range r.HSN.B2C {
		switch h.HSN {
		case "24022090":
			cigs = h.UQC == "PCS" && h.Qty == 2 && h.Csamt == 240 && h.Camt == 280
		case "21069020":
			pan = h.UQC == "NOS" && h.Qty == 1 && h.Csamt == 0 && h.Camt == 20
		}
	}
	if !cigs || !pan {
		t.Fatalf("hsn_b2c %+v", r.HSN.B2C)
	}
}

// A rate change scheduled for tomorrow changes nothing today; the job run
// at tomorrow's 00:00 IST (the injected clock) sets the product's rate, once
// however often it runs; a cart priced after it pays the new rate, while
// the order placed before and its documents (an invoice before, a credit
// note after) keep the old one.
func TestRateChangeFromTomorrow(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	ctx := context.Background()
	cust := fixtures.MustCustomer(t, app.DB, "Buyer")
	o := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust, Lines: []fixtures.TaxLine{
		{Title: "Earbuds", HSN: "8518", Qty: 2, Unit: 118000, Rate: 1800}}})
	ship(t, app, token, o, nil)
	before := docsOf(t, app, token, o)
	pid := o.Items[0].ProductID.String()
	variant := *o.Items[0].VariantID

	now := time.Now().In(catalog.IST)
	tomorrow := now.AddDate(0, 0, 1).Format(time.DateOnly)
	yesterday := now.AddDate(0, 0, -1).Format(time.DateOnly)
	post := func(body map[string]any) *testkit.Response {
		return app.Do(t, http.MethodPost, "/api/v1/admin/tax/rate-changes", testkit.Req{Token: token, Body: body})
	}
	post(map[string]any{"productIds": []string{pid}, "gstRate": 5, "effectiveFrom": yesterday}).ExpectField(t, "effectiveFrom")
	post(map[string]any{"productIds": []string{pid}, "hsnPrefix": "85", "gstRate": 5, "effectiveFrom": tomorrow}).ExpectField(t, "hsnPrefix")
	post(map[string]any{"productIds": []string{uuid.NewString()}, "gstRate": 5, "effectiveFrom": tomorrow}).ExpectField(t, "productIds[0]")
	var rc struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	post(map[string]any{"hsnPrefix": "8518", "gstRate": 5, "effectiveFrom": tomorrow}).Expect(t, http.StatusCreated).JSON(t, &rc)
	var withdrawn struct{ ID string }
	post(map[string]any{"productIds": []string{pid}, "gstRate": 12, "effectiveFrom": tomorrow}).Expect(t, http.StatusCreated).JSON(t, &withdrawn)
	app.Do(t, http.MethodDelete, "/api/v1/admin/tax/rate-changes/"+withdrawn.ID, testkit.Req{Token: token}).Expect(t, http.StatusNoContent)

	product := func() map[string]any {
		return app.Do(t, http.MethodGet, "/api/v1/admin/products/"+pid, testkit.Req{Token: token}).Expect(t, http.StatusOK).Map(t)
	}
	p := product()
	sched, _ := p["scheduledGstRate"].(map[string]any)
	if p["gstRate"].(float64) != 18 || sched == nil || sched["rate"].(float64) != 5 || sched["effectiveFrom"] != tomorrow {
		t.Fatalf("product before the date: %v", p)
	}
	guest := testkit.Req{Headers: map[string]string{"X-Session-Id": "guest-" + uuid.NewString()}}
	guest.Body = map[string]any{"variantId": variant, "quantity": 1}
	cart := app.Do(t, http.MethodPost, "/cart/items", guest).Expect(t, http.StatusCreated).Map(t)
	if cart["taxTotal"].(float64) != 180 {
		t.Fatalf("cart today: %v", cart)
	}
	if done, err := app.Catalog.ApplyDueRateChanges(ctx, time.Now()); err != nil || len(done) != 0 {
		t.Fatalf("today's job applied %v, %v", done, err)
	}

	// Tomorrow, 00:00:30 IST: two schedulers' jobs at once, then a rerun.
	at := time.Date(now.Year(), now.Month(), now.Day()+1, 0, 0, 30, 0, catalog.IST)
	var wg sync.WaitGroup
	applied := make([][]catalog.AppliedRateChange, 2)
	for i := range applied {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var err error
			if applied[i], err = app.Catalog.ApplyDueRateChanges(ctx, at); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if n := len(applied[0]) + len(applied[1]); n != 1 {
		t.Fatalf("the change was applied %d times: %v", n, applied)
	}
	if again, err := app.Catalog.ApplyDueRateChanges(ctx, at.Add(time.Minute)); err != nil || len(again) != 0 {
		t.Fatalf("a rerun applied %v, %v", again, err)
	}
	var audits int64
	app.DB.Raw(`SELECT count(*) FROM admin_audit_logs WHERE action = 'tax.rate_change_apply' AND entity_id = ?`, rc.ID).Scan(&audits)
	if audits != 1 {
		t.Fatalf("%d audit entries of the apply, want 1", audits)
	}
	p = product()
	if p["gstRate"].(float64) != 5 || p["scheduledGstRate"] != nil {
		t.Fatalf("product after the date: %v", p)
	}
	var list struct {
		Data []struct {
			ID              string `json:"id"`
			Status          string `json:"status"`
			ProductsChanged *int   `json:"productsChanged"`
		} `json:"data"`
	}
	app.Do(t, http.MethodGet, "/api/v1/admin/tax/rate-changes", testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &list)
	statuses := map[string]string{}
	for _, c := range list.Data {
		statuses[c.ID] = c.Status
		if c.ID == rc.ID && (c.ProductsChanged == nil || *c.ProductsChanged != 1) {
			t.Fatalf("applied change %+v", c)
		}
	}
	if statuses[rc.ID] != "applied" || statuses[withdrawn.ID] != "withdrawn" {
		t.Fatalf("changes %+v", list.Data)
	}
	app.Do(t, http.MethodDelete, "/api/v1/admin/tax/rate-changes/"+rc.ID, testkit.Req{Token: token}).ExpectError(t, http.StatusConflict, "CONFLICT")

	// A cart priced now pays 5 %: 1180 = 1123.81 + 28.10 + 28.10 (1180 × 2.5/105 = 28.095).
	cart = app.Do(t, http.MethodGet, "/cart", testkit.Req{Headers: guest.Headers}).Expect(t, http.StatusOK).Map(t)
	if cart["taxTotal"].(float64) != 56.2 {
		t.Fatalf("cart after the change: %v", cart)
	}
	// The order and its invoice keep 18 %; a credit note now credits at 18 %.
	var order struct {
		Items []struct {
			GSTRate   money.Rate   `json:"gstRate"`
			TaxAmount money.Amount `json:"taxAmount"`
		} `json:"items"`
	}
	app.Do(t, http.MethodGet, "/api/v1/admin/orders/"+o.ID.String(), testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &order)
	if order.Items[0].GSTRate != 1800 || order.Items[0].TaxAmount != 36000 {
		t.Fatalf("order after the change: %+v", order)
	}
	app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+o.ID.String()+"/refund", testkit.Req{Token: token,
		Body: map[string]any{"amount": 1180, "reason": "goodwill"}}).Expect(t, http.StatusOK)
	after := docsOf(t, app, token, o)
	if len(after) != 2 || after[0].Lines[0] != before[0].Lines[0] || after[0].Total != before[0].Total {
		t.Fatalf("the invoice changed: %+v, was %+v", after, before)
	}
	credit := after[1]
	checkDoc(t, credit)
	if credit.Type != "credit_note" || credit.Lines[0].GSTRate != 1800 || credit.CGSTTotal != 9000 || credit.SGSTTotal != 9000 {
		t.Fatalf("credit note %+v", credit)
	}
}
