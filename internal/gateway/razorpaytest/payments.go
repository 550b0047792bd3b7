package razorpaytest

import (
	"encoding/json"
	"net/http"

	"github.com/gocommerce/shop/internal/gateway"
)

// payment is a payment the stub knows, and what its refunds took.
type payment struct {
	amount   int64
	captured bool
	refunded int64
	// registered: known from this process's registrations, not Capture.
	registered bool
}

// The descriptions of Razorpay's refusals of a refund: the simulator's, so
// the two stand-ins cannot drift apart.
const (
	DescNoSuchPayment = gateway.SimNoSuchPayment
	DescOverCaptured  = gateway.SimOverRefund
	DescOverLeft      = gateway.SimOverLeft
	DescNotCaptured   = gateway.SimNotCaptured
)

// The stub knows the payments given to Capture and Authorize, and those
// this process's gateway.BuildEvent and gateway.RegisterSimulatedPayment
// registered (the payment events a test builds, its fixtures' orders).

// Capture makes the stub know payment id, captured for amount (paise), as
// a payment event the test sends says it was: only such a payment can be
// refunded, up to its amount.
func (s *Server) Capture(id string, amount int64) {
	s.setPayment(id, amount, true)
}

// Authorize makes the stub know payment id, authorized for amount but not
// captured: a refund of it is refused.
func (s *Server) Authorize(id string, amount int64) {
	s.setPayment(id, amount, false)
}

func (s *Server) setPayment(id string, amount int64, captured bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.payments == nil {
		s.payments = map[string]*payment{}
	}
	if p, ok := s.payments[id]; ok {
		p.captured = p.captured || captured
		return
	}
	s.payments[id] = &payment{amount: amount, captured: captured}
}

// refusal is the field and description of Razorpay's refusal of a new
// refund of amount of payment id, or "" when it may be made. The caller
// holds s.mu.
func (s *Server) refusal(id string, amount int64) (field, desc string) {
	p, ok := s.payments[id]
	if sp, known := gateway.SimulatedPayment(id); known && (!ok || p.registered) {
		// A payment of an event the test built, or of a fixture's order
		// (as it was last registered).
		if s.payments == nil {
			s.payments = map[string]*payment{}
		}
		if !ok {
			p, ok = &payment{registered: true}, true
			s.payments[id] = p
		}
		p.amount, p.captured = int64(sp.Amount), sp.Captured
	}
	switch {
	case !ok:
		return "id", DescNoSuchPayment
	case !p.captured:
		return "", DescNotCaptured
	case amount > p.amount:
		return "amount", DescOverCaptured
	case p.refunded+amount > p.amount:
		return "amount", DescOverLeft
	}
	return "", ""
}

// counted counts a refund made of amount against payment id. The caller
// holds s.mu.
func (s *Server) counted(id string, amount int64) {
	if p, ok := s.payments[id]; ok {
		p.refunded += amount
	}
}

// writeBadRequest answers 400 with Razorpay's error body.
func writeBadRequest(w http.ResponseWriter, field, desc string) {
	var f any
	if field != "" {
		f = field
	}
	body := map[string]any{"error": map[string]any{
		"code": "BAD_REQUEST_ERROR", "description": desc, "source": "business", "step": "payment_initiation",
		"reason": "input_validation_failed", "metadata": map[string]any{}, "field": f,
	}}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	json.NewEncoder(w).Encode(body)
}
