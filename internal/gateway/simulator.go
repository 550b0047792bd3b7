package gateway

import (
	"context"
	"fmt"
	"sync"
)

// SimulatorProvider makes gateway ids locally. Paired with `shop gateway
// simulate`, it lets a checkout be completed end to end without a gateway.
// Its refunds behave as Razorpay's do: one refund per idempotency key, and
// a payment's refunds can be listed. They are kept in this process's memory
// (every simulator of the process shares them, bounded by simMaxRefunds),
// so an API and a worker running as separate processes do not see each
// other's refunds.
type SimulatorProvider struct{}

// NewSimulator returns the simulator.
func NewSimulator() *SimulatorProvider { return &SimulatorProvider{} }

// Name is "simulator".
func (*SimulatorProvider) Name() string { return Simulator }

// CreateIntent returns a new order_sim_... id.
func (*SimulatorProvider) CreateIntent(ctx context.Context, r IntentRequest) (Intent, error) {
	if err := ctx.Err(); err != nil {
		return Intent{}, unavailable("create_intent", err)
	}
	return Intent{ID: "order_sim_" + randomHex(8), Status: "created"}, nil
}

// Refund makes a processed rfnd_sim_... refund, or returns the refund made
// before with r.Key. A repeat of a key with another payment or amount is
// ErrRefused, as Razorpay refuses it.
func (*SimulatorProvider) Refund(ctx context.Context, r RefundRequest) (Refund, error) {
	if err := ctx.Err(); err != nil {
		return Refund{}, unavailable("refund", err)
	}
	return simBook.refund(r)
}

// Refunds lists the refunds this process's simulator made of paymentID.
func (*SimulatorProvider) Refunds(ctx context.Context, paymentID string) ([]Refund, error) {
	if err := ctx.Err(); err != nil {
		return nil, unavailable("refunds", err)
	}
	return simBook.list(paymentID), nil
}

// simMaxRefunds bounds the refunds the simulator remembers; the oldest are
// forgotten first.
const simMaxRefunds = 10000

type simRefund struct {
	Refund
	paymentID string
}

// simRefundBook is the simulator's memory of refunds.
type simRefundBook struct {
	mu    sync.Mutex
	byKey map[string]int // key → index in all
	all   []simRefund
}

var simBook = &simRefundBook{byKey: map[string]int{}}

func (b *simRefundBook) refund(r RefundRequest) (Refund, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if i, ok := b.byKey[r.Key]; ok && r.Key != "" {
		prev := b.all[i]
		if prev.paymentID != r.PaymentID || prev.Amount != r.Amount {
			return Refund{}, refused("refund", fmt.Errorf("a different request with key %s was already processed", r.Key))
		}
		return prev.Refund, nil
	}
	if len(b.all) >= simMaxRefunds {
		drop := b.all[:len(b.all)/2]
		b.all = append([]simRefund(nil), b.all[len(b.all)/2:]...)
		for _, d := range drop {
			delete(b.byKey, d.Key)
		}
		for i, kept := range b.all {
			if kept.Key != "" {
				b.byKey[kept.Key] = i
			}
		}
	}
	ref := simRefund{Refund: Refund{ID: "rfnd_sim_" + randomHex(8), Amount: r.Amount, Status: RefundProcessed, Key: r.Key}, paymentID: r.PaymentID}
	if r.Key != "" {
		b.byKey[r.Key] = len(b.all)
	}
	b.all = append(b.all, ref)
	return ref.Refund, nil
}

func (b *simRefundBook) list(paymentID string) []Refund {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []Refund
	for _, r := range b.all {
		if r.paymentID == paymentID {
			out = append(out, r.Refund)
		}
	}
	return out
}
