package gateway

import (
	"context"
	"fmt"
	"sync"

	"github.com/redis/go-redis/v9"
)

// SimulatorProvider makes gateway ids locally. Paired with `shop gateway
// simulate`, it lets a checkout be completed end to end without a gateway.
// Its refunds behave as Razorpay's do: one refund per idempotency key, a
// payment's refunds can be listed, and it refuses, with Razorpay's
// descriptions, a refund of a payment it does not know, of one not
// captured, or of more than the payment has left (simulator_payments.go).
// NewSimulator keeps payments and refunds in this process's memory (every
// simulator of the process shares them, bounded by simMaxRefunds);
// NewSharedSimulator keeps them in Redis, so that an API and a worker
// running as separate processes see the same ones.
type SimulatorProvider struct {
	shared *simShared
}

// NewSimulator returns the simulator, its book in this process's memory.
func NewSimulator() *SimulatorProvider { return &SimulatorProvider{} }

// NewSharedSimulator returns the simulator, its book in rdb.
func NewSharedSimulator(rdb *redis.Client) *SimulatorProvider {
	return &SimulatorProvider{shared: &simShared{rdb: rdb}}
}

// Name is "simulator".
func (*SimulatorProvider) Name() string { return Simulator }

// CreateIntent returns a new order_sim_... id, or the one made before with
// r.Key.
func (*SimulatorProvider) CreateIntent(ctx context.Context, r IntentRequest) (Intent, error) {
	if err := ctx.Err(); err != nil {
		return Intent{}, unavailable("create_intent", err)
	}
	if r.Key == "" {
		return Intent{ID: "order_sim_" + randomHex(8), Status: "created"}, nil
	}
	return Intent{ID: simIntents.idFor(r.Key), Status: "created"}, nil
}

// simIntentBook remembers the intent made per key, up to simMaxRefunds
// keys (then it starts again: a key older than that is long expired).
type simIntentBook struct {
	mu    sync.Mutex
	byKey map[string]string
}

var simIntents = &simIntentBook{byKey: map[string]string{}}

func (b *simIntentBook) idFor(key string) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	if id, ok := b.byKey[key]; ok {
		return id
	}
	if len(b.byKey) >= simMaxRefunds {
		clear(b.byKey)
	}
	id := "order_sim_" + randomHex(8)
	b.byKey[key] = id
	return id
}

// Refund makes a processed rfnd_sim_... refund, or returns the refund made
// before with r.Key. A repeat of a key with another payment or amount is
// ErrRefused, as Razorpay refuses it; so is a new refund of an unknown or
// uncaptured payment, or of more than it has left (checkRefund).
func (s *SimulatorProvider) Refund(ctx context.Context, r RefundRequest) (Refund, error) {
	if err := ctx.Err(); err != nil {
		return Refund{}, unavailable("refund", err)
	}
	if s.shared != nil {
		return s.shared.refund(ctx, r)
	}
	return simBook.refund(r)
}

// Refunds lists the refunds the simulator's book holds of paymentID.
func (s *SimulatorProvider) Refunds(ctx context.Context, paymentID string) ([]Refund, error) {
	if err := ctx.Err(); err != nil {
		return nil, unavailable("refunds", err)
	}
	if s.shared != nil {
		return s.shared.list(ctx, paymentID)
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
	pays  simPayments
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
	p, ok := b.payment(r.PaymentID)
	if err := checkRefund(p, ok, b.refundedOf(r.PaymentID), r.Amount); err != nil {
		return Refund{}, err
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
