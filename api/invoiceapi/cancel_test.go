package invoiceapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

// A shipment cancelled in transit is credited in full, with the reason;
// shipping it again is invoiced again, shipping included, so what stays
// invoiced is the order exactly.
func TestCancelledShipmentIsCredited(t *testing.T) {
	app := testkit.MustApp(t)
	token := mustTaxIdentity(t, app)
	cust := fixtures.MustCustomer(t, app.DB, "Kiran")
	o := fixtures.MustTaxOrder(t, app.DB, fixtures.TaxOrderSpec{Customer: cust, ShipState: "Goa", Shipping: 15000, ShippingRate: 1800,
		Lines: []fixtures.TaxLine{
			{Title: "Speaker", HSN: "8518", Qty: 3, Unit: 333333, Discount: 10, Rate: 1800},
			{Title: "Cable", HSN: "8544", Qty: 1, Unit: 49900, Rate: 1800},
		}})
	f := ship(t, app, token, o, map[uuid.UUID]int{o.Items[0].ID: 2})
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/fulfillments/"+f+"/cancel", testkit.Req{Token: token}).
		Expect(t, http.StatusOK)
	docs := docsOf(t, app, token, o)
	if len(docs) != 2 || docs[1].Type != "credit_note" || docs[1].Total != docs[0].Total || docs[1].IGSTTotal != docs[0].IGSTTotal ||
		docs[1].FulfillmentID == nil || *docs[1].FulfillmentID != f || docs[1].References[0].ID != docs[0].ID {
		t.Fatalf("documents after the cancellation %+v", docs)
	}
	ship(t, app, token, o, nil)
	docs = docsOf(t, app, token, o)
	if len(docs) != 3 || !strings.HasPrefix(docs[2].Lines[len(docs[2].Lines)-1].Description, "Shipping") {
		t.Fatalf("the new invoice does not bill the shipping again: %+v", docs)
	}
	mustDocumentKept(t, app, token, o)
	var events int64
	app.DB.Table("events").Where("type = ? AND data->>'orderId' = ?", "credit_note.issued", o.ID.String()).Count(&events)
	if events != 1 {
		t.Fatalf("%d credit_note.issued events", events)
	}
}
