// The outbound half of the gateway: one Provider interface creates a payment
// intent (the gateway's order) at checkout and refunds a captured payment
// from the back office. `simulator` works offline; `razorpay` calls the
// Razorpay Orders and Refunds APIs.

package gateway

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/money"
	"github.com/redis/go-redis/v9"
)

// Provider names.
const (
	Simulator = "simulator"
	Razorpay  = "razorpay"
)

// ErrUnavailable wraps every failure to reach a gateway or get a usable
// answer from it; callers answer 503 SERVICE_UNAVAILABLE. For a refund it
// means the outcome is unknown: the gateway may have made it.
var ErrUnavailable = errors.New("payment gateway unavailable")

// ErrRefused wraps a refund the gateway answered it will not make (a 4xx
// other than 408, 409 and 429): nothing was refunded.
var ErrRefused = errors.New("payment gateway refused the request")

// IntentRequest asks for a payment intent.
type IntentRequest struct {
	Amount   money.Amount
	Currency string
	// Receipt is our reference (the checkout session id), at most 40 bytes.
	Receipt string
	// Key, when set, makes the request idempotent: the gateway creates one
	// intent per key (Razorpay: the receipt with unique_receipt). Same
	// characters as RefundRequest.Key.
	Key string
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
	// Key makes the request idempotent: the gateway makes one refund per
	// key however often it is sent, and the refund carries it back (as its
	// receipt) so that it can be found by Refunds. 10 to 40 characters of
	// A-Z, a-z, 0-9, _ and -; a repeat must carry the same amount and reason.
	Key string
}

// Gateway refund statuses.
const (
	RefundPending   = "pending"
	RefundProcessed = "processed"
	RefundFailed    = "failed"
)

// Refund is a refund the gateway made (or is making).
type Refund struct {
	ID     string
	Amount money.Amount
	// Status is RefundPending, RefundProcessed or RefundFailed.
	Status string
	// Key is the RefundRequest.Key it was made with, "" when it had none.
	Key string
}

// Provider is a payment gateway.
type Provider interface {
	Name() string
	// CreateIntent creates the gateway order a shopper pays. Errors wrap
	// ErrUnavailable.
	CreateIntent(ctx context.Context, r IntentRequest) (Intent, error)
	// Refund refunds part or all of a captured payment, once per r.Key.
	// Errors wrap ErrRefused (nothing refunded) or ErrUnavailable (outcome
	// unknown: ask Refunds, or send the same request again).
	Refund(ctx context.Context, r RefundRequest) (Refund, error)
	// Refunds lists the refunds of a captured payment. Errors wrap
	// ErrUnavailable.
	Refunds(ctx context.Context, paymentID string) ([]Refund, error)
}

// FindRefund returns the refund of list made with key, if any.
func FindRefund(list []Refund, key string) (Refund, bool) {
	for _, r := range list {
		if key != "" && r.Key == key {
			return r, true
		}
	}
	return Refund{}, false
}

// FromConfig returns the configured provider. Every call it makes is bounded
// by GATEWAY_TIMEOUT and goes through transport (nil: Go's default; the
// composition root passes a traced one when tracing is on). The simulator
// keeps its payments and refunds in rdb (nil: this process's memory).
func FromConfig(cfg *config.Config, transport http.RoundTripper, rdb *redis.Client) (Provider, error) {
	switch cfg.PaymentProvider {
	case Simulator:
		if rdb != nil {
			return NewSharedSimulator(rdb), nil
		}
		return NewSimulator(), nil
	case Razorpay:
		return NewRazorpay(RazorpayConfig{
			BaseURL: cfg.RazorpayBaseURL, KeyID: cfg.RazorpayKeyID, KeySecret: cfg.RazorpayKeySecret,
			Client: &http.Client{Timeout: cfg.GatewayTimeout, Transport: transport},
		}), nil
	}
	return nil, fmt.Errorf("payment: unknown provider %q", cfg.PaymentProvider)
}

func unavailable(op string, err error) error {
	return fmt.Errorf("payment.%s: %w: %v", op, ErrUnavailable, err)
}

func refused(op string, err error) error {
	return fmt.Errorf("payment.%s: %w: %v", op, ErrRefused, err)
}
