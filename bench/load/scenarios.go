package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

func (b *bench) runScenarios(ctx context.Context) error {
	var err error
	if err := b.startMessagingSim(); err != nil {
		return err
	}
	if b.worker, err = start("worker", b.work, b.bin, []string{"worker"}, b.env()); err != nil {
		return err
	}
	if err := b.startAPI(); err != nil {
		return err
	}
	if err := b.login(); err != nil {
		return err
	}
	if err := b.refreshRollups(); err != nil {
		b.notes = append(b.notes, "analytics rollups could not be refreshed before measuring: "+err.Error())
	}
	today := time.Now().UTC()
	analyticsPaths := []string{
		fmt.Sprintf("/api/v1/admin/analytics/orders?dateFrom=%s&dateTo=%s", today.AddDate(0, 0, -89).Format("2006-01-02"), today.Format("2006-01-02")),
		fmt.Sprintf("/api/v1/admin/analytics/orders?dateFrom=%s&dateTo=%s", today.AddDate(0, 0, -29).Format("2006-01-02"), today.Format("2006-01-02")),
	}
	var orderPages []string
	for p := 1; p <= 50; p++ {
		orderPages = append(orderPages, fmt.Sprintf("/api/v1/admin/orders?page=%d&limit=20", p))
	}
	adminOrders, err := b.adminOrderScenarios()
	if err != nil {
		return err
	}
	console, err := b.consoleScenarios()
	if err != nil {
		return err
	}
	adminOrders = append(adminOrders, console...)
	// Each concurrency level gets its share of the carts, a third each for
	// the checkout without a shipping method, the one with, and cash on
	// delivery.
	share := len(b.data.CheckoutSessions) / len(b.o.conns)
	for i, c := range b.o.conns {
		carts := b.data.CheckoutSessions[i*share : (i+1)*share]
		plain, shipped, cod := carts[:share/3], carts[share/3:2*share/3], carts[2*share/3:]
		// Half the COD carts check out with an OTP (docs/DECISIONS.md
		// "Customer messages and COD confirmation"), alternating with the
		// other half in the same run.
		cod, codOTP := cod[:len(cod)/2], cod[len(cod)/2:]
		perLevel := len(b.data.OpenOrders) / len(b.o.conns)
		open := b.data.OpenOrders[i*perLevel : (i+1)*perLevel]
		// The level's open orders are shared by the seven fulfilment
		// scenarios: a fifth for the plain one (the fastest), the rest in
		// equal parts for invoicing on, B2B with e-invoicing off and on,
		// and the courier's manual and booked ones (courier.go).
		fifth := len(open) / 5
		open, rest := open[:fifth], open[fifth:]
		part := len(rest) / 5
		invoiced, b2bOff, b2bOn := rest[:part], rest[part:2*part], rest[2*part:3*part]
		manual, booked := rest[3*part:4*part], rest[4*part:]
		perApparel := len(b.data.ApparelSessions) / len(b.o.conns)
		apparel := b.data.ApparelSessions[i*perApparel : (i+1)*perApparel]
		perPromo := len(b.data.PromotionSessions) / len(b.o.conns)
		promo := b.data.PromotionSessions[i*perPromo : (i+1)*perPromo]
		for _, s := range append([]scenario{
			{name: "GET /products/{id}", path: "/", script: "product_get.lua", ids: b.data.ProductIDs},
			{name: "GET /products (page of 20)", path: "/", script: "products_list.lua"},
			{name: "POST /cart/items", path: "/", script: "cart_add.lua", ids: b.data.VariantIDs},
			// The same with only products under the GST 2.0 value rule, in
			// carts of their own: the rule's cost (docs/DECISIONS.md "GST
			// rates that depend on value") against the line above.
			{name: "POST /cart/items (apparel rule)", path: "/", script: "cart_add.lua", ids: b.data.ApparelVariantIDs,
				env: []string{"SESSION_PREFIX=bench-cart-apparel-"}},
			// The same with 50 automatic promotions active: their cost
			// (docs/DECISIONS.md "Promotions") against the line above.
			{name: promotionsCartName, path: "/", script: "cart_add.lua", ids: b.data.VariantIDs,
				env: []string{"SESSION_PREFIX=bench-cart-promo-"}, setup: b.withPromotions},
			{name: "GET /cart", path: "/", script: "cart_get.lua"},
			{name: "POST /orders (guest checkout)", once: b.checkout(plain, plainCheckout)},
			{name: "POST /orders (guest checkout, apparel rule)", once: b.checkout(apparel, plainCheckout)},
			{name: promotionsCheckoutName, once: b.checkout(promo, plainCheckout), setup: b.withPromotions},
			{name: "POST /orders (guest checkout, shipping method)", once: b.checkout(shipped, shippedCheckout)},
			{name: "POST /orders (guest checkout, COD)", once: b.checkout(cod, codCheckout)},
			{name: "POST /orders (guest checkout, COD with OTP)", once: b.checkout(codOTP, codOTPCheckout)},
			{name: "POST /admin/orders/{id}/fulfillments", once: b.fulfilInvoicing(open, false)},
			{name: fulfilInvoicedName, once: b.fulfilInvoicing(invoiced, true)},
			{name: fulfilManualName, once: b.fulfilManual(manual), workerPaused: true},
			{name: fulfilCourierName, once: b.fulfilCourier(booked), workerPaused: true},
			{name: scanName, once: b.scans(booked)},
			{name: fulfilB2BName, once: b.fulfilEInvoicing(b2bOff, false), workerPaused: true},
			{name: fulfilEInvoicedName, once: b.fulfilEInvoicing(b2bOn, true), workerPaused: true},
			{name: "GET /admin/orders (page of 20)", path: "/", script: "admin_get.lua", ids: orderPages},
			{name: "GET /admin/analytics/orders", path: "/", script: "admin_get.lua", ids: analyticsPaths},
		}, adminOrders...) {
			if !b.wanted(s.name) {
				continue
			}
			if _, err := b.measure(s, c); err != nil {
				return err
			}
		}
	}
	if b.wanted(messagesName) {
		if err := b.measureMessageSends(ctx); err != nil {
			return err
		}
	}
	if b.wanted("webhook") {
		if err := b.measureWebhookToOrder(ctx); err != nil {
			b.notes = append(b.notes, "webhook → order: "+err.Error())
		}
	}
	b.apiRSS, b.workerRSS = b.api.peakRSSMB(), b.worker.peakRSSMB()
	if b.wanted("media") {
		if err := b.measureMedia(); err != nil {
			return err
		}
	}

	if b.wanted("cache off") {
		b.api.stop()
		if err := b.startAPI("CACHE_ENABLED=false"); err != nil {
			return err
		}
		for _, c := range b.o.conns {
			for _, s := range []scenario{
				{name: "GET /products (page of 20, cache off)", path: "/", script: "products_list.lua"},
				{name: "GET /products/{id} (cache off)", path: "/", script: "product_get.lua", ids: b.data.ProductIDs},
			} {
				if _, err := b.measure(s, c); err != nil {
					return err
				}
			}
		}
		if rss := b.api.peakRSSMB(); rss > b.apiRSS {
			b.apiRSS = rss
		}
	}
	return nil
}

