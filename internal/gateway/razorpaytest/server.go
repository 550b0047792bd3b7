// Package razorpaytest is a stand-in for the Razorpay API in tests: it
// creates orders (POST /v1/orders, one per receipt sent with
// unique_receipt), makes refunds (POST
// /v1/payments/{id}/refund, one per X-Refund-Idempotency key, as Razorpay
// does) and lists them (GET /v1/payments/{id}/refunds). It can answer a
// refund request late, after the client gave up, having made the refund or
// not, to stand for a gateway that timed out; refuse refunds (RefuseRefunds);
// and make orders whose answer is lost (LoseOrderAnswers). Like Razorpay it
// refunds only payments it knows (Capture, Authorize): a refund of an
// unknown payment, of one not captured, or of more than the payment has
// left is refused with Razorpay's 400 body (payments.go). It also makes
// payment links (POST /v1/payment_links, one per reference_id), finds
// them by reference (GET /v1/payment_links?reference_id=) and cancels them
// (POST /v1/payment_links/{id}/cancel; FailLinkCancels, PayLink).
package razorpaytest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Refund is a refund the stub made.
type Refund struct {
	ID        string `json:"id"`
	Entity    string `json:"entity"`
	Amount    int64  `json:"amount"`
	Status    string `json:"status"`
	Receipt   string `json:"receipt"`
	PaymentID string `json:"payment_id"`
}

// Late decides, for the n-th refund request (0, 1, …), whether the stub
// answers only after the delay given to New (with a 504), and whether it
// makes the refund all the same.
type Late func(n int) (late, made bool)

// Server is the stub.
type Server struct {
	*httptest.Server
	late  Late
	delay time.Duration

	mu       sync.Mutex
	orders   int
	receipts map[string]string // unique receipt → order id
	amounts  map[string]int64  // order id → amount
	lost     int               // orders still to make with their answer lost
	refunds  []Refund
	keys     []string
	requests int
	refuse   int // refund requests still to refuse
	links    []Link
	// failCancels is how many link cancels are still to answer 503.
	failCancels    int
	cancelAttempts int
	payments       map[string]*payment // payment id → what the stub knows of it
}

// Link is a payment link the stub made.
type Link struct {
	ID          string `json:"id"`
	Entity      string `json:"entity"`
	Amount      int64  `json:"amount"`
	Currency    string `json:"currency"`
	ReferenceID string `json:"reference_id"`
	ExpireBy    int64  `json:"expire_by"`
	ShortURL    string `json:"short_url"`
	Status      string `json:"status"`
	Customer    struct {
		Name    string `json:"name"`
		Email   string `json:"email"`
		Contact string `json:"contact"`
	} `json:"customer"`
}

// Links returns the payment links made so far.
func (s *Server) Links() []Link {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Link(nil), s.links...)
}

// link makes a payment link (POST /v1/payment_links), refusing a
// reference_id already used with a 400 as Razorpay does, or lists the links
// of a reference_id (GET /v1/payment_links?reference_id=).
func (s *Server) link(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if r.Method == http.MethodGet {
		ref := r.URL.Query().Get("reference_id")
		out := []Link{}
		for _, l := range s.links {
			if ref == "" || l.ReferenceID == ref {
				out = append(out, l)
			}
		}
		json.NewEncoder(w).Encode(map[string]any{"payment_links": out})
		return
	}
	var l Link
	b, _ := io.ReadAll(r.Body)
	if json.Unmarshal(b, &l) != nil || l.Amount <= 0 || l.Currency == "" || l.ExpireBy <= time.Now().Unix() {
		http.Error(w, `{"error":{"code":"BAD_REQUEST_ERROR","description":"invalid payment link"}}`, http.StatusBadRequest)
		return
	}
	for _, old := range s.links {
		if l.ReferenceID != "" && old.ReferenceID == l.ReferenceID {
			http.Error(w, `{"error":{"code":"BAD_REQUEST_ERROR","description":"reference_id already exists"}}`, http.StatusBadRequest)
			return
		}
	}
	l.ID = fmt.Sprintf("plink_stub%06d", len(s.links)+1)
	l.Entity, l.Status, l.ShortURL = "payment_link", "created", "https://rzp.io/i/stub"+fmt.Sprint(len(s.links)+1)
	s.links = append(s.links, l)
	json.NewEncoder(w).Encode(l)
}

