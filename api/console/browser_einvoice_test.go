package console_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/gstportal/gstsim"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// The order page shows a document's e-invoice (docs/DECISIONS.md
// "E-invoices and e-way bills"): the IRP's error of a refused one, and a
// Retry that sends it again; and a fulfilment's e-way bill, pending until
// the invoice has its IRN.
func TestConsoleEInvoiceAndEwayBill(t *testing.T) {
	bin := needChromium(t)
	sim, err := gstsim.New(gstsim.Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sim.Handler())
	t.Cleanup(srv.Close)
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) { c.GSTProvider, c.GSTAPIURL = "simulator", srv.URL }))
	staff, _ := testkit.MustAdmin(t, app, string(rbac.Staff))
	_, token := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	g, buyer := "29AABCS1429B1Z", "27AAACB7383J1Z"
	app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: token, Body: map[string]any{
		"legalName": "Sahyadri Handlooms Private Limited", "gstin": g + string(gstin.CheckChar(g)), "eInvoicing": true,
		"address": map[string]any{"line1": "14 Commercial Street", "line2": "Shivajinagar", "city": "Bengaluru", "state": "Karnataka", "pincode": "560001"}}}).
		Expect(t, 200)
	o := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "Anjali"), ShipState: "Maharashtra",
		BuyerGSTIN: buyer + string(gstin.CheckChar(buyer)), BuyerName: "Bharat Traders LLP", PaymentMethod: models.PaymentOffline,
		Lines: []fixtures.TaxLine{{Title: "Handloom saree", HSN: "0000", Qty: 2, Unit: 3000000, Rate: 500}}})
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/fulfillments", testkit.Req{Token: token,
		Body: map[string]any{"carrier": "Own fleet", "trackingNumber": "OF-1", "vehicleNumber": "KA01AB1234"}}).Expect(t, 201)
	var docs struct{ Data []struct{ ID, Number string } }
	app.Do(t, "GET", "/api/v1/admin/invoices?orderId="+o.ID.String(), testkit.Req{Token: token}).Expect(t, 200).JSON(t, &docs)
	if err := app.EInvoices.Report(context.Background(), uuid.MustParse(docs.Data[0].ID)); err != nil {
		t.Fatal(err)
	}

	b := newBrowser(t, bin, app.URL)
	b.open("/admin/orders", app.Config.AppName+" admin")
	signIn(b, staff.Email)
	b.waitHeading("Orders")
	b.visit("/orders/" + o.ID.String())
	cell := func(section, column string) string {
		return eval[string](b, `(() => {
			const s = [...document.querySelectorAll('main section')].find((x) => x.querySelector('h2')?.textContent === `+js(section)+`);
			if (!s) return '';
			const cols = [...s.querySelectorAll('thead th')].map((th) => th.textContent);
			const tr = s.querySelector('tbody tr');
			return tr && cols.includes(`+js(column)+`) ? tr.children[cols.indexOf(`+js(column)+`)].textContent : '';
		})()`)
	}
	if c := cell("Tax documents", "e-Invoice"); !strings.Contains(c, "ailed") || !strings.Contains(c, "5002") {
		t.Fatalf("the e-invoice cell shows %q, want failed with the IRP's error", c)
	}
	if c := cell("Fulfilments", "E-way bill"); !strings.Contains(strings.ToLower(c), "pending") {
		t.Fatalf("the e-way bill cell shows %q, want pending", c)
	}
	b.press("", "Send "+docs.Data[0].Number+" to the IRP again")
	b.waitText("is sent to the IRP again")
	if c := cell("Tax documents", "e-Invoice"); !strings.Contains(strings.ToLower(c), "pending") || strings.Contains(c, "5002") {
		t.Fatalf("after the retry the e-invoice cell shows %q, want pending", c)
	}
	var status string
	app.DB.Raw(`SELECT status FROM einvoices WHERE document_id = ?`, docs.Data[0].ID).Scan(&status)
	if status != "pending" {
		t.Fatalf("after the retry the report is %s", status)
	}
	b.accessible()
	b.check()
}
