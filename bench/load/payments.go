package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net/http"
	"time"

	"github.com/gocommerce/shop/internal/gateway"
)

// checkoutMode is how the checkout scenarios pay and ship.
type checkoutMode int

const (
	plainCheckout checkoutMode = iota
	shippedCheckout
	codCheckout
	// codOTPCheckout: COD confirmed by OTP, each buyer's code prepared.
	codOTPCheckout
)

// checkout drives POST /orders over the pre-filled guest carts for
// -duration, each cart checked out once (a second checkout of a cart is
// answered 201 with the session it already has, which would count work
// not done). Each accepted answer must have created one checkout session
// (one COD order for cash on delivery), or the run fails. With
// shippedCheckout, the run checks out with the demo shop's Standard method,
// active for the run only (docs/DECISIONS.md "Shipping": an active method
// makes it required); else as a store without methods, with the client's
// shippingCost. codCheckout places cash on delivery orders, with COD on for
// the run, each buyer a phone of their own (the open-COD cap counts by
// phone).
func (b *bench) checkout(carts []string, mode checkoutMode) func(name string, conns int) (Result, error) {
	return func(name string, conns int) (Result, error) {
		extra := map[string]any{"shippingCost": 0}
		counted := `SELECT count(*) FROM checkout_sessions`
		if mode == codCheckout || mode == codOTPCheckout {
			confirmation := "none"
			if mode == codOTPCheckout {
				confirmation = "otp"
				if err := b.prepareOTPs(carts); err != nil {
					return Result{}, err
				}
				extra["codOtp"] = benchOTP
			}
			if err := b.db.Exec(`INSERT INTO payment_settings (id, cod_enabled, cod_max_open_per_customer, cod_confirmation) VALUES (1, true, 1000000, ?)
				ON CONFLICT (id) DO UPDATE SET cod_enabled = true, cod_max_open_per_customer = 1000000, cod_confirmation = EXCLUDED.cod_confirmation`,
				confirmation).Error; err != nil {
				return Result{}, err
			}
			defer b.db.Exec(`UPDATE payment_settings SET cod_enabled = false, cod_confirmation = 'none'`)
			extra["paymentMethod"] = "cod"
			counted = `SELECT count(*) FROM orders WHERE payment_method = 'cod'`
		}
		if mode == shippedCheckout {
			method, err := b.activateShipping(true)
			if err != nil {
				return Result{}, err
			}
			defer b.activateShipping(false)
			extra = map[string]any{"shippingMethodId": method}
		}
		// The sessions the measured checkouts create: counted from the end
		// of the warm-up, whose checkouts create theirs too.
		var before, after int64
		var countErr error
		measuring := func() {
			countErr = b.db.Raw(counted).Scan(&before).Error
			b.startCPU()
		}
		r, err := onceRun{name: name, conns: conns, items: len(carts), until: b.o.duration, warmup: b.o.warmup, measuring: measuring,
			request: func(i int) *http.Request {
				doc := map[string]any{"email": carts[i] + "@example.com", "name": "Bench Guest", "phone": fmt.Sprintf("98%08d", i),
					"address": map[string]any{"type": "shipping", "street": "12 MG Road", "city": "Bengaluru", "state": "Karnataka",
						"pincode": "560001", "district": "Bengaluru Urban", "country": "IN"}}
				for k, v := range extra {
					doc[k] = v
				}
				body, _ := json.Marshal(doc)
				req, _ := http.NewRequest("POST", b.apiURL+"/orders", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-Session-Id", carts[i])
				return req
			},
			accepted: func(status int, body []byte) bool {
				var a struct {
					PaymentIntent struct {
						PaymentIntentID string `json:"paymentIntentId"`
					} `json:"paymentIntent"`
					PaymentMethod string `json:"paymentMethod"`
				}
				if status != http.StatusCreated || json.Unmarshal(body, &a) != nil {
					return false
				}
				if mode == codCheckout || mode == codOTPCheckout {
					return a.PaymentMethod == "cod"
				}
				return a.PaymentIntent.PaymentIntentID != ""
			},
		}.run()
		r.Provider = paymentProvider
		if err == nil {
			err = countErr
		}
		if err != nil {
			return r, err
		}
		if err := b.db.Raw(counted).Scan(&after).Error; err != nil {
			return r, err
		}
		if accepted := int64(r.Requests - r.Non2xx); after-before != accepted {
			return r, fmt.Errorf("%s: %d checkouts accepted but %d created (%s)", name, accepted, after-before, counted)
		}
		return r, nil
	}
}

// activateShipping turns the seeded shipping methods on or off and returns
// the Standard method's id. The bench's store has none active by default,
// so the checkout without a method measures what it always did.
func (b *bench) activateShipping(on bool) (string, error) {
	if err := b.db.Exec(`UPDATE shipping_methods SET is_active = ?`, on).Error; err != nil {
		return "", err
	}
	var id string
	err := b.db.Raw(`SELECT id::text FROM shipping_methods WHERE name = 'Standard'`).Scan(&id).Error
	if err == nil && id == "" {
		err = fmt.Errorf("no Standard shipping method seeded")
	}
	return id, err
}

// measureWebhookToOrder posts a signed payment.captured event, once each,
// for every checkout session the checkout scenario left pending (up to
// 6000), 16 at a time. Two rates, both of completed work: events accepted
// (a duplicate's answer is not) from the first request to the last answer,
// and orders written from the first request until the last order existed.
func (b *bench) measureWebhookToOrder(ctx context.Context) error {
	res, err := b.payPending(ctx, 6000)
	if err != nil {
		return err
	}
	b.results = append(b.results, res.http)
	b.webhookOrders, b.webhookOrdersPerSec = res.orders, res.ordersPerSec()
	b.measureDrain("webhook → order")
	return nil
}

// paidRun is what payPending measured.
type paidRun struct {
	http    Result // the webhook's HTTP answers
	orders  int
	elapsed time.Duration // from the first event until the last order existed
}

func (r paidRun) ordersPerSec() float64 { return float64(r.orders) / r.elapsed.Seconds() }

// payPending pays up to n of the pending checkout sessions, oldest first,
// with one signed payment.captured event each (16 at a time), and waits
// until every one is an order.
func (b *bench) payPending(ctx context.Context, n int) (paidRun, error) {
	var sessions []struct {
		PaymentIntentID string
		Total           int64
		Currency        string
	}
	err := b.db.WithContext(ctx).Raw(`SELECT payment_intent_id, total, currency FROM checkout_sessions
		WHERE state = 'PENDING' AND payment_intent_id IS NOT NULL ORDER BY created_at LIMIT ?`, n).Scan(&sessions).Error
	if err != nil {
		return paidRun{}, err
	}
	if len(sessions) == 0 {
		return paidRun{}, fmt.Errorf("no pending checkout sessions to pay")
	}
	var before int64
	b.db.Raw(`SELECT count(*) FROM orders WHERE payment_provider <> 'bench'`).Scan(&before)
	startAt := time.Now()
	name := "webhook payment.captured (HTTP answer)"
	r, err := onceRun{name: name, conns: 16, items: len(sessions),
		request: func(i int) *http.Request {
			s := sessions[i]
			body := gateway.BuildEvent(gateway.Simulated{Name: gateway.PaymentCaptured, EventID: "evt_bench_" + s.PaymentIntentID,
				PaymentID: "pay_bench_" + s.PaymentIntentID, OrderID: s.PaymentIntentID, Amount: s.Total, Currency: s.Currency})
			req, _ := http.NewRequest("POST", b.apiURL+"/storefront/payments/gateway/webhook", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set(gateway.SignatureHeader, gateway.Sign(webhookSecret, body))
			return req
		},
		accepted: func(status int, body []byte) bool {
			var a struct {
				Message string `json:"message"`
			}
			return status == http.StatusOK && json.Unmarshal(body, &a) == nil && a.Message == gateway.MsgAccepted
		},
	}.run()
	r.Provider = paymentProvider
	if err == nil && (r.Requests-r.Non2xx != len(sessions) || r.Errors > 0) {
		err = fmt.Errorf("%s: %d of %d events accepted (%d refused or duplicates, %d socket errors)", name, r.Requests-r.Non2xx, len(sessions), r.Non2xx, r.Errors)
	}
	if err != nil {
		return paidRun{}, err
	}
	log.Printf("bench: %-40s c=%-3d %8.0f req/s  p50 %-9s p99 %-9s", name, 16, r.RPS, r.P50, r.P99)
	want := before + int64(len(sessions))
	deadline := time.Now().Add(5 * time.Minute)
	var done int64
	for time.Now().Before(deadline) {
		b.db.Raw(`SELECT count(*) FROM orders WHERE payment_provider <> 'bench'`).Scan(&done)
		if done >= want {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	res := paidRun{http: r, orders: int(done - before), elapsed: time.Since(startAt)}
	log.Printf("bench: webhook → order: %d orders in %s = %.0f orders/s (HTTP p99 %s)", res.orders, res.elapsed.Round(time.Millisecond), res.ordersPerSec(), r.P99)
	if done < want {
		return res, fmt.Errorf("only %d of %d orders were created within 5 minutes", res.orders, len(sessions))
	}
	return res, nil
}
