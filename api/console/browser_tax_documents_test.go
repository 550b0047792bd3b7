package console_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
)

// The order page lists the order's tax invoices and credit notes from the
// order's detail, with no request of its own (docs/DECISIONS.md "Console:
// names, forms that recover, request budget"): each one's number, type,
// the invoice a credit note reduces, its GST and total, and its PDF; a
// viewer sees them too, and the page stays within its budget.
func TestConsoleOrderTaxDocuments(t *testing.T) {
	bin := needChromium(t)
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	viewer, _ := testkit.MustAdmin(t, app, string(rbac.Viewer))
	g := "29AABCS1429B1Z"
	app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: token, Body: map[string]any{
		"legalName": "Sahyadri Handlooms Private Limited", "gstin": g + string(gstin.CheckChar(g)),
		"address": map[string]any{"line1": "14 Commercial Street", "line2": "Shivajinagar", "city": "Bengaluru", "state": "Karnataka", "pincode": "560001"}}}).
		Expect(t, 200)
	o := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "Anjali"),
		Lines: []fixtures.TaxLine{{Title: "Handloom saree", HSN: "5208", Qty: 2, Unit: 349900, Rate: 500}}})
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/fulfillments", testkit.Req{Token: token,
		Body: map[string]any{"carrier": "Delhivery", "trackingNumber": "DL-77"}}).Expect(t, 201)
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/refund", testkit.Req{Token: token,
		Body: map[string]any{"amount": 250, "reason": "frayed edge"}}).Expect(t, 200)
	var docs struct {
		Data []struct {
			ID, Type, Number                string
			CGSTTotal, SGSTTotal, IGSTTotal money.Amount
		} `json:"data"`
	}
	app.Do(t, "GET", "/api/v1/admin/invoices?orderId="+o.ID.String(), testkit.Req{Token: token}).Expect(t, 200).JSON(t, &docs)
	if len(docs.Data) != 2 || docs.Data[0].Type != "credit_note" {
		t.Fatalf("documents %+v, want a credit note and its invoice", docs.Data)
	}
	inv := docs.Data[1]

	b := newBrowser(t, bin, app.URL)
	b.open("/admin/orders", app.Config.AppName+" admin")
	signIn(b, viewer.Email)
	b.waitHeading("Orders")
	if n := b.visit("/orders/" + o.ID.String()); n > pageBudget {
		t.Errorf("the order page cost %d requests, more than %d", n, pageBudget)
	}
	if asked := eval[[]string](b, `performance.getEntriesByType('resource').map((e) => e.name).filter((u) => u.includes('/api/v1/admin/invoices'))`); len(asked) > 0 {
		t.Fatalf("the order page asked for its documents: %v", asked)
	}
	type row struct{ Number, Type, Against, GST, PDF string }
	rows := eval[[]row](b, `(() => {
		const s = [...document.querySelectorAll('main section')].find((x) => x.querySelector('h2')?.textContent === 'Tax documents');
		if (!s) return [];
		const cols = [...s.querySelectorAll('thead th')].map((th) => th.textContent);
		return [...s.querySelectorAll('tbody tr')].map((tr) => {
			const cell = (name) => tr.children[cols.indexOf(name)];
			return { Number: cell('Number').textContent, Type: cell('Type').textContent, Against: cell('Against').textContent,
				GST: cell('GST').textContent, PDF: cell('PDF').querySelector('a')?.getAttribute('href') || '' };
		});
	})()`)
	if len(rows) != 2 {
		t.Fatalf("the Tax documents section shows %d rows %+v, want 2", len(rows), rows)
	}
	for i, d := range docs.Data {
		r := rows[i]
		want := map[string]string{"credit_note": inv.Number, "invoice": "—"}[d.Type]
		if r.Number != d.Number || !strings.Contains(strings.ToLower(r.Type), strings.Split(d.Type, "_")[0]) || r.Against != want ||
			r.PDF != fmt.Sprintf("/api/v1/admin/invoices/%s/pdf", d.ID) {
			t.Fatalf("row %d %+v for document %+v", i, r, d)
		}
		var shown money.Amount
		if err := json.Unmarshal([]byte(strings.NewReplacer("₹", "", ",", "").Replace(r.GST)), &shown); err != nil ||
			shown != d.CGSTTotal+d.SGSTTotal+d.IGSTTotal {
			t.Fatalf("row %d shows GST %q, the document has %s (%v)", i, r.GST, d.CGSTTotal+d.SGSTTotal+d.IGSTTotal, err)
		}
	}
	b.accessible()
	b.check()
}
