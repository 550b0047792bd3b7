package gateway

import (
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
)

func TestVerify(t *testing.T) {
	body := []byte(`{"event":"payment.captured","created_at":1}`)
	good := Sign("s3cret", body)
	tests := []struct {
		name, secret, sig string
		want              error
	}{
		{name: "valid", secret: "s3cret", sig: good},
		{name: "upper-case hex is the same MAC", secret: "s3cret", sig: strings.ToUpper(good)},
		{name: "secret unset", secret: "", sig: good, want: ErrNotConfigured},
		{name: "missing", secret: "s3cret", sig: "", want: ErrBadSignature},
		{name: "wrong secret", secret: "other", sig: good, want: ErrBadSignature},
		{name: "not hex", secret: "s3cret", sig: "zz" + good[2:], want: ErrBadSignature},
		{name: "truncated", secret: "s3cret", sig: good[:40], want: ErrBadSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := Verify(tt.secret, body, tt.sig); err != tt.want {
				t.Fatalf("Verify: %v, want %v", err, tt.want)
			}
		})
	}
	if Verify("s3cret", append(body, ' '), good) != ErrBadSignature {
		t.Fatal("a changed body verified")
	}
	if len(good) != 64 || strings.ToLower(good) != good {
		t.Fatalf("signature %q is not lowercase hex SHA-256", good)
	}
}

func TestParse(t *testing.T) {
	valid := string(BuildEvent(Simulated{Name: PaymentCaptured, EventID: "evt_1", OrderID: "order_1", PaymentID: "pay_1", Amount: 49950, Currency: "INR"}))
	ev, err := Parse([]byte(valid))
	if err != nil {
		t.Fatal(err)
	}
	if ev.ID != "evt_1" || ev.Name != PaymentCaptured || !ev.HasPayment || ev.Payment.Amount != 49950 ||
		ev.Payment.OrderID != "order_1" || ev.Payment.ID != "pay_1" || ev.Payment.Currency != "INR" || ev.Payment.Status != "captured" {
		t.Fatalf("parsed %+v", ev)
	}
	tests := []struct{ name, body, field string }{
		{"malformed", `{"event":`, ""},
		{"not an object", `[1]`, ""},
		{"trailing data", valid + `{}`, ""},
		{"trailing garbage", valid + `garbage`, ""},
		{"no event", `{"created_at":1}`, "event"},
		{"event not a string", `{"event":5,"created_at":1}`, ""},
		{"created_at missing", `{"event":"payment.captured"}`, "created_at"},
		{"created_at fractional", `{"event":"payment.captured","created_at":1.5}`, "created_at"},
		{"amount fractional", strings.Replace(valid, `"amount":49950`, `"amount":499.5`, 1), "payload.payment.entity.amount"},
		{"amount negative", strings.Replace(valid, `"amount":49950`, `"amount":-1`, 1), "payload.payment.entity.amount"},
		{"order id missing", strings.Replace(valid, `"order_id":"order_1"`, `"order_id":""`, 1), "payload.payment.entity.order_id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.body))
			e, ok := apperr.As(err)
			if !ok || e.Code != apperr.Validation {
				t.Fatalf("want VALIDATION_ERROR, got %v", err)
			}
			if got, _ := e.Details["field"].(string); got != tt.field {
				t.Fatalf("field %q, want %q", got, tt.field)
			}
		})
	}
	noEntity, err := Parse([]byte(`{"event":"payment.captured","created_at":1,"payload":{"payment":{}}}`))
	if err != nil {
		t.Fatal(err)
	}
	e, _ := apperr.As(noEntity.ValidatePayment())
	if e == nil || e.Details["field"] != "payload.payment.entity" {
		t.Fatalf("missing entity: %v", e)
	}
}

func TestDedupKey(t *testing.T) {
	at := time.Unix(1_700_000_000, 0)
	captured, _ := Parse(BuildEvent(Simulated{Name: PaymentCaptured, OrderID: "o", PaymentID: "pay_1", Amount: 1, Currency: "INR", CreatedAt: at}))
	failed, _ := Parse(BuildEvent(Simulated{Name: PaymentFailed, OrderID: "o", PaymentID: "pay_1", Amount: 1, Currency: "INR", CreatedAt: at}))
	withID, _ := Parse(BuildEvent(Simulated{Name: PaymentCaptured, EventID: "evt_9", OrderID: "o", PaymentID: "pay_1", Amount: 1, Currency: "INR", CreatedAt: at}))

	if DedupKey(withID, "hdr") != "id:evt_9" {
		t.Fatalf("body id first: %s", DedupKey(withID, "hdr"))
	}
	if DedupKey(captured, "evt_h") != "id:evt_h" {
		t.Fatalf("header id second: %s", DedupKey(captured, "evt_h"))
	}
	if DedupKey(captured, "") == DedupKey(failed, "") {
		t.Fatal("two different events in the same second share a key")
	}
	again, _ := Parse(BuildEvent(Simulated{Name: PaymentCaptured, OrderID: "o", PaymentID: "pay_1", Amount: 1, Currency: "INR", CreatedAt: at}))
	if DedupKey(captured, "") != DedupKey(again, "") {
		t.Fatal("a re-delivery without id got a new key")
	}
}
