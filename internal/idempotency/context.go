package idempotency

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
)

type ctxKey struct{}

// WithScope returns ctx carrying sc, the key of the request ctx serves.
func WithScope(ctx context.Context, sc Scope) context.Context {
	return context.WithValue(ctx, ctxKey{}, sc)
}

// GatewayKey returns the idempotency key a payment gateway call made for
// purpose ("payment_intent", "refund") carries when ctx serves a request
// sent with an Idempotency-Key, else "". It is 37 characters of [a-z0-9_]
// (Razorpay wants 10 to 40), the same for every retry of that request and
// different for every caller, route, key and purpose.
func GatewayKey(ctx context.Context, purpose string) string {
	sc, ok := ctx.Value(ctxKey{}).(Scope)
	if !ok {
		return ""
	}
	h := sha256.New()
	for _, part := range []string{sc.Caller, sc.Method, sc.Route, sc.Key, purpose} {
		h.Write([]byte(part))
		h.Write([]byte{0})
	}
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
