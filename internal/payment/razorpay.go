package payment

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
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
	if err := p.post(ctx, "/v1/orders", body, &out); err != nil {
		return Intent{}, unavailable("create_intent", err)
	}
	if out.ID == "" {
		return Intent{}, unavailable("create_intent", fmt.Errorf("response carries no order id"))
	}
	return Intent{ID: out.ID, Status: out.Status}, nil
}

// Refund refunds a payment: POST /v1/payments/{id}/refund.
func (p *RazorpayProvider) Refund(ctx context.Context, r RefundRequest) (Refund, error) {
	var out struct {
		ID string `json:"id"`
	}
	body := map[string]any{"amount": int64(r.Amount), "notes": map[string]string{"reason": truncate(r.Reason, 255)}}
	if err := p.post(ctx, "/v1/payments/"+url.PathEscape(r.PaymentID)+"/refund", body, &out); err != nil {
		return Refund{}, unavailable("refund", err)
	}
	if out.ID == "" {
		return Refund{}, unavailable("refund", fmt.Errorf("response carries no refund id"))
	}
	return Refund{ID: out.ID}, nil
}

func (p *RazorpayProvider) post(ctx context.Context, path string, body, out any) error {
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, p.cfg.BaseURL+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.SetBasicAuth(p.cfg.KeyID, p.cfg.KeySecret)
	resp, err := p.cfg.Client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		// The body may describe the error; it never carries our secret.
		return fmt.Errorf("razorpay %s answered %d: %.200s", path, resp.StatusCode, raw)
	}
	return json.Unmarshal(raw, out)
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