// RefuseRefunds makes the stub refuse the next n refund requests with a
// 400, as Razorpay refuses a refund it will not make: nothing is refunded.
func (s *Server) RefuseRefunds(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse = n
}

// LoseOrderAnswers makes the stub make the next n orders but answer 504
// (the order exists at the gateway; the client never learns its id).
func (s *Server) LoseOrderAnswers(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lost = n
}

// OrderAmount is the amount (paise) order id was made for; 0 for an order
// the stub did not make.
func (s *Server) OrderAmount(id string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.amounts[id]
}

// New starts a stub that tb closes. late may be nil (every answer on time).
func New(tb testing.TB, late Late, delay time.Duration) *Server {
	if late == nil {
		late = func(int) (bool, bool) { return false, true }
	}
	s := &Server{late: late, delay: delay}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	tb.Cleanup(s.Close)
	return s
}

// Refunds returns the refunds made so far.
func (s *Server) Refunds() []Refund {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Refund(nil), s.refunds...)
}

// Refunded is the sum of the refunds made.
func (s *Server) Refunded() int64 {
	var sum int64
	for _, r := range s.Refunds() {
		sum += r.Amount
	}
	return sum
}

// IdempotencyKeys returns the X-Refund-Idempotency header of every refund
// request, in order.
func (s *Server) IdempotencyKeys() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.keys...)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && r.URL.Path == "/v1/orders" {
		s.order(w, r)
		return
	}
	if r.URL.Path == "/v1/payment_links" {
		s.link(w, r)
		return
	}
	if id, ok := strings.CutSuffix(strings.TrimPrefix(r.URL.Path, "/v1/payment_links/"), "/cancel"); ok && r.Method == http.MethodPost &&
		strings.HasPrefix(r.URL.Path, "/v1/payment_links/") {
		s.cancelLink(w, id)
		return
	}
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/v1/payments/"), "/")
	if len(parts) != 2 {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	switch r.Method + " " + parts[1] {
	case "GET refunds":
		s.list(w, parts[0])
	case "POST refund":
		s.refund(w, r, parts[0])
	default:
		w.WriteHeader(http.StatusNotFound)
	}
}

// Orders is how many orders the stub made.
func (s *Server) Orders() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.orders
}

// order makes an order, or, for a receipt sent before with unique_receipt,
// returns the order made then, as Razorpay does.
func (s *Server) order(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Amount        int64  `json:"amount"`
		Receipt       string `json:"receipt"`
		UniqueReceipt bool   `json:"unique_receipt"`
	}
	b, _ := io.ReadAll(r.Body)
	_ = json.Unmarshal(b, &body)
	s.mu.Lock()
	id, seen := s.receipts[body.Receipt]
	if !body.UniqueReceipt || !seen {
		s.orders++
		id = fmt.Sprintf("order_stub%06d", s.orders)
		if s.amounts == nil {
			s.amounts = map[string]int64{}
		}
		s.amounts[id] = body.Amount
		if body.UniqueReceipt {
			if s.receipts == nil {
				s.receipts = map[string]string{}
			}
			s.receipts[body.Receipt] = id
		}
	}
	amount, lost := s.amounts[id], s.lost > 0
	if lost {
		s.lost--
	}
	s.mu.Unlock()
	if lost {
		w.WriteHeader(http.StatusGatewayTimeout)
		return
	}
	// Razorpay answers an existing receipt with the order made then, its
	// amount and all.
	json.NewEncoder(w).Encode(map[string]any{"id": id, "entity": "order", "status": "created", "receipt": body.Receipt,
		"amount": amount})
}

func (s *Server) list(w http.ResponseWriter, payment string) {
	s.mu.Lock()
	items := []Refund{}
	for _, rf := range s.refunds {
		if rf.PaymentID == payment {
			items = append(items, rf)
		}
	}
	s.mu.Unlock()
	json.NewEncoder(w).Encode(map[string]any{"entity": "collection", "count": len(items), "items": items})
}

