// Package gateway is the payment gateway, both ways. Outbound (provider.go,
// razorpay.go, simulator.go) it creates payment intents and refunds through
// one Provider interface. Inbound it receives payment-gateway webhooks: it verifies the signature
// over the raw body, parses and validates the event, de-duplicates it with a
// Redis marker and queues it for the worker (docs/WEBHOOKS.md "Inbound: the
// payment gateway"; docs/DECISIONS.md "Payments and webhooks"). It also builds
// signed events for `shop gateway simulate` and tests.
package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
)

// Handled event names.
const (
	PaymentCaptured   = "payment.captured"
	OrderPaid         = "order.paid"
	PaymentFailed     = "payment.failed"
	PaymentAuthorized = "payment.authorized"
	// PaymentLinkPaid: a payment link was paid; payload.payment_link.entity.id
	// names the link, payload.payment.entity the payment.
	PaymentLinkPaid = "payment_link.paid"
)

// Handled reports whether the service acts on events named name.
func Handled(name string) bool {
	switch name {
	case PaymentCaptured, OrderPaid, PaymentFailed, PaymentAuthorized, PaymentLinkPaid:
		return true
	}
	return false
}

// Event is a parsed gateway event.
type Event struct {
	// ID is the event's own id; empty when the body carries none.
	ID   string
	Name string
	// CreatedAt is the event's Unix time.
	CreatedAt int64
	// Payment is payload.payment.entity; HasPayment reports whether it was present.
	Payment    Payment
	HasPayment bool
	// LinkID is payload.payment_link.entity.id, the payment link a
	// payment_link.paid event is for.
	LinkID string
}

// Payment is payload.payment.entity of an event.
type Payment struct {
	ID     string
	Entity string
	// Amount is in minor units (paise).
	Amount   int64
	Currency string
	Status   string
	// OrderID is the gateway order id: our payment intent id.
	OrderID          string
	Method           string
	CreatedAt        int64
	ErrorCode        string
	ErrorDescription string
}

type wireEvent struct {
	ID        *string      `json:"id"`
	Event     *string      `json:"event"`
	CreatedAt *json.Number `json:"created_at"`
	Payload   *struct {
		Payment *struct {
			Entity *wirePayment `json:"entity"`
		} `json:"payment"`
		PaymentLink *struct {
			Entity *struct {
				ID *string `json:"id"`
			} `json:"entity"`
		} `json:"payment_link"`
	} `json:"payload"`
}

type wirePayment struct {
	ID               *string      `json:"id"`
	Entity           string       `json:"entity"`
	Amount           *json.Number `json:"amount"`
	Currency         *string      `json:"currency"`
	Status           *string      `json:"status"`
	OrderID          *string      `json:"order_id"`
	Method           string       `json:"method"`
	CreatedAt        *json.Number `json:"created_at"`
	ErrorCode        *string      `json:"error_code"`
	ErrorDescription *string      `json:"error_description"`
}

const entityPath = "payload.payment.entity"

// Parse decodes an event and checks its envelope: `event` (string) and
// `created_at` (integer) are required, `id` is optional. The payment entity
// is decoded when present; handled events must pass ValidatePayment too.
// Errors: VALIDATION_ERROR naming the field.
func Parse(body []byte) (Event, error) {
	var w wireEvent
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	err := dec.Decode(&w)
	if err == nil {
		// One JSON value and nothing after it: the body is queued as is.
		if _, next := dec.Token(); next != io.EOF {
			err = errors.New("data after the event")
		}
	}
	if err != nil {
		return Event{}, apperr.New(apperr.Validation, "malformed webhook event").
			WithDetails(map[string]any{"issue": "body must be one JSON event object"})
	}
	if w.Event == nil || strings.TrimSpace(*w.Event) == "" {
		return Event{}, apperr.Invalid("event", "is required")
	}
	ev := Event{Name: *w.Event}
	if w.ID != nil {
		ev.ID = *w.ID
	}
	created, ok := integer(w.CreatedAt)
	if !ok {
		return Event{}, apperr.Invalid("created_at", "must be an integer Unix time")
	}
	ev.CreatedAt = created
	if w.Payload != nil && w.Payload.Payment != nil && w.Payload.Payment.Entity != nil {
		p, err := parsePayment(w.Payload.Payment.Entity)
		if err != nil {
			return Event{}, err
		}
		ev.Payment, ev.HasPayment = p, true
	}
	if w.Payload != nil && w.Payload.PaymentLink != nil && w.Payload.PaymentLink.Entity != nil && w.Payload.PaymentLink.Entity.ID != nil {
		ev.LinkID = strings.TrimSpace(*w.Payload.PaymentLink.Entity.ID)
	}
	return ev, nil
}

// ValidatePayment requires the payment entity that every handled event
// carries. Errors: VALIDATION_ERROR.
func (e Event) ValidatePayment() error {
	if !e.HasPayment {
		return apperr.Invalid(entityPath, "is required")
	}
	if e.Name == PaymentLinkPaid && e.LinkID == "" {
		return apperr.Invalid("payload.payment_link.entity.id", "is required")
	}
	return nil
}

func parsePayment(w *wirePayment) (Payment, error) {
	p := Payment{Entity: w.Entity, Method: w.Method}
	for _, f := range []struct {
		name string
		src  *string
		dst  *string
	}{{"id", w.ID, &p.ID}, {"currency", w.Currency, &p.Currency}, {"order_id", w.OrderID, &p.OrderID}, {"status", w.Status, &p.Status}} {
		if f.src == nil || strings.TrimSpace(*f.src) == "" {
			return Payment{}, apperr.Invalid(entityPath+"."+f.name, "is required")
		}
		*f.dst = *f.src
	}
	amount, ok := integer(w.Amount)
	if !ok || amount < 0 {
		return Payment{}, apperr.Invalid(entityPath+".amount", "must be a non-negative integer in minor units")
	}
	p.Amount = amount
	if w.CreatedAt != nil {
		if p.CreatedAt, ok = integer(w.CreatedAt); !ok {
			return Payment{}, apperr.Invalid(entityPath+".created_at", "must be an integer Unix time")
		}
	}
	if w.ErrorCode != nil {
		p.ErrorCode = *w.ErrorCode
	}
	if w.ErrorDescription != nil {
		p.ErrorDescription = *w.ErrorDescription
	}
	return p, nil
}

// integer reads a JSON number that must be an integer (no fraction, no
// exponent).
func integer(n *json.Number) (int64, bool) {
	if n == nil {
		return 0, false
	}
	v, err := n.Int64()
	return v, err == nil
}
