package gstapi_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gstportal/gstsim"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// A store that does not e-invoice ships ₹63,000 of goods from Bengaluru to
// a buyer in Mumbai: its invoice gets no IRN, so the e-way bill goes to the
// e-way bill system's own API (its login and encryption). A distance the
// system refuses (more than 10 % over its pin-to-pin distance) ends the
// bill failed with NIC's code and message on the fulfilment; staff correct
// the distance and the retry (after the system forgot the session: one new
// login) generates it, valid a day per 200 km or part.
func TestEwayBillWithoutIRN(t *testing.T) {
	e := mustEnv(t)
	ctx := context.Background()
	e.app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: e.token, Body: map[string]any{
		"legalName": "Sahyadri Handlooms Private Limited", "gstin": storeGSTIN, "eInvoicing": false,
		"address": map[string]any{"line1": "14 Commercial Street", "line2": "Shivajinagar", "city": "Bengaluru", "state": "Karnataka",
			"pincode": "560001"}}}).
		Expect(t, http.StatusOK)
	o := fixtures.MustTaxOrder(t, e.app.DB, fixtures.TaxOrderSpec{Customer: fixtures.MustCustomer(t, e.app.DB, "Asha"),
		ShipState: "Maharashtra", ShipPincode: "400001", BuyerGSTIN: buyerGSTIN, BuyerName: "Bharat Traders LLP",
		PaymentMethod: models.PaymentOffline,
		Lines:         []fixtures.TaxLine{{Title: "Cotton shirt", HSN: "6205", Qty: 2, Unit: 3000000, Rate: 500}}})
	km := gstsim.PinDistance(560001, 400001)
	f := e.shipped(t, o, map[string]any{"vehicleNumber": "ka01ab1234", "distanceKm": 2 * km})
	if f.EwayBill == nil || f.EwayBill.Status != "pending" {
		t.Fatalf("an inter-state fulfilment of ₹63,000: %+v", f.EwayBill)
	}
	if d := e.docs(t, o); len(d) != 1 || d[0].EInvoice != nil {
		t.Fatalf("the invoice of a store that does not e-invoice: %+v", d)
	}

	if err := e.app.EInvoices.GenerateEwayBill(ctx, uuid.MustParse(f.ID)); err != nil {
		t.Fatal(err)
	}
	g := e.onOrder(t, o, f)
	if g.EwayBill.Status != "failed" || g.EwayBill.Error == nil ||
		*g.EwayBill.Error != "702: The distance between the pincodes given is too high" || !e.blocks(t, f) {
		t.Fatalf("a distance too high: %+v", g.EwayBill)
	}

	e.sim.RevokeTokens()
	retry := "/api/v1/admin/orders/" + o.ID.String() + "/fulfillments/" + f.ID + "/eway-bill/retry"
	e.app.Do(t, "POST", retry, testkit.Req{Token: e.token, Body: map[string]any{"distanceKm": km}}).Expect(t, http.StatusAccepted)
	if err := e.app.EInvoices.GenerateEwayBill(ctx, uuid.MustParse(f.ID)); err != nil {
		t.Fatal(err)
	}
	g = e.onOrder(t, o, f)
	if g.EwayBill.Status != "generated" || g.EwayBill.Number == nil || g.EwayBill.DistanceKm == nil || *g.EwayBill.DistanceKm != km ||
		g.EwayBill.Error != nil || e.blocks(t, f) {
		t.Fatalf("after the retry: %+v", g.EwayBill)
	}
	want := e.validUntil(t, f, km)
	if got, _ := time.Parse(time.RFC3339, *g.EwayBill.ValidUntil); !got.Equal(want) || (km+199)/200 < 5 {
		t.Fatalf("valid until %s, want %s (%d km: %d days)", *g.EwayBill.ValidUntil, want.UTC(), km, (km+199)/200)
	}
	if n := e.sim.Registered(); n != 0 {
		t.Fatalf("%d e-invoices registered by a store that does not e-invoice", n)
	}
	if !strings.Contains(*g.EwayBill.ValidUntil, "T18:29:00") {
		t.Fatalf("valid until %s: not 23:59 IST", *g.EwayBill.ValidUntil)
	}
}
