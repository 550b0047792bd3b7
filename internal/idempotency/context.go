package idempotency

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strconv"

	"github.com/google/uuid"
)

type ctxKey struct{}

// Run is the keyed request a context serves: its key, the lease it holds
// it with, and what an earlier run of it made (ChangeRef, see
// RecordChange).
type Run struct {
	Scope
	Lease     uuid.UUID
	ChangeRef string
}

// WithRun returns ctx serving run r.
func WithRun(ctx context.Context, r Run) context.Context {
	return context.WithValue(ctx, ctxKey{}, r)
}

// WithScope returns ctx carrying sc, the key of the request ctx serves,
// without a lease (RecordChange then records nothing).
func WithScope(ctx context.Context, sc Scope) context.Context {
	return WithRun(ctx, Run{Scope: sc})
}

func runOf(ctx context.Context) (Run, bool) {
	r, ok := ctx.Value(ctxKey{}).(Run)
	return r, ok
}

// GatewayKey returns the idempotency key a payment gateway call made for
// purpose ("payment_intent", "refund") carries when ctx serves a request
// sent with an Idempotency-Key, else "". It is 37 characters of [a-z0-9_]
// (Razorpay wants 10 to 40), the same for every retry of that request and
// different for every caller, route, key and purpose.
func GatewayKey(ctx context.Context, purpose string) string {
	run, ok := runOf(ctx)
	if !ok {
		return ""
	}
	sc := run.Scope
	h := sha256.New()
	for _, part := range []string{sc.Caller, sc.Method, sc.Route, sc.Key, purpose} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
	return "idem_" + hex.EncodeToString(h.Sum(nil))[:32]
}

// AttemptKey is the gateway key of attempt (1, 2, …) of the request whose
// key is requestKey (GatewayKey): requestKey itself for the first attempt,
// so a request's first gateway call is asked as it always was, and for a
// later one another key of the same shape derived from both. A gateway
// that refused a key answers it the same way however often it is sent, so
// a new attempt needs a key of its own.
func AttemptKey(requestKey string, attempt int) string {
	if attempt <= 1 {
		return requestKey
	}
	h := sha256.New()
	h.Write([]byte(requestKey))
	h.Write([]byte{0})
	h.Write([]byte(strconv.Itoa(attempt)))
	return "idem_" + hex.EncodeToString(h.Sum(nil))[:32]
}

// Fingerprint is the hash a repeat must match: the path with its
// parameters and query, and the body.
func Fingerprint(uri string, body []byte) []byte {
	h := sha256.New()
	h.Write([]byte(uri))
	h.Write([]byte{0})
	h.Write(body)
	return h.Sum(nil)
}
