// Package checkouttrace joins a payment webhook to the trace of the checkout
// that created the payment (docs/DECISIONS.md "Tracing": a checkout, its webhook and
// its order finalization read as one trace). The gateway calls the webhook
// on its own, with no trace context of ours, so when a checkout creates its
// gateway order the order id's trace context is kept in Redis, and the
// webhook request naming that order id continues it. Used only when
// tracing is on (docs/DECISIONS.md "Tracing").
package checkouttrace

import (
	"context"
	"time"

	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/tracing"
	"github.com/gofiber/fiber/v2"
	"github.com/redis/go-redis/v9"
	"go.opentelemetry.io/otel/trace"
)

// keyPrefix keeps the entries outside the cache namespace.
const keyPrefix = "shop:trace:intent:"

// Store keeps each gateway order's trace context for ttl.
type Store struct {
	redis *redis.Client
	ttl   time.Duration
}

// New returns a store on rdb. ttl should outlast the time a shopper has to
// pay (CHECKOUT_SESSION_TTL) and the gateway's first webhook attempts.
func New(rdb *redis.Client, ttl time.Duration) *Store {
	return &Store{redis: rdb, ttl: ttl}
}

// Provider wraps p so that each payment intent it creates records the
// creating request's trace context under the intent's id.
func (s *Store) Provider(p gateway.Provider) gateway.Provider {
	return recording{Provider: p, store: s}
}

type recording struct {
	gateway.Provider
	store *Store
}

func (r recording) CreateIntent(ctx context.Context, req gateway.IntentRequest) (gateway.Intent, error) {
	in, err := r.Provider.CreateIntent(ctx, req)
	if err == nil {
		r.store.remember(ctx, in.ID)
	}
	return in, err
}

// remember stores ctx's traceparent under intentID. A failure loses only
// the link between the checkout's trace and its webhook's, so it neither
// fails nor slows the checkout beyond one bounded Redis call.
func (s *Store) remember(ctx context.Context, intentID string) {
	tp := tracing.Traceparent(ctx)
	if tp == "" || intentID == "" {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 500*time.Millisecond)
	defer cancel()
	_ = s.redis.Set(ctx, keyPrefix+intentID, tp, s.ttl).Err()
}

// Of returns the trace context stored for intentID, invalid when none.
func (s *Store) Of(ctx context.Context, intentID string) trace.SpanContext {
	tp, err := s.redis.Get(ctx, keyPrefix+intentID).Result()
	if err != nil {
		return trace.SpanContext{}
	}
	return tracing.SpanContextOf(tp)
}

// WebhookParent finds the checkout trace of a gateway webhook posted to
// path: the event's payment entity names the gateway order. The body is
// only read here; the receiver verifies and parses it as before, so a body
// that fails there at worst joins a real checkout's trace as a refused
// request.
func (s *Store) WebhookParent(path string) tracing.Parent {
	return func(c *fiber.Ctx) trace.SpanContext {
		if c.Method() != fiber.MethodPost || c.Path() != path {
			return trace.SpanContext{}
		}
		ev, err := gateway.Parse(c.Body())
		if err != nil || ev.Payment.OrderID == "" {
			return trace.SpanContext{}
		}
		return s.Of(c.UserContext(), ev.Payment.OrderID)
	}
}
