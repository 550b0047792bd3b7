// Package payment talks to payment gateways through one interface: create a
// payment intent (the gateway's order) at checkout, refund a captured payment
// from the back office. `simulator` works offline; `razorpay` calls the
// Razorpay Orders and Refunds APIs.
package payment

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/money"
)

// Provider names.
const (
	Simulator = "simulator"
	Razorpay  = "razorpay"
)

// ErrUnavailable wraps every failure to reach a gateway or get a usable
// answer from it; callers answer 503 SERVICE_UNAVAILABLE.
var ErrUnavailable = errors.New("payment gateway unavailable")

// IntentRequest asks for a payment intent.
type IntentRequest struct {
	Amount   money.Amount
	Currency string
	// Receipt is our reference (the checkout session id), at most 40 bytes.
	Receipt string
}

// Intent is a created payment intent.
type Intent struct {
	// ID is the gateway's order id; gateway webhooks carry it as order_id.
	ID     string
	Status string
}

// RefundRequest asks to return money on a captured payment.
type RefundRequest struct {
	// PaymentID is the gateway's payment id (pay_...).
	PaymentID string
	Amount    money.Amount
	Currency  string
	Reason    string
}

// Refund is a created refund.
type Refund struct{ ID string }

// Provider is a payment gateway.
type Provider interface {
	Name() string
	// CreateIntent creates the gateway order a shopper pays. Errors wrap
	// ErrUnavailable.
	CreateIntent(ctx context.Context, r IntentRequest) (Intent, error)
	// Refund refunds part or all of a captured payment. Errors wrap
	// ErrUnavailable.
	Refund(ctx context.Context, r RefundRequest) (Refund, error)
}

// FromConfig returns the configured provider. Every call it makes is bounded
// by GATEWAY_TIMEOUT.
func FromConfig(cfg *config.Config) (Provider, error) {
	switch cfg.PaymentProvider {
	case Simulator:
		return NewSimulator(), nil
	case Razorpay:
		return NewRazorpay(RazorpayConfig{
			BaseURL: cfg.RazorpayBaseURL, KeyID: cfg.RazorpayKeyID, KeySecret: cfg.RazorpayKeySecret,
			Client: &http.Client{Timeout: cfg.GatewayTimeout},
		}), nil
	}
	return nil, fmt.Errorf("payment: unknown provider %q", cfg.PaymentProvider)
}

func unavailable(op string, err error) error {
	return fmt.Errorf("payment.%s: %w: %v", op, ErrUnavailable, err)
}
