package gateway_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/gateway/razorpaytest"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

// refusals runs Razorpay's refund rules against provider p: an unknown
// payment, one only authorized, more than was captured, more than is left
// are refused (nothing refunded); within them it refunds.
func refusals(t *testing.T, p gateway.Provider, register func(id string, amount int64, captured bool)) {
	t.Helper()
	ctx := context.Background()
	captured, authorized := "pay_t"+uuid.NewString()[:10], "pay_t"+uuid.NewString()[:10]
	register(captured, 1000, true)
	register(authorized, 1000, false)
	cases := []struct {
		name, payment string
		amount        int64
		want          string
	}{
		{"unknown payment", "pay_nosuch" + uuid.NewString()[:6], 100, gateway.SimNoSuchPayment},
		{"not captured", authorized, 100, gateway.SimNotCaptured},
		{"above the capture", captured, 1001, gateway.SimOverRefund},
		{"within", captured, 600, ""},
		{"above what is left", captured, 401, gateway.SimOverLeft},
		{"the rest", captured, 400, ""},
	}
	for _, c := range cases {
		key := "key_" + strings.ReplaceAll(uuid.NewString(), "-", "")[:20]
		r, err := p.Refund(ctx, gateway.RefundRequest{PaymentID: c.payment, Amount: moneyOf(c.amount), Currency: "INR", Key: key})
		if c.want == "" {
			if err != nil || r.Status != gateway.RefundProcessed {
				t.Fatalf("%s: %+v %v", c.name, r, err)
			}
			continue
		}
		if !errors.Is(err, gateway.ErrRefused) || !strings.Contains(err.Error(), c.want) {
			t.Fatalf("%s: %v, want refused: %s", c.name, err, c.want)
		}
	}
	list, err := p.Refunds(ctx, captured)
	if err != nil || len(list) != 2 || list[0].Amount+list[1].Amount != 1000 {
		t.Fatalf("refunds of the capture %+v %v", list, err)
	}
}

// The in-process simulator refuses what Razorpay refuses.
func TestSimulatorRefusesWhatRazorpayRefuses(t *testing.T) {
	refusals(t, gateway.NewSimulator(), func(id string, amount int64, captured bool) {
		gateway.RegisterSimulatedPayment(gateway.SimPayment{ID: id, Amount: moneyOf(amount), Captured: captured})
	})
}

// The simulator sharing its book through Redis does too, for a payment
// recorded by one simulator (the API's receiver) and refunded by another
// (the worker), and it keeps one refund per key across them.
func TestSharedSimulatorRefusesWhatRazorpayRefuses(t *testing.T) {
	rdb, _ := testkit.MustRedis(t)
	api := gateway.NewSharedSimulator(rdb)
	refusals(t, gateway.NewSharedSimulator(rdb), func(id string, amount int64, captured bool) {
		status := "authorized"
		if captured {
			status = "captured"
		}
		if err := api.RecordPayment(context.Background(), gateway.Payment{ID: id, Amount: amount, Status: status}); err != nil {
			t.Fatal(err)
		}
	})
	ctx := context.Background()
	pay := "pay_t" + uuid.NewString()[:10]
	_ = api.RecordPayment(ctx, gateway.Payment{ID: pay, Amount: 500, Status: "captured"})
	first, err := api.Refund(ctx, gateway.RefundRequest{PaymentID: pay, Amount: 300, Key: "key_" + pay})
	again, err2 := gateway.NewSharedSimulator(rdb).Refund(ctx, gateway.RefundRequest{PaymentID: pay, Amount: 300, Key: "key_" + pay})
	if err != nil || err2 != nil || again != first {
		t.Fatalf("repeat of a key %+v %v / %+v %v", first, err, again, err2)
	}
}

// The razorpaytest stub refuses with Razorpay's 400 body, through the
// Razorpay adapter and on the wire.
func TestRazorpayStubRefusesWithRazorpaysBody(t *testing.T) {
	gw := razorpaytest.New(t, nil, 0)
	rp := gateway.NewRazorpay(gateway.RazorpayConfig{BaseURL: gw.URL, KeyID: "k", KeySecret: "s", Client: http.DefaultClient})
	refusals(t, rp, func(id string, amount int64, captured bool) {
		if captured {
			gw.Capture(id, amount)
		} else {
			gw.Authorize(id, amount)
		}
	})
	for _, c := range []struct {
		payment, want, field string
		amount               int64
	}{
		{"pay_nosuch" + uuid.NewString()[:6], razorpaytest.DescNoSuchPayment, "id", 100},
		{"pay_big" + uuid.NewString()[:6], razorpaytest.DescOverCaptured, "amount", 2000},
	} {
		gw.Capture("pay_big"+c.payment[7:], 1000)
		b, _ := json.Marshal(map[string]any{"amount": c.amount, "receipt": "r"})
		resp, err := http.Post(gw.URL+"/v1/payments/"+c.payment+"/refund", "application/json", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Error map[string]any `json:"error"`
		}
		json.NewDecoder(resp.Body).Decode(&body)
		resp.Body.Close()
		e := body.Error
		if resp.StatusCode != http.StatusBadRequest || e["code"] != "BAD_REQUEST_ERROR" || e["description"] != c.want ||
			e["source"] != "business" || e["step"] != "payment_initiation" || e["reason"] != "input_validation_failed" ||
			e["field"] != c.field {
			t.Fatalf("%s: %d %+v", c.payment, resp.StatusCode, e)
		}
		if _, ok := e["metadata"].(map[string]any); !ok {
			t.Fatalf("metadata %+v", e)
		}
	}
}

func moneyOf(paise int64) money.Amount { return money.Amount(paise) }
