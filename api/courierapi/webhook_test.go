package courierapi_test

import (
	"context"
	"github.com/google/uuid"
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/courier"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// The tracking webhook changes nothing twice or wrongly: without its token
// (or with another) it is refused; a scan received twice is applied once;
// a late in_transit after delivered is kept in the events only; a scan of
// an unknown AWB is answered and ignored; a body that is not a scan is a
// 400.
func TestTrackingWebhookAppliesEachScanOnceAndOnlyForward(t *testing.T) {
	e := mustEnv(t)
	o, _, _ := e.customerCOD(t, 1)
	fid := e.fulfil(t, o)
	if err := e.book(t, fid); err != nil {
		t.Fatal(err)
	}
	awb := *e.shipment(t, fid).AWB
	at := time.Now().UTC().Truncate(time.Second)
	delivered := courier.Webhook(courier.Scan{AWB: awb, Status: courier.StatusDelivered, At: at, Location: "Bengaluru"}, "x", "SimExpress")

	e.hook(t, delivered, "").ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	e.hook(t, delivered, "not-the-token-0123456789").ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	e.orderIs(t, o.ID, models.OrderShipped, models.PaymentPending)

	outcome := func(body []byte) string {
		t.Helper()
		var out struct {
			Outcome string `json:"outcome"`
		}
		e.hook(t, body, webhookToken).Expect(t, http.StatusOK).JSON(t, &out)
		return out.Outcome
	}
	if got := outcome(delivered); got != "applied" {
		t.Fatalf("first delivered: %s", got)
	}
	if got := outcome(delivered); got != "duplicate" {
		t.Fatalf("second delivered: %s", got)
	}
	e.orderIs(t, o.ID, models.OrderDelivered, models.PaymentPending)
	late := courier.Webhook(courier.Scan{AWB: awb, Status: courier.StatusInTransit, At: at.Add(-time.Hour), Location: "Hub"}, "x", "SimExpress")
	if got := outcome(late); got != "recorded" {
		t.Fatalf("late in_transit: %s", got)
	}
	later := courier.Webhook(courier.Scan{AWB: awb, Status: courier.StatusRTOInitiated, At: at.Add(time.Hour)}, "x", "SimExpress")
	if got := outcome(later); got != "recorded" {
		t.Fatalf("rto_initiated after delivered: %s", got)
	}
	sh := e.shipment(t, fid)
	if sh.Status != "delivered" || !sh.LastScanAt.Equal(at) {
		t.Fatalf("shipment %s at %v", sh.Status, sh.LastScanAt)
	}
	if n := e.count(t, `SELECT count(*) FROM shipment_events WHERE fulfillment_id = ?`, fid); n != 4 {
		t.Fatalf("%d events, want booked, delivered, the late in_transit and rto_initiated", n)
	}
	if n := e.count(t, `SELECT count(*) FROM events WHERE type = 'order.status_changed' AND data->>'orderId' = ? AND data->>'to' = 'delivered'`,
		o.ID.String()); n != 1 {
		t.Fatalf("%d order.status_changed to delivered", n)
	}
	if n := e.count(t, `SELECT count(*) FROM events WHERE type = 'shipment.updated' AND data->>'fulfillmentId' = ?`, fid); n != 2 {
		t.Fatalf("%d shipment.updated, want booked and delivered", n)
	}
	unknown := courier.Webhook(courier.Scan{AWB: "NOSUCHAWB1", Status: courier.StatusDelivered, At: at}, "x", "SimExpress")
	if got := outcome(unknown); got != "unknown_awb" {
		t.Fatalf("unknown AWB: %s", got)
	}
	e.hook(t, []byte(`{"awb": "`+awb+`", "current_status": "DELIVERED", "current_timestamp": "yesterday"}`), webhookToken).
		ExpectError(t, http.StatusBadRequest, "VALIDATION_ERROR")
	e.hook(t, []byte(`not json`), webhookToken).ExpectError(t, http.StatusBadRequest, "VALIDATION_ERROR")
	e.app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+o.ID.String()+"/fulfillments/"+fid+"/ndr-action",
		testkit.Req{Token: e.staff, Body: map[string]any{"action": "reattempt"}}).ExpectError(t, http.StatusConflict, "CONFLICT")
}

