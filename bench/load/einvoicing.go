package main

import (
	"fmt"
	"log"
	"net"
	"net/http"
	"sync"

	"github.com/gocommerce/shop/internal/gstportal/gstsim"
)

// E-invoicing (docs/DECISIONS.md "E-invoices and e-way bills"): the same
// B2B fulfilment with tax settings eInvoicing off and on. On, the document's
// insert also makes its report row and the commit queues the report task;
// the report itself runs in the worker against the GST portal simulator,
// which the bench runs in its own process for the api and the worker.

// Names of the two scenarios.
const (
	fulfilB2BName       = "POST /admin/orders/{id}/fulfillments (B2B, e-invoicing off)"
	fulfilEInvoicedName = "POST /admin/orders/{id}/fulfillments (B2B, e-invoicing on)"
)

// benchBuyerGSTIN is a valid Maharashtra GSTIN (its check character
// computed by internal/gstin): the buyer of the B2B orders.
const benchBuyerGSTIN = "27AAACB7383J1ZE"

var (
	gstSimOnce sync.Once
	gstSimURL  string
)

// gstSim starts the GST portal simulator once, in this process, and
// returns its URL ("" when it cannot start: the scenarios then say so).
func gstSim() string {
	gstSimOnce.Do(func() {
		sim, err := gstsim.New(gstsim.Credentials{})
		if err != nil {
			log.Printf("bench: gst-sim: %v", err)
			return
		}
		ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", freePort()))
		if err != nil {
			log.Printf("bench: gst-sim: %v", err)
			return
		}
		go http.Serve(ln, sim.Handler())
		gstSimURL = "http://" + ln.Addr().String()
	})
	return gstSimURL
}

// gstEnv is the processes' GST portal configuration: the simulator.
func gstEnv() []string {
	if u := gstSim(); u != "" {
		return []string{"GST_PROVIDER=simulator", "GST_API_URL=" + u}
	}
	return nil
}

// fulfilEInvoicing is b.fulfil of orders made B2B (a buyer GSTIN) with the
// tax identity set and e-invoicing on or off.
func (b *bench) fulfilEInvoicing(orders []string, on bool) func(name string, conns int) (Result, error) {
	return func(name string, conns int) (Result, error) {
		if err := b.setInvoicing(true); err != nil {
			return Result{}, err
		}
		if err := b.setEInvoicing(on); err != nil {
			return Result{}, err
		}
		if err := b.db.Exec(`UPDATE orders SET buyer_gstin = ?, buyer_name = 'Bench Buyer LLP' WHERE id IN ?`,
			benchBuyerGSTIN, orders).Error; err != nil {
			return Result{}, fmt.Errorf("%s: B2B orders: %w", name, err)
		}
		// The seeded lines carry no HSN code, which the IRP refuses.
		if err := b.db.Exec(`UPDATE order_items SET hsn_code = '6109' WHERE order_id IN ? AND hsn_code = ''`, orders).Error; err != nil {
			return Result{}, fmt.Errorf("%s: HSN codes: %w", name, err)
		}
		return b.fulfil(orders)(name, conns)
	}
}

// setEInvoicing turns tax settings eInvoicing on or off through the API.
func (b *bench) setEInvoicing(on bool) error { return b.putTaxSettings(on) }

// eInvoicingTarget compares the B2B fulfilments with e-invoicing on to
// those with it off at 16 connections: within 5 % of the rate (the report
// is the worker's).
func (b *bench) eInvoicingTarget() target {
	return target{"B2B fulfilments with e-invoicing ≥ 95 % of the rate without (16 conns, worker paused for both)", func(b *bench) (string, bool) {
		off, ok1 := b.find(fulfilB2BName, 16)
		on, ok2 := b.find(fulfilEInvoicedName, 16)
		if !ok1 || !ok2 || off.RPS == 0 {
			return "not measured", false
		}
		rate := on.RPS / off.RPS
		return fmt.Sprintf("%.0f vs %.0f /s = %.0f %%", on.RPS, off.RPS, 100*rate), rate >= 0.95
	}}
}
