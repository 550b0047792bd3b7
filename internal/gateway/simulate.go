package gateway

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/gocommerce/shop/internal/money"
)

// Simulated describes an event for BuildEvent: the dev loop's stand-in for
// the gateway (`shop gateway simulate`) and the tests' event factory.
type Simulated struct {
	// Name is the event, e.g. payment.captured.
	Name string
	// EventID is the body's id; empty leaves it out (the de-duplication key
	// then falls back to a hash).
	EventID string
	// OrderID is the gateway order id (the checkout's paymentIntentId).
	OrderID string
	// LinkID is the payment link of a payment_link.paid event (a draft
	// order's paymentLink.id); its payment's order_id is then the link's
	// own gateway order, as Razorpay sends it.
	LinkID string
	// PaymentID defaults to a random pay_sim_... id.
	PaymentID string
	// Amount is in minor units (paise).
	Amount   int64
	Currency string
	Method   string
	// CreatedAt defaults to now: the event's time, and the payment's unless
	// PaidAt is set.
	CreatedAt time.Time
	// PaidAt is the payment's own time (payload.payment.entity.created_at),
	// for an event delivered later than the payment was made.
	PaidAt time.Time
}

// BuildEvent returns the JSON of a well-formed event in the gateway's shape
// (docs/WEBHOOKS.md "Inbound: the payment gateway").
func BuildEvent(s Simulated) []byte {
	if s.PaymentID == "" {
		s.PaymentID = "pay_sim_" + randomHex(7)
	}
	if s.Method == "" {
		s.Method = "upi"
	}
	if s.CreatedAt.IsZero() {
		s.CreatedAt = time.Now()
	}
	if s.PaidAt.IsZero() {
		s.PaidAt = s.CreatedAt
	}
	entity := map[string]any{
		"id": s.PaymentID, "entity": "payment", "amount": s.Amount, "currency": s.Currency,
		"status": statusOf(s.Name), "order_id": s.OrderID, "method": s.Method, "created_at": s.PaidAt.Unix(),
	}
	if s.Name == PaymentFailed {
		entity["error_code"] = "BAD_REQUEST_ERROR"
		entity["error_description"] = "Payment failed (simulated)"
	}
	registerBuilt(s)
	payload := map[string]any{"payment": map[string]any{"entity": entity}}
	contains := []string{"payment"}
	if s.Name == PaymentLinkPaid {
		if s.OrderID == "" {
			entity["order_id"] = "order_link_" + randomHex(7)
		}
		payload["payment_link"] = map[string]any{"entity": map[string]any{
			"id": s.LinkID, "entity": "payment_link", "amount": s.Amount, "amount_paid": s.Amount, "currency": s.Currency,
			"status": "paid", "order_id": entity["order_id"],
		}}
		contains = []string{"payment_link", "order", "payment"}
	}
	ev := map[string]any{
		"entity": "event", "account_id": "acc_simulator", "event": s.Name, "contains": contains,
		"payload": payload, "created_at": s.CreatedAt.Unix(),
	}
	if s.EventID != "" {
		ev["id"] = s.EventID
	}
	b, err := json.Marshal(ev)
	if err != nil {
		panic(err) // only plain values above
	}
	return b
}

// registerBuilt tells this process's simulators of the payment of a
// built event (captured or authorized), so that it can be refunded as at
// Razorpay.
func registerBuilt(s Simulated) {
	if st := statusOf(s.Name); st != "failed" {
		RegisterSimulatedPayment(SimPayment{ID: s.PaymentID, Amount: money.Amount(s.Amount), Captured: st == "captured"})
	}
}

func statusOf(event string) string {
	switch event {
	case PaymentFailed:
		return "failed"
	case PaymentAuthorized:
		return "authorized"
	}
	return "captured"
}

// NewEventID returns a random evt_sim_... id.
func NewEventID() string { return "evt_sim_" + randomHex(7) }

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Post signs body with secret and posts it to url as the gateway would. It
// returns the status and the response body.
func Post(ctx context.Context, client *http.Client, url, secret string, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, fmt.Errorf("gateway.post: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(SignatureHeader, Sign(secret, body))
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, fmt.Errorf("gateway.post: %w", err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return resp.StatusCode, out, err
}