func (s *Server) refund(w http.ResponseWriter, r *http.Request, payment string) {
	var body struct {
		Amount  int64  `json:"amount"`
		Receipt string `json:"receipt"`
	}
	b, _ := io.ReadAll(r.Body)
	if json.Unmarshal(b, &body) != nil || body.Amount <= 0 {
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	key := r.Header.Get("X-Refund-Idempotency")
	s.mu.Lock()
	s.keys = append(s.keys, key)
	if s.refuse > 0 {
		s.refuse--
		s.requests++
		s.mu.Unlock()
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte(`{"error":{"code":"BAD_REQUEST_ERROR","description":"The refund could not be processed"}}`))
		return
	}
	late, made := s.late(s.requests)
	s.requests++
	var rf *Refund
	for i := range s.refunds {
		if key != "" && s.refunds[i].Receipt == key {
			rf = &s.refunds[i]
		}
	}
	if rf == nil {
		if field, desc := s.refusal(payment, body.Amount); desc != "" {
			s.mu.Unlock()
			writeBadRequest(w, field, desc)
			return
		}
	}
	if rf == nil && (made || !late) {
		s.refunds = append(s.refunds, Refund{ID: fmt.Sprintf("rfnd_stub%d", len(s.refunds)+1), Entity: "refund",
			Amount: body.Amount, Status: "processed", Receipt: body.Receipt, PaymentID: payment})
		rf = &s.refunds[len(s.refunds)-1]
		s.counted(payment, body.Amount)
	}
	var answer []byte
	if rf != nil {
		answer, _ = json.Marshal(rf)
	}
	s.mu.Unlock()
	if late {
		time.Sleep(s.delay)
		w.WriteHeader(http.StatusGatewayTimeout)
		return
	}
	w.Write(answer)
}

// PayLink marks link id paid, as a customer's payment does: cancelling it
// is then refused.
func (s *Server) PayLink(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.links {
		if s.links[i].ID == id {
			s.links[i].Status = "paid"
		}
	}
}

// FailLinkCancels makes the stub answer the next n link cancels with a 503
// (nothing cancelled), as a gateway that is down.
func (s *Server) FailLinkCancels(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failCancels = n
}

// CancelAttempts is how many link cancels the stub was asked for.
func (s *Server) CancelAttempts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cancelAttempts
}

// LinkStatus is link id's status (created, paid, cancelled), "" for a link
// the stub did not make.
func (s *Server) LinkStatus(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.links {
		if l.ID == id {
			return l.Status
		}
	}
	return ""
}

// cancelLink cancels a payment link (POST /v1/payment_links/{id}/cancel),
// answering as Razorpay does: the link, cancelled; a 400 for a link that is
// paid or cancelled already; a 404 for one it does not know.
func (s *Server) cancelLink(w http.ResponseWriter, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.cancelAttempts++
	if s.failCancels > 0 {
		s.failCancels--
		http.Error(w, `{"error":{"code":"SERVER_ERROR","description":"The server encountered an error"}}`, http.StatusServiceUnavailable)
		return
	}
	for i := range s.links {
		l := &s.links[i]
		if l.ID != id {
			continue
		}
		switch l.Status {
		case "paid":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":{"code":"BAD_REQUEST_ERROR","description":"Payment Link cannot be cancelled as it is already paid","source":"business","step":"payment_initiation","reason":"input_validation_failed","metadata":{},"field":"id"}}`))
			return
		case "cancelled":
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"error":{"code":"BAD_REQUEST_ERROR","description":"Payment Link cannot be cancelled as it is already cancelled","source":"business","step":"payment_initiation","reason":"input_validation_failed","metadata":{},"field":"id"}}`))
			return
		}
		l.Status = "cancelled"
		json.NewEncoder(w).Encode(l)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusNotFound)
	w.Write([]byte(`{"error":{"code":"BAD_REQUEST_ERROR","description":"The id provided does not exist"}}`))
}
