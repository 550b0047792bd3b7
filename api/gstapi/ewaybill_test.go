package gstapi_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/einvoice"
	"github.com/gocommerce/shop/internal/gstportal"
	"github.com/gocommerce/shop/internal/gstportal/gstsim"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

type ewayBill struct {
	Status     string  `json:"status"`
	Number     *int64  `json:"number"`
	ValidUntil *string `json:"validUntil"`
	DistanceKm *int    `json:"distanceKm"`
	Error      *string `json:"error"`
}

type fulfilment struct {
	ID            string    `json:"id"`
	VehicleNumber *string   `json:"vehicleNumber"`
	EwayBill      *ewayBill `json:"ewayBill"`
}

// shipped ships all of o with extra and answers the fulfilment.
func (e *env) shipped(t *testing.T, o models.Order, extra map[string]any) fulfilment {
	t.Helper()
	body := map[string]any{"carrier": "Own fleet", "trackingNumber": "TR" + uuid.NewString()[:8], "notifyCustomer": false}
	for k, v := range extra {
		body[k] = v
	}
	var f fulfilment
	e.app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/fulfillments", testkit.Req{Token: e.token, Body: body}).
		Expect(t, http.StatusCreated).JSON(t, &f)
	return f
}

// onOrder is fulfilment f as the admin order detail shows it.
func (e *env) onOrder(t *testing.T, o models.Order, f fulfilment) fulfilment {
	t.Helper()
	var d struct{ Fulfillments []fulfilment }
	e.app.Do(t, "GET", "/api/v1/admin/orders/"+o.ID.String(), testkit.Req{Token: e.token}).Expect(t, http.StatusOK).JSON(t, &d)
	for _, g := range d.Fulfillments {
		if g.ID == f.ID {
			return g
		}
	}
	t.Fatalf("fulfilment %s not on its order", f.ID)
	return fulfilment{}
}