// refreshRollups runs the reconcile job (which refreshes the analytics
// rollups over every day with orders) and waits for it.
func (b *bench) refreshRollups() error {
	req, _ := http.NewRequest("POST", b.apiURL+"/api/v1/admin/system/database/reconcile", bytes.NewReader(nil))
	req.Header.Set("Authorization", "Bearer "+b.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	var job struct {
		JobID string `json:"jobId"`
	}
	json.NewDecoder(resp.Body).Decode(&job)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted || job.JobID == "" {
		return fmt.Errorf("reconcile answered %d", resp.StatusCode)
	}
	deadline := time.Now().Add(5 * time.Minute)
	for time.Now().Before(deadline) {
		req, _ := http.NewRequest("GET", b.apiURL+"/api/v1/admin/jobs/"+job.JobID, nil)
		req.Header.Set("Authorization", "Bearer "+b.token)
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			var st struct {
				State string `json:"state"`
			}
			json.NewDecoder(resp.Body).Decode(&st)
			resp.Body.Close()
			if st.State == "completed" {
				return nil
			}
			if st.State == "archived" || st.State == "failed" {
				return fmt.Errorf("reconcile job %s", st.State)
			}
		}
		time.Sleep(500 * time.Millisecond)
	}
	return fmt.Errorf("reconcile job did not finish")
}
