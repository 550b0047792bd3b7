package invoiceapi_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"slices"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// summaryFields are the fields of a document that an order's detail
// carries: the document without its parties and lines.
var summaryFields = []string{"id", "type", "number", "issuedAt", "references", "taxableValue", "cgstTotal", "sgstTotal",
	"igstTotal", "cessTotal", "total", "currency", "eInvoice"}

// The admin order detail (GET /admin/orders/{id}, api/orderapi) carries its
// tax documents as GET /admin/invoices?orderId= lists them, newest first,
// without parties and lines, to a viewer too: the console's order page
// reads them there instead of asking for the list. Before anything ships
// the list is empty, not null.
func TestOrderDetailCarriesItsTaxDocuments(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	_, viewer := testkit.MustAdmin(t, app, string(rbac.Viewer))
	cust := fixtures.MustCustomer(t, app.DB, "Meera")
	o := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust, Shipping: 4900, ShippingRate: 1800,
		Lines: []fixtures.TaxLine{
			{Title: "Brass lamp", HSN: "9405", Qty: 2, Unit: 159900, Rate: 1200},
			{Title: "Cotton towel", HSN: "6302", Qty: 1, Unit: 39900, Rate: 500},
		}})

	if got := detailDocuments(t, app, viewer, o); got == nil || len(got) != 0 {
		t.Fatalf("before anything shipped the detail's taxDocuments are %v, want []", got)
	}

	ship(t, app, token, o, map[uuid.UUID]int{o.Items[0].ID: 1})
	ship(t, app, token, o, nil)
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/refund", testkit.Req{Token: token,
		Body: map[string]any{"amount": 500, "reason": "scratched"}}).Expect(t, http.StatusOK)

	var list struct {
		Data []map[string]any `json:"data"`
	}
	app.Do(t, "GET", "/api/v1/admin/invoices?limit=100&orderId="+o.ID.String(), testkit.Req{Token: token}).
		Expect(t, http.StatusOK).JSON(t, &list)
	got := detailDocuments(t, app, viewer, o)
	if len(list.Data) != 3 || len(got) != len(list.Data) {
		t.Fatalf("the detail has %d documents, the list %d (want 2 invoices and a credit note)", len(got), len(list.Data))
	}
	for i, summary := range got {
		keys := make([]string, 0, len(summary))
		for k := range summary {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		want := slices.Clone(summaryFields)
		slices.Sort(want)
		if !slices.Equal(keys, want) {
			t.Fatalf("document %d has fields %v, want %v", i, keys, want)
		}
		for _, k := range summaryFields {
			if !reflect.DeepEqual(summary[k], list.Data[i][k]) {
				t.Fatalf("document %d %s: detail %v, list %v", i, k, summary[k], list.Data[i][k])
			}
		}
	}
	if got[0]["type"] != models.DocCreditNote || len(got[0]["references"].([]any)) == 0 {
		t.Fatalf("newest document %v, want the credit note naming its invoice", got[0])
	}
}

// detailDocuments returns the taxDocuments of order o's admin detail (nil
// when it says null).
func detailDocuments(t *testing.T, app *testkit.App, token string, o models.Order) []map[string]any {
	t.Helper()
	var detail struct {
		TaxDocuments json.RawMessage `json:"taxDocuments"`
	}
	app.Do(t, "GET", "/api/v1/admin/orders/"+o.ID.String(), testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &detail)
	if len(detail.TaxDocuments) == 0 {
		t.Fatal("the order detail has no taxDocuments")
	}
	var docs []map[string]any
	if err := json.Unmarshal(detail.TaxDocuments, &docs); err != nil {
		t.Fatalf("taxDocuments %s: %v", detail.TaxDocuments, err)
	}
	return docs
}
