package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestRazorpayCreateIntentAndRefund(t *testing.T) {
	var seen []map[string]any
	var keys []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, ok := r.BasicAuth()
		if !ok || user != "rzp_key" || pass != "rzp_secret" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		json.Unmarshal(b, &body)
		seen = append(seen, body)
		switch r.Method + " " + r.URL.Path {
		case "POST /v1/orders":
			w.Write([]byte(`{"id":"order_ABC","status":"created","amount":49950}`))
		case "POST /v1/payments/pay_XYZ/refund":
			keys = append(keys, r.Header.Get("X-Refund-Idempotency"))
			w.Write([]byte(`{"id":"rfnd_123","entity":"refund","amount":1000,"status":"processed","receipt":"refund_key_0001"}`))
		case "GET /v1/payments/pay_XYZ/refunds":
			w.Write([]byte(`{"entity":"collection","count":3,"items":[
				{"id":"rfnd_123","amount":1000,"status":"processed","receipt":"refund_key_0001","notes":{"reason":"damaged"}},
				{"id":"rfnd_200","amount":500,"status":"pending","receipt":null,"notes":{"idempotency_key":"refund_key_0002"}},
				{"id":"rfnd_300","amount":700,"status":"failed","receipt":null,"notes":[]}]}`))
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer srv.Close()
	p := NewRazorpay(RazorpayConfig{BaseURL: srv.URL + "/", KeyID: "rzp_key", KeySecret: "rzp_secret", Client: &http.Client{Timeout: time.Second}})

	in, err := p.CreateIntent(context.Background(), IntentRequest{Amount: 49950, Currency: "INR", Receipt: "cs_1"})
	if err != nil || in.ID != "order_ABC" {
		t.Fatalf("intent %+v err %v", in, err)
	}
	if seen[0]["amount"] != float64(49950) || seen[0]["currency"] != "INR" || seen[0]["receipt"] != "cs_1" {
		t.Fatalf("order body %v", seen[0])
	}
	rf, err := p.Refund(context.Background(), RefundRequest{PaymentID: "pay_XYZ", Amount: 1000, Reason: "damaged", Key: "refund_key_0001"})
	if err != nil || rf.ID != "rfnd_123" || rf.Status != RefundProcessed || rf.Key != "refund_key_0001" {
		t.Fatalf("refund %+v err %v", rf, err)
	}
	notes, _ := seen[1]["notes"].(map[string]any)
	if seen[1]["amount"] != float64(1000) || seen[1]["receipt"] != "refund_key_0001" ||
		notes["reason"] != "damaged" || notes["idempotency_key"] != "refund_key_0001" {
		t.Fatalf("refund body %v", seen[1])
	}
	if len(keys) != 1 || keys[0] != "refund_key_0001" {
		t.Fatalf("X-Refund-Idempotency %q", keys)
	}
	list, err := p.Refunds(context.Background(), "pay_XYZ")
	if err != nil || len(list) != 3 {
		t.Fatalf("refunds %+v err %v", list, err)
	}
	want := []Refund{{ID: "rfnd_123", Amount: 1000, Status: RefundProcessed, Key: "refund_key_0001"},
		{ID: "rfnd_200", Amount: 500, Status: RefundPending, Key: "refund_key_0002"},
		{ID: "rfnd_300", Amount: 700, Status: RefundFailed}}
	for i := range want {
		if list[i] != want[i] {
			t.Fatalf("refund %d: %+v, want %+v", i, list[i], want[i])
		}
	}
	if got, ok := FindRefund(list, "refund_key_0002"); !ok || got.ID != "rfnd_200" {
		t.Fatalf("FindRefund: %+v %v", got, ok)
	}
	if _, ok := FindRefund(list, ""); ok {
		t.Fatal("a refund without a key matched the empty key")
	}
}

// Every failure of CreateIntent is ErrUnavailable. For a refund, a client
// error means nothing was refunded (ErrRefused); anything else leaves the
// outcome unknown (ErrUnavailable), and listing refunds fails unavailable.
func TestRazorpayFailures(t *testing.T) {
	tests := []struct {
		name          string
		handler       http.HandlerFunc
		refundRefused bool
	}{
		{"server error", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) }, false},
		{"bad request", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(400) }, true},
		{"unauthorized", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(401) }, true},
		{"same key in progress", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(409) }, false},
		{"rate limited", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(429) }, false},
		{"no id", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{}`)) }, false},
		{"garbage", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`<html>`)) }, false},
		{"slow", func(w http.ResponseWriter, r *http.Request) { time.Sleep(300 * time.Millisecond) }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			p := NewRazorpay(RazorpayConfig{BaseURL: srv.URL, KeyID: "k", KeySecret: "s", Client: &http.Client{Timeout: 100 * time.Millisecond}})
			if _, err := p.CreateIntent(context.Background(), IntentRequest{Amount: 1, Currency: "INR"}); !errors.Is(err, ErrUnavailable) {
				t.Fatalf("CreateIntent err %v", err)
			}
			_, err := p.Refund(context.Background(), RefundRequest{PaymentID: "pay_1", Amount: 1, Key: "refund_key_1"})
			if tt.refundRefused != errors.Is(err, ErrRefused) || tt.refundRefused == errors.Is(err, ErrUnavailable) {
				t.Fatalf("Refund err %v, want refused %v", err, tt.refundRefused)
			}
			if _, err := p.Refunds(context.Background(), "pay_1"); tt.name != "no id" && !errors.Is(err, ErrUnavailable) {
				t.Fatalf("Refunds err %v", err)
			}
		})
	}
}

// The simulator makes one refund per key, refuses a key reused for another
// amount, and lists a payment's refunds.
func TestSimulatorRefundsAreIdempotent(t *testing.T) {
	ctx := context.Background()
	sim := NewSimulator()
	pay := "pay_sim_" + randomHex(6)
	RegisterSimulatedPayment(SimPayment{ID: pay, Amount: 1000, Captured: true})
	first, err := sim.Refund(ctx, RefundRequest{PaymentID: pay, Amount: 500, Key: "key_" + pay})
	if err != nil || first.Status != RefundProcessed {
		t.Fatalf("refund %+v %v", first, err)
	}
	again, err := NewSimulator().Refund(ctx, RefundRequest{PaymentID: pay, Amount: 500, Key: "key_" + pay})
	if err != nil || again != first {
		t.Fatalf("repeat %+v %v, want %+v", again, err, first)
	}
	if _, err := sim.Refund(ctx, RefundRequest{PaymentID: pay, Amount: 501, Key: "key_" + pay}); !errors.Is(err, ErrRefused) {
		t.Fatalf("key reused for another amount: %v", err)
	}
	other, _ := sim.Refund(ctx, RefundRequest{PaymentID: pay, Amount: 200, Key: "key2_" + pay})
	list, err := sim.Refunds(ctx, pay)
	if err != nil || len(list) != 2 || list[0] != first || list[1] != other {
		t.Fatalf("refunds %+v %v", list, err)
	}
}