func (e *env) blocks(t *testing.T, f fulfilment) bool {
	t.Helper()
	b, err := einvoice.BlocksHandOff(context.Background(), e.app.DB, uuid.MustParse(f.ID))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// validUntil is the end of the validity of a bill generated at (read from
// the database) for km: 23:59 IST of the day km/200 (or part) days later.
func (e *env) validUntil(t *testing.T, f fulfilment, km int) time.Time {
	t.Helper()
	var at time.Time
	e.app.DB.Raw(`SELECT generated_at FROM eway_bills WHERE fulfillment_id = ?`, f.ID).Scan(&at)
	days := (km + 199) / 200
	d := at.In(gstportal.IST)
	return time.Date(d.Year(), d.Month(), d.Day()+days, 23, 59, 0, 0, gstportal.IST)
}

// An inter-state fulfilment above 50,000 gets an e-way bill after its
// invoice's IRN, valid a day per 200 km or part, and blocks the hand-off
// until then; one below the threshold gets none; an intra-state one gets
// one only while its state is listed in ewayBillIntraStates (directly,
// without an IRN, for a B2C invoice).
func TestEwayBills(t *testing.T) {
	e := mustEnv(t)
	ctx := context.Background()

	// Inter-state B2B, ₹60,000 with tax, 950 km given: 5 days.
	inter := e.order(t, "Maharashtra", buyerGSTIN, "6205", 3000000)
	f := e.shipped(t, inter, map[string]any{"vehicleNumber": "ka01ab1234", "distanceKm": 950})
	if f.EwayBill == nil || f.EwayBill.Status != "pending" || f.VehicleNumber == nil || *f.VehicleNumber != "KA01AB1234" {
		t.Fatalf("a new inter-state fulfilment: %+v", f)
	}
	if !e.blocks(t, f) {
		t.Fatal("a pending e-way bill does not block the hand-off")
	}
	// Before the invoice's IRN the worker waits.
	if err := e.app.EInvoices.GenerateEwayBill(ctx, uuid.MustParse(f.ID)); err != nil {
		t.Fatal(err)
	}
	if g := e.onOrder(t, inter, f); g.EwayBill.Status != "pending" {
		t.Fatalf("generated before the IRN: %+v", g.EwayBill)
	}
	inv := e.report(t, e.docs(t, inter)[0])
	if inv.EInvoice.Status != "generated" {
		t.Fatalf("invoice %+v", inv.EInvoice)
	}
	if _, err := e.app.Inspector.GetTaskInfo("default", "gst:eway:"+f.ID+":irn"); err != nil {
		t.Fatalf("the e-way bill was not queued after the IRN: %v", err)
	}
	if err := e.app.EInvoices.GenerateEwayBill(ctx, uuid.MustParse(f.ID)); err != nil {
		t.Fatal(err)
	}
	g := e.onOrder(t, inter, f)
	if g.EwayBill == nil || g.EwayBill.Status != "generated" || g.EwayBill.Number == nil || g.EwayBill.DistanceKm == nil ||
		*g.EwayBill.DistanceKm != 950 || g.EwayBill.ValidUntil == nil {
		t.Fatalf("generated: %+v", g.EwayBill)
	}
	if got, _ := time.Parse(time.RFC3339, *g.EwayBill.ValidUntil); !got.Equal(e.validUntil(t, f, 950)) {
		t.Fatalf("valid until %s, want %s (5 days)", *g.EwayBill.ValidUntil, e.validUntil(t, f, 950).UTC())
	}
	if e.blocks(t, f) {
		t.Fatal("a generated e-way bill still blocks the hand-off")
	}

	// Below the threshold: none.
	below := e.order(t, "Maharashtra", buyerGSTIN, "6205", 2000000)
	f = e.shipped(t, below, map[string]any{"vehicleNumber": "KA01AB1234"})
	if f.EwayBill != nil || e.blocks(t, f) {
		t.Fatalf("₹40,000 inter-state: %+v", f.EwayBill)
	}

	// Neither vehicle nor transporter: failed, and with the B2B invoice
	// left unreported for a day, both show in health and reconcile.
	bare := e.order(t, "Maharashtra", buyerGSTIN, "6205", 3000000)
	f = e.shipped(t, bare, nil)
	e.report(t, e.docs(t, bare)[0])
	if err := e.app.EInvoices.GenerateEwayBill(ctx, uuid.MustParse(f.ID)); err != nil {
		t.Fatal(err)
	}
	if g = e.onOrder(t, bare, f); g.EwayBill.Status != "failed" || g.EwayBill.Error == nil || !e.blocks(t, f) {
		t.Fatalf("without a vehicle: %+v", g.EwayBill)
	}
	if h := e.health(t); h.EInvoicesUnreported != 0 || h.EwayBillsFailed != 1 {
		t.Fatalf("health %+v", h)
	}
	belowInv := e.docs(t, below)[0]
	e.app.DB.Exec(`UPDATE einvoices SET issued_at = issued_at - interval '25 hours' WHERE document_id = ?`, belowInv.ID)
	if h := e.health(t); h.EInvoicesUnreported != 1 || h.EwayBillsFailed != 1 {
		t.Fatalf("health after a day %+v", h)
	}
	rep, err := e.app.Reconcile.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]string{}
	for _, p := range rep.Problems {
		kinds[p.Kind] = p.Entity
	}
	if kinds["einvoice_not_reported"] != below.ID.String() || kinds["eway_bill_failed"] != bare.ID.String() {
		t.Fatalf("reconcile problems %+v", rep.Problems)
	}
	// Staff give the vehicle and generate it again.
	retry := "/api/v1/admin/orders/" + bare.ID.String() + "/fulfillments/" + f.ID + "/eway-bill/retry"
	var again fulfilment
	e.app.Do(t, "POST", retry, testkit.Req{Token: e.token, Body: map[string]any{"vehicleNumber": "mh12cd5678"}}).
		Expect(t, http.StatusAccepted).JSON(t, &again)
	if again.EwayBill == nil || again.EwayBill.Status != "pending" || *again.VehicleNumber != "MH12CD5678" {
		t.Fatalf("after the retry: %+v", again)
	}
	if err := e.app.EInvoices.GenerateEwayBill(ctx, uuid.MustParse(f.ID)); err != nil {
		t.Fatal(err)
	}
	if g = e.onOrder(t, bare, f); g.EwayBill.Status != "generated" || e.blocks(t, f) {
		t.Fatalf("generated again: %+v", g.EwayBill)
	}
	e.app.Do(t, "POST", retry, testkit.Req{Token: e.token}).ExpectError(t, http.StatusConflict, "CONFLICT")

	// Intra-state in a listed state, B2C: generated directly, the distance
	// from the pincodes.
	intra := e.order(t, "Karnataka", "", "6205", 3000000)
	f = e.shipped(t, intra, map[string]any{"transporterId": buyerGSTIN})
	if f.EwayBill == nil || f.EwayBill.Status != "pending" {
		t.Fatalf("intra-state in a listed state: %+v", f.EwayBill)
	}
	if err := e.app.EInvoices.GenerateEwayBill(ctx, uuid.MustParse(f.ID)); err != nil {
		t.Fatal(err)
	}
	g = e.onOrder(t, intra, f)
	km := gstsim.PinDistance(560001, 560025)
	if g.EwayBill.Status != "generated" || g.EwayBill.DistanceKm == nil || *g.EwayBill.DistanceKm != km {
		t.Fatalf("intra-state generated: %+v, want %d km", g.EwayBill, km)
	}
	if got, _ := time.Parse(time.RFC3339, *g.EwayBill.ValidUntil); !got.Equal(e.validUntil(t, f, km)) {
		t.Fatalf("valid until %s, want %s", *g.EwayBill.ValidUntil, e.validUntil(t, f, km).UTC())
	}

	// Not listed any more: none.
	e.app.Do(t, "PUT", "/api/v1/admin/settings/tax", testkit.Req{Token: e.token, Body: map[string]any{
		"legalName": "Sahyadri Handlooms Private Limited", "gstin": storeGSTIN, "ewayBillIntraStates": []string{},
		"address": map[string]any{"line1": "14 Commercial Street", "line2": "Shivajinagar", "city": "Bengaluru", "state": "Karnataka",
			"pincode": "560001"}}}).
		Expect(t, http.StatusOK)
	unlisted := e.order(t, "Karnataka", "", "6205", 3000000)
	if f = e.shipped(t, unlisted, map[string]any{"vehicleNumber": "KA01AB1234"}); f.EwayBill != nil {
		t.Fatalf("intra-state in an unlisted state: %+v", f.EwayBill)
	}
}

type health struct {
	EInvoicesUnreported int64 `json:"eInvoicesUnreported"`
	EwayBillsFailed     int64 `json:"ewayBillsFailed"`
}

func (e *env) health(t *testing.T) health {
	t.Helper()
	var h struct{ Services health }
	e.app.Do(t, "GET", "/api/v1/admin/health", testkit.Req{Token: e.token}).Expect(t, http.StatusOK).JSON(t, &h)
	return h.Services
}
