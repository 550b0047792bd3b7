package payment

import (
	"context"
	"crypto/rand"
	"encoding/hex"
)

// SimulatorProvider makes gateway ids locally. Paired with `shop gateway
// simulate`, it lets a checkout be completed end to end without a gateway.
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

// Refund returns a new rfnd_sim_... id; the refund is recorded by the caller.
func (*SimulatorProvider) Refund(ctx context.Context, r RefundRequest) (Refund, error) {
	if err := ctx.Err(); err != nil {
		return Refund{}, unavailable("refund", err)
	}
	return Refund{ID: "rfnd_sim_" + randomHex(8)}, nil
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