// A booking task that dies between the courier's order and its AWB books
// once when retried: after the AWB call failed (the courier's order was
// recorded first), and after the answer to the order's creation was lost
// (the retry finds the courier's order by our channel order id).
func TestBookingRetriedAfterACrashBooksOnce(t *testing.T) {
	e := mustEnv(t)
	o1, _, _ := e.customerCOD(t, 1)
	fid := e.fulfil(t, o1)
	e.dispatch(t)
	info, err := e.app.Inspector.GetTaskInfo("default", "courier-book:"+fid)
	if err != nil || info.Type != "courier:book" {
		t.Fatalf("booking task not queued: %v %v", info, err)
	}
	e.sim.FailNextAWB(1)
	if err := e.book(t, fid); err == nil {
		t.Fatal("the booking succeeded with the AWB call failing")
	}
	sh := e.shipment(t, fid)
	if sh.CourierShipmentID == nil || sh.AWB != nil || sh.Status != "pending" {
		t.Fatalf("after the failed AWB call: shipment %v awb %v status %s", sh.CourierShipmentID, sh.AWB, sh.Status)
	}
	if err := e.book(t, fid); err != nil {
		t.Fatal(err)
	}
	if err := e.book(t, fid); err != nil {
		t.Fatal(err)
	}
	sh = e.shipment(t, fid)
	if n := e.sim.Orders(sh.ChannelOrderID); n != 1 || sh.AWB == nil || sh.Status != "booked" {
		t.Fatalf("%d orders at the courier, awb %v, status %s", n, sh.AWB, sh.Status)
	}

	o2, _, _ := e.customerCOD(t, 1)
	fid2 := e.fulfil(t, o2)
	e.sim.FailNextCreateAnswer(1)
	if err := e.book(t, fid2); err == nil {
		t.Fatal("the booking succeeded with the creation's answer lost")
	}
	if sh := e.shipment(t, fid2); sh.CourierShipmentID != nil {
		t.Fatalf("recorded a courier shipment %s from a lost answer", *sh.CourierShipmentID)
	}
	if err := e.book(t, fid2); err != nil {
		t.Fatal(err)
	}
	sh = e.shipment(t, fid2)
	if n := e.sim.Orders(sh.ChannelOrderID); n != 1 || sh.AWB == nil {
		t.Fatalf("%d orders at the courier for the second, awb %v", n, sh.AWB)
	}
	var f models.Fulfillment
	e.app.DB.Take(&f, "id = ?", fid2)
	if f.TrackingNumber != *sh.AWB || f.Carrier != "SimExpress Surface" {
		t.Fatalf("fulfilment carrier %q tracking %q", f.Carrier, f.TrackingNumber)
	}
}

