package invoiceapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// deliveryAddress is a document's delivery address as answered.
type deliveryAddress struct {
	Name, Line1, Line2, City, State, StateCode, Pincode string
}

// documentDelivery reads document id's deliveryAddress (nil when none is
// recorded) and its place of supply.
func documentDelivery(t *testing.T, app *testkit.App, token, id string) (*deliveryAddress, string) {
	t.Helper()
	var d struct {
		DeliveryAddress *deliveryAddress `json:"deliveryAddress"`
		PlaceOfSupply   struct{ Code string }
	}
	r := app.Do(t, "GET", "/api/v1/admin/invoices/"+id, testkit.Req{Token: token}).Expect(t, http.StatusOK)
	r.JSON(t, &d)
	if !strings.Contains(string(r.Body), `"deliveryAddress":`) {
		t.Fatalf("the document answer has no deliveryAddress: %s", r.Body)
	}
	return d.DeliveryAddress, d.PlaceOfSupply.Code
}

// billTo makes order o billed to an address in state, its shipping
// address unchanged.
func billTo(t *testing.T, app *testkit.App, o models.Order, state string) {
	t.Helper()
	addr, _ := json.Marshal(models.Address{Type: "billing", Street: "7 MG Road", City: "Elsewhere", State: state,
		Pincode: "400001", District: "Central", Country: "IN"})
	if err := app.DB.Exec(`UPDATE orders SET billing_address = ? WHERE id = ?`, addr, o.ID).Error; err != nil {
		t.Fatal(err)
	}
}

// The place of supply is the delivery address's state; the document
// records that address, with the state's name and code, when the buyer is
// unregistered or it is not the billing address (Rule 46, IGST Act
// s.10(1)(ca)), and prints it; a registered buyer's goods delivered to the
// billing address record none. A credit note records it as its invoice did.
func TestDocumentsRecordTheDeliveryAddress(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	buyer := gstinOf("29", "AAACB7383J")
	line := fixtures.TaxLine{Title: "Silk saree", HSN: "5007", Qty: 1, Unit: 1249900, Rate: 500}

	// Registered, delivered where billed: nothing recorded.
	cust := fixtures.MustCustomer(t, app.DB, "Asha Rao")
	same := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust, BuyerGSTIN: buyer,
		BuyerName: "Bengaluru Boutique LLP", Lines: []fixtures.TaxLine{line}})
	ship(t, app, token, same, nil)
	inv := docsOf(t, app, token, same)[0]
	if got, pos := documentDelivery(t, app, token, inv.ID); got != nil || pos != "29" {
		t.Fatalf("registered buyer delivered at the billing address: delivery %+v, place of supply %s", got, pos)
	}
	text := pdfText(t, app.Do(t, "GET", "/api/v1/admin/invoices/"+inv.ID+"/pdf", testkit.Req{Token: token}).Expect(t, 200).Body)
	if strings.Contains(text, "Delivered to") {
		t.Errorf("a PDF prints a delivery address it does not record:\n%s", text)
	}

	// Registered, billed in Maharashtra and delivered in Karnataka: the
	// place of supply is Karnataka, the delivery address is recorded.
	elsewhere := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust, BuyerGSTIN: buyer,
		BuyerName: "Bengaluru Boutique LLP", Lines: []fixtures.TaxLine{line}})
	billTo(t, app, elsewhere, "Maharashtra")
	ship(t, app, token, elsewhere, nil)
	inv = docsOf(t, app, token, elsewhere)[0]
	got, pos := documentDelivery(t, app, token, inv.ID)
	want := deliveryAddress{Name: "Asha Rao", Line1: "12 Residency Road", Line2: "Urban", City: "Somewhere",
		State: "Karnataka", StateCode: "29", Pincode: "560025"}
	if got == nil || *got != want || pos != "29" || inv.SupplyType != "intra" {
		t.Fatalf("delivery %+v (want %+v), place of supply %s, %s", got, want, pos, inv.SupplyType)
	}
	text = pdfText(t, app.Do(t, "GET", "/api/v1/admin/invoices/"+inv.ID+"/pdf", testkit.Req{Token: token}).Expect(t, 200).Body)
	mustContain(t, text, "Delivered to (place of supply)", "12 Residency Road", "State: Karnataka (code 29)",
		"7 MG Road", "Place of supply: Karnataka (29)")

	// Unregistered, delivered where billed, in another state: recorded,
	// and so is its credit note's.
	guest := fixtures.MustCustomer(t, app.DB, "Farah Khan")
	b2c := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: guest, ShipState: "Maharashtra",
		Lines: []fixtures.TaxLine{line}})
	ship(t, app, token, b2c, nil)
	app.Do(t, "POST", "/api/v1/admin/orders/"+b2c.ID.String()+"/refund", testkit.Req{Token: token,
		Body: map[string]any{"amount": 500, "reason": "late delivery"}}).Expect(t, http.StatusOK)
	docs := docsOf(t, app, token, b2c)
	if len(docs) != 2 {
		t.Fatalf("%d documents", len(docs))
	}
	for _, d := range docs {
		got, pos := documentDelivery(t, app, token, d.ID)
		if got == nil || got.State != "Maharashtra" || got.StateCode != "27" || got.Name != "Farah Khan" || pos != "27" {
			t.Fatalf("%s of an unregistered buyer: delivery %+v, place of supply %s", d.Type, got, pos)
		}
		text := pdfText(t, app.Do(t, "GET", "/api/v1/admin/invoices/"+d.ID+"/pdf", testkit.Req{Token: token}).Expect(t, 200).Body)
		mustContain(t, text, "Delivered to (place of supply)", "State: Maharashtra (code 27)", "Unregistered")
	}
}
