package courierapi_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
)

type listedShipment struct {
	FulfillmentID      string  `json:"fulfillmentId"`
	OrderNumber        string  `json:"orderNumber"`
	Status             string  `json:"status"`
	AWB                *string `json:"awb"`
	PickupScheduledFor *string `json:"pickupScheduledFor"`
	ManifestURL        string  `json:"manifestUrl"`
}

// The back office reads how the courier is configured, and lists the
// booked shipments (the oldest first, by order number) to label and hand
// over together; a pickup dates them and names its manifest; a booking not
// made yet is listed under pending; a status that is not a shipment's is
// refused naming the parameter.
func TestShipmentsListedForLabelsAndPickups(t *testing.T) {
	e := mustEnv(t)
	_, viewer := testkit.MustAdmin(t, e.app, string(rbac.Viewer))
	var set struct {
		Carrier           string `json:"carrier"`
		BooksShipments    bool   `json:"booksShipments"`
		WebhookTokenSet   bool   `json:"webhookTokenSet"`
		ShipmentStaleDays int    `json:"shipmentStaleDays"`
	}
	e.app.Do(t, http.MethodGet, "/api/v1/admin/settings/courier", testkit.Req{Token: viewer}).Expect(t, http.StatusOK).JSON(t, &set)
	if set.Carrier != "simulator" || !set.BooksShipments || !set.WebhookTokenSet || set.ShipmentStaleDays != 5 {
		t.Fatalf("courier settings %+v", set)
	}

	var fids []string
	var numbers []string
	for range 3 {
		o, _, _ := e.customerCOD(t, 1)
		fids, numbers = append(fids, e.fulfil(t, o)), append(numbers, o.OrderNumber)
	}
	for _, fid := range fids[:2] {
		if err := e.book(t, fid); err != nil {
			t.Fatal(err)
		}
	}
	list := func(query string) []listedShipment {
		var page struct{ Data []listedShipment }
		e.app.Do(t, http.MethodGet, "/api/v1/admin/shipments"+query, testkit.Req{Token: viewer}).Expect(t, http.StatusOK).JSON(t, &page)
		return page.Data
	}
	booked := list("")
	if len(booked) != 2 || booked[0].FulfillmentID != fids[0] || booked[1].OrderNumber != numbers[1] || booked[0].AWB == nil ||
		booked[0].PickupScheduledFor != nil {
		t.Fatalf("booked shipments %+v", booked)
	}
	if pending := list("?status=pending"); len(pending) != 1 || pending[0].FulfillmentID != fids[2] || pending[0].AWB != nil {
		t.Fatalf("pending shipments %+v", pending)
	}
	e.app.Do(t, http.MethodGet, "/api/v1/admin/shipments?status=shipped", testkit.Req{Token: viewer, Invalid: true}).ExpectField(t, "status")

	e.app.Do(t, http.MethodPost, "/api/v1/admin/pickups", testkit.Req{Token: e.staff, Body: map[string]any{"fulfillmentIds": fids[:2]}}).
		Expect(t, http.StatusCreated)
	for _, s := range list("?status=booked") {
		if s.PickupScheduledFor == nil || s.ManifestURL == "" {
			t.Fatalf("after the pickup %+v", s)
		}
	}
}
