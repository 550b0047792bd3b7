package payment

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
		switch r.URL.Path {
		case "/v1/orders":
			w.Write([]byte(`{"id":"order_ABC","status":"created","amount":49950}`))
		case "/v1/payments/pay_XYZ/refund":
			w.Write([]byte(`{"id":"rfnd_123","status":"processed"}`))
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
	rf, err := p.Refund(context.Background(), RefundRequest{PaymentID: "pay_XYZ", Amount: 1000, Reason: "damaged"})
	if err != nil || rf.ID != "rfnd_123" {
		t.Fatalf("refund %+v err %v", rf, err)
	}
	if seen[1]["amount"] != float64(1000) {
		t.Fatalf("refund body %v", seen[1])
	}
}

func TestRazorpayFailuresAreUnavailable(t *testing.T) {
	tests := []struct {
		name    string
		handler http.HandlerFunc
	}{
		{"server error", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) }},
		{"bad request", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(400) }},
		{"no id", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`{}`)) }},
		{"garbage", func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(`<html>`)) }},
		{"slow", func(w http.ResponseWriter, r *http.Request) { time.Sleep(300 * time.Millisecond) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(tt.handler)
			defer srv.Close()
			p := NewRazorpay(RazorpayConfig{BaseURL: srv.URL, KeyID: "k", KeySecret: "s", Client: &http.Client{Timeout: 100 * time.Millisecond}})
			if _, err := p.CreateIntent(context.Background(), IntentRequest{Amount: 1, Currency: "INR"}); !errors.Is(err, ErrUnavailable) {
				t.Fatalf("CreateIntent err %v", err)
			}
			if _, err := p.Refund(context.Background(), RefundRequest{PaymentID: "pay_1", Amount: 1}); !errors.Is(err, ErrUnavailable) {
				t.Fatalf("Refund err %v", err)
			}
		})
	}
}