// With a courier, checkout refuses a pincode it cannot serve, payment
// options answer reason pincode where it cannot collect cash (and COD
// checkout is refused there), and staff must still type tracking for a
// location without a pickup code.
func TestCheckoutFollowsTheCourier(t *testing.T) {
	e := mustEnv(t)
	app := e.app
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 50000, Variants: []testkit.StoreVariant{{Inventory: 10}}})
	guest := func() testkit.Req {
		r := testkit.Req{Headers: map[string]string{"X-Session-Id": "guest-" + uuid.NewString()}}
		app.Do(t, http.MethodPost, "/cart/items", testkit.Req{Headers: r.Headers, Body: map[string]any{"variantId": p.Variants[0].ID,
			"quantity": 1}}).Expect(t, http.StatusCreated)
		return r
	}
	checkout := func(r testkit.Req, pincode, method string) *testkit.Response {
		r.Body = map[string]any{"email": "buyer@example.com", "name": "Asha Rao", "phone": "+91 9876543210", "shippingCost": 0,
			"paymentMethod": method, "address": map[string]any{"type": "shipping", "street": "1 Main Road", "city": "Delhi",
				"state": "Karnataka", "pincode": pincode, "country": "India"}}
		return app.Do(t, http.MethodPost, "/orders", r)
	}
	g := guest()
	checkout(g, unserved, "online").ExpectField(t, "shippingAddress.pincode")
	checkout(g, unserved, "cod").ExpectField(t, "shippingAddress.pincode")

	var opts struct {
		Data []struct {
			Method    string  `json:"method"`
			Available bool    `json:"available"`
			Reason    *string `json:"reason"`
		} `json:"data"`
	}
	app.Do(t, http.MethodGet, "/cart/payment-options?state=Karnataka&pincode="+noCOD, g).Expect(t, http.StatusOK).JSON(t, &opts)
	if opts.Data[1].Method != "cod" || opts.Data[1].Available || opts.Data[1].Reason == nil || *opts.Data[1].Reason != "pincode" {
		t.Fatalf("payment options at %s: %+v", noCOD, opts)
	}
	app.Do(t, http.MethodGet, "/cart/payment-options?state=Karnataka&pincode="+served, g).Expect(t, http.StatusOK).JSON(t, &opts)
	if !opts.Data[1].Available {
		t.Fatalf("payment options at %s: %+v", served, opts)
	}
	var svc map[string]any
	app.Do(t, http.MethodGet, "/cart/serviceability?pincode="+noCOD, g).Expect(t, http.StatusOK).JSON(t, &svc)
	if svc["serviceable"] != true || svc["cod"] != false {
		t.Fatalf("serviceability at %s: %v", noCOD, svc)
	}
	app.Do(t, http.MethodGet, "/cart/serviceability?pincode="+unserved, g).Expect(t, http.StatusOK).JSON(t, &svc)
	if svc["serviceable"] != false || svc["cod"] != false || svc["estimatedDays"] != nil {
		t.Fatalf("serviceability at %s: %v", unserved, svc)
	}
	// One answer cached per pincode and location.
	keys, err := app.CacheRedis.Keys(context.Background(), "*courier:serviceability:*").Result()
	if err != nil || len(keys) != 3 {
		t.Fatalf("serviceability cache keys %v %v", keys, err)
	}
	if n := e.count(t, `SELECT count(*) FROM orders`); n != 0 {
		t.Fatalf("%d orders placed", n)
	}
	refused := checkout(g, noCOD, "cod").ExpectField(t, "paymentMethod")
	if refused.Error.Details["reason"] != "pincode" {
		t.Fatalf("COD refusal: %+v", refused.Error)
	}
	var placed struct {
		ID string `json:"id"`
	}
	checkout(g, noCOD, "online").Expect(t, http.StatusCreated)
	checkout(guest(), served, "cod").Expect(t, http.StatusCreated).JSON(t, &placed)

	// Without a pickup code nothing books: staff type the tracking.
	app.DB.Exec(`UPDATE locations SET pickup_code = NULL`)
	path := "/api/v1/admin/orders/" + placed.ID + "/fulfillments"
	app.Do(t, http.MethodPost, path, testkit.Req{Token: e.staff, Body: map[string]any{}}).ExpectField(t, "carrier")
	app.Do(t, http.MethodPost, path, testkit.Req{Token: e.staff, Body: map[string]any{"carrier": "Delhivery"}}).ExpectField(t, "trackingNumber")
	var f struct {
		Shipment any `json:"shipment"`
	}
	app.Do(t, http.MethodPost, path, testkit.Req{Token: e.staff, Body: map[string]any{"carrier": "Delhivery", "trackingNumber": "DL1"}}).
		Expect(t, http.StatusCreated).JSON(t, &f)
	if f.Shipment != nil || e.count(t, `SELECT count(*) FROM shipments`) != 0 {
		t.Fatalf("a shipment was booked: %v", f.Shipment)
	}
}
