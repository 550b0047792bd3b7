package courierapi_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// A parcel the courier fails to deliver twice is in the NDR queue with its
// reason and attempts; staff decide to have it returned (sent to the
// courier), and its rto_delivered scan returns the fulfilment to origin:
// units back on hand at the location, the invoice credited, the unpaid COD
// order cancelled, nothing refunded.
func TestUndeliveredTwiceThenReturnedToOrigin(t *testing.T) {
	e := mustEnv(t)
	app := e.app
	o, v, _ := e.customerCOD(t, 3)
	fid := e.fulfil(t, o)
	if err := e.book(t, fid); err != nil {
		t.Fatal(err)
	}
	awb := *e.shipment(t, fid).AWB
	if inv := e.count(t, `SELECT inventory FROM variants WHERE id = ?`, v.ID); inv != 7 {
		t.Fatalf("inventory %d after shipping", inv)
	}
	action := "/api/v1/admin/orders/" + o.ID.String() + "/fulfillments/" + fid + "/ndr-action"
	app.Do(t, http.MethodPost, action, testkit.Req{Token: e.staff, Body: map[string]any{"action": "return"}}).
		ExpectError(t, http.StatusConflict, "CONFLICT")

	e.scan(t, awb, "picked_up", "")
	e.scan(t, awb, "out_for_delivery", "")
	e.scan(t, awb, "undelivered", "Customer not available")
	e.scan(t, awb, "out_for_delivery", "")
	e.scan(t, awb, "undelivered", "Customer refused the parcel")

	var queue struct {
		Data []struct {
			FulfillmentID string `json:"fulfillmentId"`
			OrderNumber   string `json:"orderNumber"`
			AWB           string `json:"awb"`
			Reason        string `json:"reason"`
			Attempts      int    `json:"attempts"`
			LastScan      *struct {
				Status string `json:"status"`
			} `json:"lastScan"`
		} `json:"data"`
		Pagination struct {
			Total int `json:"total"`
		} `json:"pagination"`
	}
	app.Do(t, http.MethodGet, "/api/v1/admin/ndr", testkit.Req{Token: e.staff}).Expect(t, http.StatusOK).JSON(t, &queue)
	if queue.Pagination.Total != 1 || queue.Data[0].FulfillmentID != fid || queue.Data[0].Attempts != 2 || queue.Data[0].AWB != awb ||
		queue.Data[0].Reason != "Customer refused the parcel" || queue.Data[0].OrderNumber != o.OrderNumber ||
		queue.Data[0].LastScan == nil || queue.Data[0].LastScan.Status != "undelivered" {
		t.Fatalf("NDR queue: %+v", queue)
	}
	app.Do(t, http.MethodPost, action, testkit.Req{Token: e.staff, Invalid: true, Body: map[string]any{"action": "resend"}}).ExpectField(t, "action")
	app.Do(t, http.MethodPost, action, testkit.Req{Token: e.staff, Body: map[string]any{"action": "reattempt", "date": "2020-01-01"}}).
		ExpectField(t, "date")
	var sh map[string]any
	app.Do(t, http.MethodPost, action, testkit.Req{Token: e.staff, Body: map[string]any{"action": "return"}}).
		Expect(t, http.StatusOK).JSON(t, &sh)
	if sh["status"] != "undelivered" || !slices.Contains(e.sim.NDRActions(), awb+":return") {
		t.Fatalf("NDR action: %v; the courier received %v", sh, e.sim.NDRActions())
	}
	if n := e.count(t, `SELECT count(*) FROM admin_audit_logs WHERE action = 'fulfillment.ndr_action' AND entity_id = ?`, fid); n != 1 {
		t.Fatalf("%d audit entries of the NDR action", n)
	}

	if got := e.problems(t, "shipment_stale"); len(got) != 0 {
		t.Fatalf("stale shipments: %v", got)
	}
	app.DB.Exec(`UPDATE shipments SET last_scan_at = last_scan_at - interval '6 days' WHERE fulfillment_id = ?`, fid)
	if got := e.problems(t, "shipment_stale"); len(got) != 1 || got[0] != fid {
		t.Fatalf("stale shipments after six days: %v", got)
	}
	e.scan(t, awb, "rto_initiated", "")
	e.scan(t, awb, "rto_in_transit", "")
	e.orderIs(t, o.ID, models.OrderShipped, models.PaymentPending)
	e.scan(t, awb, "rto_delivered", "")
	e.orderIs(t, o.ID, models.OrderCancelled, models.PaymentPending)
	var f models.Fulfillment
	app.DB.Take(&f, "id = ?", fid)
	if f.Status != models.ShipmentReturnedToOrigin || e.shipment(t, fid).Status != "rto_delivered" {
		t.Fatalf("fulfilment %s, shipment %s", f.Status, e.shipment(t, fid).Status)
	}
	if inv := e.count(t, `SELECT inventory FROM variants WHERE id = ?`, v.ID); inv != 10 {
		t.Fatalf("inventory %d after the return to origin", inv)
	}
	if n := e.count(t, `SELECT sum(on_hand) FROM stock_levels WHERE variant_id = ? AND location_id = ?`, v.ID, *f.LocationID); n != 10 {
		t.Fatalf("%d units on hand at the fulfilment's location", n)
	}
	if n := e.count(t, `SELECT count(*) FROM tax_documents WHERE order_id = ? AND doc_type = 'credit_note' AND fulfillment_id = ?`, o.ID, fid); n != 1 {
		t.Fatalf("%d credit notes", n)
	}
	if n := e.count(t, `SELECT count(*) FROM refunds WHERE order_id = ?`, o.ID); n != 0 {
		t.Fatalf("%d refunds", n)
	}
	app.Do(t, http.MethodGet, "/api/v1/admin/ndr", testkit.Req{Token: e.staff}).Expect(t, http.StatusOK).JSON(t, &queue)
	if queue.Pagination.Total != 0 {
		t.Fatalf("NDR queue after the return: %+v", queue)
	}
}
