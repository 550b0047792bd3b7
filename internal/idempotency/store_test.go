package idempotency_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/testkit"
)

// A running key is busy until its lease lapses; then a repeat takes it
// over and runs, and the crashed run can no longer store its answer. A
// replay returns the kept answer; another request is a mismatch.
func TestLeaseOfACrashedRunLapses(t *testing.T) {
	db, _ := testkit.MustDB(t)
	ctx := context.Background()
	store := idempotency.New(db).WithLease(time.Second)
	sc := idempotency.Scope{Caller: "customer:1", Method: "POST", Route: "/orders", Key: "k"}
	hash := idempotency.Fingerprint("/orders", []byte(`{}`))

	crashed, err := store.Begin(ctx, sc, hash)
	if err != nil || crashed.Outcome != idempotency.Started {
		t.Fatalf("first: %+v %v", crashed, err)
	}
	if c, _ := store.Begin(ctx, sc, hash); c.Outcome != idempotency.Busy {
		t.Fatalf("repeat while running: %+v", c)
	}
	time.Sleep(1100 * time.Millisecond)
	retry, err := store.Begin(ctx, sc, hash)
	if err != nil || retry.Outcome != idempotency.Started || retry.Lease == crashed.Lease {
		t.Fatalf("repeat after the lease: %+v %v", retry, err)
	}
	if err := store.Finish(ctx, sc, crashed.Lease, idempotency.Answer{Status: 201, Body: []byte("late")}); !errors.Is(err, idempotency.ErrLeaseLost) {
		t.Fatalf("the crashed run finished: %v", err)
	}
	want := idempotency.Answer{Status: 201, ContentType: "application/json", Location: "/orders/1", Body: []byte(`{"id":1}`)}
	if err := store.Finish(ctx, sc, retry.Lease, want); err != nil {
		t.Fatal(err)
	}
	c, err := store.Begin(ctx, sc, hash)
	if err != nil || c.Outcome != idempotency.Replay || c.Answer.Status != 201 || string(c.Answer.Body) != `{"id":1}` ||
		c.Answer.ContentType != want.ContentType || c.Answer.Location != want.Location {
		t.Fatalf("replay: %+v %v", c, err)
	}
	if c, _ := store.Begin(ctx, sc, idempotency.Fingerprint("/orders", []byte(`{"x":1}`))); c.Outcome != idempotency.Mismatch {
		t.Fatalf("another body: %+v", c)
	}
}

// The gateway key depends on caller, route, key and purpose, and fits
// Razorpay's 10 to 40 characters.
func TestGatewayKey(t *testing.T) {
	ctx := context.Background()
	if k := idempotency.GatewayKey(ctx, "refund"); k != "" {
		t.Fatalf("key without a scope: %q", k)
	}
	a := idempotency.WithScope(ctx, idempotency.Scope{Caller: "admin:1", Method: "POST", Route: "/r", Key: "k"})
	b := idempotency.WithScope(ctx, idempotency.Scope{Caller: "admin:2", Method: "POST", Route: "/r", Key: "k"})
	ka, kb := idempotency.GatewayKey(a, "refund"), idempotency.GatewayKey(b, "refund")
	if ka == kb || ka == idempotency.GatewayKey(a, "payment_intent") || ka != idempotency.GatewayKey(a, "refund") || len(ka) < 10 || len(ka) > 40 {
		t.Fatalf("keys %q %q", ka, kb)
	}
}

// Every attempt of one request has its own gateway key, of the shape
// Razorpay accepts; the first is the request's key itself.
func TestAttemptKey(t *testing.T) {
	ctx := idempotency.WithScope(context.Background(), idempotency.Scope{Caller: "admin:1", Method: "POST", Route: "/r", Key: "k"})
	base := idempotency.GatewayKey(ctx, "refund")
	seen := map[string]int{}
	for attempt := 1; attempt <= 200; attempt++ {
		k := idempotency.AttemptKey(base, attempt)
		if prev, ok := seen[k]; ok || len(k) < 10 || len(k) > 40 {
			t.Fatalf("attempt %d: key %q (also attempt %d)", attempt, k, prev)
		}
		seen[k] = attempt
	}
	if idempotency.AttemptKey(base, 1) != base || idempotency.AttemptKey(base, 2) != idempotency.AttemptKey(base, 2) {
		t.Fatal("attempt keys are not stable")
	}
}
