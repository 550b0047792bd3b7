package courierapi_test

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/gstportal/gstsim"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
)

// A courier booking that waited for its fulfilment's e-way bill is booked
// as soon as the bill is generated, not at its task's next retry: with the
// worker running, a ₹63,000 intra-state COD parcel (Karnataka lists
// intra-state bills) is fulfilled without a transporter, so its bill fails
// and the booking waits for its retry (at least 15 s away); staff give the
// transporter and generate the bill again, and the parcel is booked within
// a few seconds, before that retry was due.
func TestBookingGoesWhenItsEwayBillIsGenerated(t *testing.T) {
	sim, err := gstsim.New(gstsim.Credentials{})
	if err != nil {
		t.Fatal(err)
	}
	gst := httptest.NewServer(sim.Handler())
	t.Cleanup(gst.Close)
	e := mustEnv(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) {
		c.GSTProvider, c.GSTAPIURL = "simulator", gst.URL
	}))
	store := "29AABCS1429B1Z"
	store += string(gstin.CheckChar(store))
	e.app.Do(t, http.MethodPut, "/api/v1/admin/settings/tax", testkit.Req{Token: e.super, Body: map[string]any{
		"legalName": "Sahyadri Handlooms Private Limited", "tradeName": "Sahyadri", "gstin": store,
		"ewayBillIntraStates": []string{"karnataka"},
		"address":             map[string]any{"line1": "14 Commercial Street", "line2": "", "city": "Bengaluru", "state": "Karnataka", "pincode": "560001"}}}).
		Expect(t, http.StatusOK)

	o, _, _ := e.codOrder(t, 1, 6000000)
	// The e-way bill system refuses a line without an HSN code (216).
	if err := e.app.DB.Exec(`UPDATE order_items SET hsn_code = '6205' WHERE order_id = ?`, o.ID).Error; err != nil {
		t.Fatal(err)
	}
	fid := e.fulfil(t, o)
	var bill string
	var waiting *asynq.TaskInfo
	testkit.Eventually(t, 20*time.Second, "the failed e-way bill and the booking waiting for its retry", func() bool {
		e.app.DB.Raw(`SELECT status FROM eway_bills WHERE fulfillment_id = ?`, fid).Scan(&bill)
		info, err := e.app.Inspector.GetTaskInfo(tasks.QueueDefault, tasks.CourierBookTaskID(fid))
		if err == nil && info.State == asynq.TaskStateRetry {
			waiting = info
		}
		return bill == "failed" && waiting != nil
	})
	if sh := e.shipment(t, fid); sh.Status != "pending" || sh.AWB != nil {
		t.Fatalf("booked before its e-way bill: %s %v", sh.Status, sh.AWB)
	}

	e.app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+o.ID.String()+"/fulfillments/"+fid+"/eway-bill/retry",
		testkit.Req{Token: e.staff, Body: map[string]any{"transporterId": store}}).Expect(t, http.StatusAccepted)
	testkit.Eventually(t, 10*time.Second, "the booking after the e-way bill", func() bool {
		return e.shipment(t, fid).AWB != nil
	})
	if booked := e.shipment(t, fid).UpdatedAt; !booked.Before(waiting.NextProcessAt) {
		t.Fatalf("booked at %s, not before the retry due at %s", booked, waiting.NextProcessAt)
	}
	e.app.DB.Raw(`SELECT status FROM eway_bills WHERE fulfillment_id = ?`, fid).Scan(&bill)
	if bill != "generated" || e.sim.Orders(e.shipment(t, fid).ChannelOrderID) != 1 {
		t.Fatalf("e-way bill %s, %d courier orders", bill, e.sim.Orders(e.shipment(t, fid).ChannelOrderID))
	}
}
