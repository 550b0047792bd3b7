package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/gocommerce/shop/internal/money"
)

// RazorpayConfig locates the Razorpay API.
type RazorpayConfig struct {
	BaseURL   string
	KeyID     string
	KeySecret string
	// Client must carry a timeout.
	Client *http.Client
}

// RazorpayProvider calls the Razorpay Orders and Refunds APIs with HTTP
// basic auth (key id : key secret).
type RazorpayProvider struct{ cfg RazorpayConfig }

// NewRazorpay returns the adapter.
func NewRazorpay(cfg RazorpayConfig) *RazorpayProvider {
	cfg.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	return &RazorpayProvider{cfg: cfg}
}

// Name is "razorpay".
func (*RazorpayProvider) Name() string { return Razorpay }

// CreateIntent creates a Razorpay order: POST /v1/orders.
func (p *RazorpayProvider) CreateIntent(ctx context.Context, r IntentRequest) (Intent, error) {
	var out struct {
		ID     string `json:"id"`
		Status string `json:"status"`
	}
	body := map[string]any{"amount": int64(r.Amount), "currency": r.Currency, "receipt": truncate(r.Receipt, 40)}
	if err := p.do(ctx, http.MethodPost, "/v1/orders", nil, body, &out); err != nil {
		return Intent{}, unavailable("create_intent", err)
	}
	if out.ID == "" {
		return Intent{}, unavailable("create_intent", fmt.Errorf("response carries no order id"))
	}
	return Intent{ID: out.ID, Status: out.Status}, nil
}

// Refund refunds a payment: POST /v1/payments/{id}/refund with the
// X-Refund-Idempotency header set to r.Key, which is also the refund's
// receipt and a note, so that Refunds finds it again. A 4xx answer (but 409,
// a request with that key still being processed, and 408/429) is ErrRefused;
// anything else that is not a refund is ErrUnavailable.
func (p *RazorpayProvider) Refund(ctx context.Context, r RefundRequest) (Refund, error) {
	var out razorpayRefund
	body := map[string]any{"amount": int64(r.Amount), "notes": map[string]string{"reason": truncate(r.Reason, 255)}}
	header := http.Header{}
	if r.Key != "" {
		body["receipt"] = r.Key
		body["notes"].(map[string]string)[keyNote] = r.Key
		header.Set("X-Refund-Idempotency", r.Key)
	}
	if err := p.do(ctx, http.MethodPost, "/v1/payments/"+url.PathEscape(r.PaymentID)+"/refund", header, body, &out); err != nil {
		var se *statusError
		if errors.As(err, &se) && se.definite() {
			return Refund{}, refused("refund", err)
		}
		return Refund{}, unavailable("refund", err)
	}
	if out.ID == "" {
		return Refund{}, unavailable("refund", fmt.Errorf("response carries no refund id"))
	}
	return out.refund(), nil
}

// Refunds lists a payment's refunds: GET /v1/payments/{id}/refunds (the
// most recent 100; a payment has a handful).
func (p *RazorpayProvider) Refunds(ctx context.Context, paymentID string) ([]Refund, error) {
	var out struct {
		Items []razorpayRefund `json:"items"`
	}
	if err := p.do(ctx, http.MethodGet, "/v1/payments/"+url.PathEscape(paymentID)+"/refunds?count=100", nil, nil, &out); err != nil {
		return nil, unavailable("refunds", err)
	}
	list := make([]Refund, 0, len(out.Items))
	for _, it := range out.Items {
		list = append(list, it.refund())
	}
	return list, nil
}

// keyNote is the note that carries a refund's idempotency key.
const keyNote = "idempotency_key"

// razorpayRefund is Razorpay's refund entity, as much as is read of it.
type razorpayRefund struct {
	ID      string  `json:"id"`
	Amount  int64   `json:"amount"`
	Status  string  `json:"status"`
	Receipt *string `json:"receipt"`
	// Notes is an object, or [] when empty.
	Notes json.RawMessage `json:"notes"`
}

func (r razorpayRefund) refund() Refund {
	out := Refund{ID: r.ID, Amount: money.Amount(r.Amount), Status: r.Status}
	if r.Receipt != nil {
		out.Key = *r.Receipt
	}
	var notes map[string]any
	if out.Key == "" && json.Unmarshal(r.Notes, &notes) == nil {
		out.Key, _ = notes[keyNote].(string)
	}
	return out
}

// statusError is a non-2xx answer.
type statusError struct {
	path string
	code int
	body []byte
}

func (e *statusError) Error() string {
	// The body may describe the error; it never carries our secret.
	return fmt.Sprintf("razorpay %s answered %d: %.200s", e.path, e.code, e.body)
}

// definite tells an answer that the request was not carried out (a client
// error) from one whose outcome is unknown (server errors, a request with
// the same idempotency key in progress, timeouts, rate limits).
func (e *statusError) definite() bool {
	switch e.code {
	case http.StatusConflict, http.StatusRequestTimeout, http.StatusTooManyRequests:
		return false
	}
	return e.code >= 400 && e.code < 500
}

func (p *RazorpayProvider) do(ctx context.Context, method, path string, header http.Header, body, out any) error {
	var reader io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		reader = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, p.cfg.BaseURL+path, reader)
	if err != nil {
		return err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.SetBasicAuth(p.cfg.KeyID, p.cfg.KeySecret)
	resp, err := p.cfg.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return &statusError{path: path, code: resp.StatusCode, body: raw}
	}
	return json.Unmarshal(raw, out)
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
