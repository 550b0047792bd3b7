package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/gocommerce/shop/internal/courier"
	"github.com/gocommerce/shop/internal/courier/shiprockettest"
)

// Couriers (docs/DECISIONS.md "Couriers"): the run's api and worker talk to
// the courier simulator, served by this process, with CARRIER=simulator.
// The default location has a pickup code, so a fulfilment sent without a
// tracking number is booked by the worker after it commits, and one with a
// typed tracking number (the manual way) is not: both are measured in the
// same run. Then the booked parcels' delivered scans are posted to the
// tracking webhook, each delivering its fulfilment and order in the
// request.

const (
	benchCarrierToken = "bench-carrier-webhook-token-0123"
	// fulfilCourierName and fulfilManualName are the two fulfilments
	// compared; scanName the tracking webhook.
	fulfilCourierName = "POST /admin/orders/{id}/fulfillments (CARRIER=simulator, booked)"
	fulfilManualName  = "POST /admin/orders/{id}/fulfillments (CARRIER=simulator, manual tracking)"
	scanName          = "POST /webhooks/carrier (delivered scan, end to end)"
)

var (
	carrierOnce sync.Once
	carrierURL  string
)

// carrierEnv starts the simulator once and returns the variables pointing
// the service at it.
func carrierEnv() []string {
	carrierOnce.Do(func() {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			log.Fatalf("bench: carrier simulator: %v", err)
		}
		carrierURL = "http://" + ln.Addr().String()
		sim := shiprockettest.New(shiprockettest.Config{Email: "bench@example.com", Password: "bench-carrier-password",
			PublicURL: carrierURL})
		go func() { _ = (&http.Server{Handler: sim.Handler(), ReadHeaderTimeout: 10 * time.Second}).Serve(ln) }()
	})
	return []string{"CARRIER=simulator", "CARRIER_API_URL=" + carrierURL, "CARRIER_EMAIL=bench@example.com",
		"CARRIER_PASSWORD=bench-carrier-password", "CARRIER_WEBHOOK_TOKEN=" + benchCarrierToken}
}

// setPickupCode gives the default location the code that has its
// fulfilments booked.
func (b *bench) setPickupCode() error {
	return b.db.Exec(`UPDATE locations SET pickup_code = 'Primary',
		address = jsonb_set(address, '{pincode}', '"560001"') WHERE is_default`).Error
}

// fulfilCourier ships each order once without a tracking number, so the
// worker books it with the simulator after the commit.
func (b *bench) fulfilCourier(orders []string) func(name string, conns int) (Result, error) {
	return func(name string, conns int) (Result, error) {
		if err := b.setPickupCode(); err != nil {
			return Result{}, err
		}
		r, err := onceRun{name: name, conns: conns, items: len(orders), until: b.o.duration, warmup: b.o.warmup, measuring: b.startCPU,
			request: func(i int) *http.Request {
				req, _ := http.NewRequest(http.MethodPost, b.apiURL+"/api/v1/admin/orders/"+orders[i]+"/fulfillments",
					bytes.NewReader([]byte(`{}`)))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+b.token)
				return req
			},
			accepted: func(status int, _ []byte) bool { return status == http.StatusCreated },
		}.run()
		if err == nil && r.Non2xx > 0 {
			err = fmt.Errorf("%s: %d of %d fulfilments refused", name, r.Non2xx, r.Requests)
		}
		return r, err
	}
}

// fulfilManual is the same with a typed tracking number: not booked.
func (b *bench) fulfilManual(orders []string) func(name string, conns int) (Result, error) {
	return func(name string, conns int) (Result, error) {
		if err := b.setPickupCode(); err != nil {
			return Result{}, err
		}
		return b.fulfil(orders)(name, conns)
	}
}

// scans posts a delivered scan for each parcel booked from orders, once
// the worker has booked them all (a minute at most).
func (b *bench) scans(orders []string) func(name string, conns int) (Result, error) {
	return func(name string, conns int) (Result, error) {
		// The other scenarios run without a courier-served location.
		defer b.db.Exec(`UPDATE locations SET pickup_code = NULL`)
		var awbs []string
		deadline := time.Now().Add(time.Minute)
		for {
			var left int64
			b.db.Raw(`SELECT count(*) FROM shipments WHERE order_id::text IN ? AND awb IS NULL AND status = 'pending'`, orders).Scan(&left)
			if left == 0 || time.Now().After(deadline) {
				break
			}
			time.Sleep(500 * time.Millisecond)
		}
		if err := b.db.Raw(`SELECT awb FROM shipments WHERE order_id::text IN ? AND awb IS NOT NULL AND status = 'booked'
			ORDER BY awb`, orders).Scan(&awbs).Error; err != nil {
			return Result{}, err
		}
		at := time.Now().UTC().Truncate(time.Second)
		r, err := onceRun{name: name, conns: conns, items: len(awbs), until: b.o.duration, warmup: b.o.warmup, measuring: b.startCPU,
			request: func(i int) *http.Request {
				body := courier.Webhook(courier.Scan{AWB: awbs[i], Status: courier.StatusDelivered, At: at, Location: "Bench hub"},
					"bench", "SimExpress Surface")
				req, _ := http.NewRequest(http.MethodPost, b.apiURL+"/api/v1/webhooks/carrier", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-Api-Key", benchCarrierToken)
				return req
			},
			accepted: func(status int, body []byte) bool {
				var out struct{ Outcome string }
				return status == http.StatusOK && json.Unmarshal(body, &out) == nil && out.Outcome == "applied"
			},
		}.run()
		if err == nil && r.Non2xx > 0 {
			err = fmt.Errorf("%s: %d of %d scans not applied", name, r.Non2xx, r.Requests)
		}
		return r, err
	}
}

// courierTargets: a booked fulfilment answers within 10 % of the manual
// one's rate (booking is the worker's: both run with the worker paused, and
// its booking afterwards is a note), and delivered scans are applied at
// least at the rate of webhook → order.
func (b *bench) courierTargets() []target {
	return []target{
		{"fulfilments booked with CARRIER=simulator ≥ 90 % of the rate of manual tracking (16 conns, worker paused for both)", func(b *bench) (string, bool) {
			on, ok1 := b.find(fulfilCourierName, 16)
			off, ok2 := b.find(fulfilManualName, 16)
			if !ok1 || !ok2 || off.RPS == 0 {
				return "not measured", false
			}
			return fmt.Sprintf("%.0f vs %.0f /s = %.0f %%", on.RPS, off.RPS, 100*on.RPS/off.RPS), on.RPS >= 0.9*off.RPS
		}},
		{"delivered scans applied end to end ≥ webhook → order's rate (16 conns)", func(b *bench) (string, bool) {
			s, ok := b.find(scanName, 16)
			if !ok || b.webhookOrdersPerSec == 0 {
				return "not measured", false
			}
			return fmt.Sprintf("%.0f scans/s vs %.0f orders/s", s.RPS, b.webhookOrdersPerSec), s.RPS >= b.webhookOrdersPerSec
		}},
	}
}
