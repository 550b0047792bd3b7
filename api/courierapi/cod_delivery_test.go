package courierapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

type shipmentBody struct {
	Status             string  `json:"status"`
	AWB                *string `json:"awb"`
	CourierName        string  `json:"courierName"`
	LabelURL           string  `json:"labelUrl"`
	PickupScheduledFor *string `json:"pickupScheduledFor"`
	NDRAttempts        int     `json:"ndrAttempts"`
	Events             []struct {
		Status   string `json:"status"`
		At       string `json:"at"`
		Location string `json:"location"`
		Remark   string `json:"remark"`
	} `json:"events"`
}

type orderDetail struct {
	Status       string `json:"status"`
	Fulfillments []struct {
		ID             string        `json:"id"`
		Status         string        `json:"status"`
		Carrier        string        `json:"carrier"`
		TrackingNumber string        `json:"trackingNumber"`
		Shipment       *shipmentBody `json:"shipment"`
	} `json:"fulfillments"`
}

// A COD order end to end with the simulator as courier: the pincode is
// served (with COD), checkout places it, the fulfilment is booked by the
// worker (AWB, courier, label), the label PDF reads back, the pickup is
// scheduled with its manifest, the scans deliver the fulfilment and the
// order, the customer sees the timeline, and the courier's remittance
// file then marks the order paid.
func TestCODOrderDeliveredByTheCourier(t *testing.T) {
	e := mustEnv(t, testkit.WithWorker())
	app := e.app

	var svc map[string]any
	app.Do(t, http.MethodGet, "/cart/serviceability?pincode="+served, testkit.Req{}).Expect(t, http.StatusOK).JSON(t, &svc)
	if svc["serviceable"] != true || svc["cod"] != true || svc["estimatedDays"].(map[string]any)["min"] != 2.0 ||
		svc["estimatedDays"].(map[string]any)["max"] != 5.0 {
		t.Fatalf("serviceability: %v", svc)
	}
	app.Do(t, http.MethodGet, "/cart/serviceability?pincode=12", testkit.Req{}).ExpectField(t, "pincode")
	app.Do(t, http.MethodGet, "/cart/serviceability", testkit.Req{}).ExpectField(t, "pincode")

	o, v, token := e.customerCOD(t, 2)
	fid := e.fulfil(t, o)
	var detail orderDetail
	testkit.Eventually(t, 20*time.Second, "the booking", func() bool {
		app.Do(t, http.MethodGet, "/orders/"+o.ID.String(), testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &detail)
		return detail.Fulfillments[0].Shipment != nil && detail.Fulfillments[0].Shipment.AWB != nil
	})
	f := detail.Fulfillments[0]
	awb := *f.Shipment.AWB
	if f.Shipment.Status != "booked" || f.Shipment.CourierName != "SimExpress Surface" || f.TrackingNumber != awb ||
		f.Carrier != "SimExpress Surface" || f.Shipment.LabelURL == "" || len(f.Shipment.Events) != 1 {
		t.Fatalf("booked fulfilment: %+v %+v", f, f.Shipment)
	}
	if n := e.sim.Orders(e.shipment(t, fid).ChannelOrderID); n != 1 {
		t.Fatalf("%d orders at the courier", n)
	}

	label := app.Do(t, http.MethodGet, "/api/v1/admin/orders/"+o.ID.String()+"/fulfillments/"+fid+"/label",
		testkit.Req{Token: e.staff}).Expect(t, http.StatusOK)
	if ct := label.Header.Get("Content-Type"); ct != "application/pdf" {
		t.Fatalf("label content type %q", ct)
	}
	contains(t, pdfText(t, label.Body), "AWB: "+awb, "COD: collect Rs 1000.00", o.OrderNumber, served)

	var pickup struct {
		PickupScheduledFor string `json:"pickupScheduledFor"`
		ManifestURL        string `json:"manifestUrl"`
		Shipments          []struct {
			AWB string `json:"awb"`
		} `json:"shipments"`
	}
	app.Do(t, http.MethodPost, "/api/v1/admin/pickups", testkit.Req{Token: e.staff, Body: map[string]any{"fulfillmentIds": []string{fid}}}).
		Expect(t, http.StatusCreated).JSON(t, &pickup)
	if pickup.PickupScheduledFor == "" || len(pickup.Shipments) != 1 || pickup.Shipments[0].AWB != awb {
		t.Fatalf("pickup: %+v", pickup)
	}
	manifest := raw(t, http.MethodGet, pickup.ManifestURL, nil, nil).Expect(t, http.StatusOK)
	contains(t, pdfText(t, manifest.Body), "MANIFEST", awb)
	app.Do(t, http.MethodPost, "/api/v1/admin/pickups", testkit.Req{Token: e.staff, Invalid: true, Body: map[string]any{"fulfillmentIds": []string{fid, fid}}}).
		ExpectField(t, "fulfillmentIds")

	for _, st := range []string{"picked_up", "in_transit", "out_for_delivery"} {
		e.scan(t, awb, st, "")
	}
	e.orderIs(t, o.ID, models.OrderShipped, models.PaymentPending)
	e.scan(t, awb, "delivered", "")
	e.orderIs(t, o.ID, models.OrderDelivered, models.PaymentPending)

	app.Do(t, http.MethodGet, "/orders/"+o.ID.String(), testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &detail)
	f = detail.Fulfillments[0]
	var seen []string
	for _, ev := range f.Shipment.Events {
		seen = append(seen, ev.Status)
	}
	if f.Status != "delivered" || f.Shipment.Status != "delivered" || f.Shipment.PickupScheduledFor == nil ||
		len(seen) != 5 || seen[0] != "booked" || seen[4] != "delivered" || f.Shipment.Events[4].Location == "" {
		t.Fatalf("delivered fulfilment %s, shipment %+v, events %v", f.Status, f.Shipment, seen)
	}
	if n := e.count(t, `SELECT count(*) FROM events WHERE type = 'shipment.updated' AND data->>'orderId' = ?`, o.ID.String()); n != 5 {
		t.Fatalf("%d shipment.updated events, want 5 (booked and four scans)", n)
	}
	if inv := e.count(t, `SELECT inventory FROM variants WHERE id = ?`, v.ID); inv != 8 {
		t.Fatalf("inventory %d after delivery", inv)
	}

	// Delivered eleven days ago and not remitted: reconcile reports it,
	// and after the remittance no more.
	app.DB.Exec(`UPDATE fulfillments SET delivered_at = now() - interval '11 days' WHERE id = ?`, fid)
	if got := e.problems(t, "cod_not_remitted"); len(got) != 1 || got[0] != o.ID.String() {
		t.Fatalf("reconcile's COD not remitted: %v", got)
	}
	var job struct {
		JobID string `json:"jobId"`
	}
	app.Do(t, http.MethodPost, "/api/v1/admin/payments/cod-remittance", testkit.Req{Token: e.staff, Body: map[string]any{
		"rows": []map[string]any{{"orderNumber": o.OrderNumber, "amount": o.Total, "reference": "REM-" + awb}}}}).
		Expect(t, http.StatusAccepted).JSON(t, &job)
	var done struct {
		Result struct {
			Applied int `json:"applied"`
		} `json:"result"`
	}
	app.WaitJob(t, e.staff, job.JobID, &done)
	if done.Result.Applied != 1 {
		t.Fatalf("remittance: %+v", done)
	}
	e.orderIs(t, o.ID, models.OrderDelivered, models.PaymentPaid)
	if got := e.problems(t, "cod_not_remitted"); len(got) != 0 {
		t.Fatalf("reconcile's COD not remitted after the remittance: %v", got)
	}
}
