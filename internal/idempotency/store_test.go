package idempotency_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/internal/uow"
	"gorm.io/gorm"
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

// A change records what it made in its own transaction. A run that
// outlived its lease cannot record its change once a retry took the key
// over (its transaction must roll back); a retry that takes over a key
// whose change is still committing waits for it and is told what it made;
// a recorded key survives Abandon, lapsed, for the retry to find.
func TestRecordedChangeReachesTheRetry(t *testing.T) {
	db, _ := testkit.MustDB(t)
	ctx := context.Background()
	store := idempotency.New(db).WithLease(time.Second)
	sc := idempotency.Scope{Caller: "admin:1", Method: "POST", Route: "/orders/:orderId/fulfillments", Key: "ship-1"}
	hash := idempotency.Fingerprint("/orders/1/fulfillments", []byte(`{}`))
	record := func(c idempotency.Claim, ref string) error {
		run := idempotency.WithRun(ctx, idempotency.Run{Scope: sc, Lease: c.Lease})
		return db.Transaction(func(tx *gorm.DB) error { return idempotency.RecordChange(uow.Within(run, tx), ref) })
	}

	slow, _ := store.Begin(ctx, sc, hash)
	time.Sleep(1100 * time.Millisecond)
	retry, err := store.Begin(ctx, sc, hash)
	if err != nil || retry.Outcome != idempotency.Started || retry.ChangeRef != "" {
		t.Fatalf("takeover %+v %v", retry, err)
	}
	if err := record(slow, "f-slow"); !errors.Is(err, idempotency.ErrTakenOver) {
		t.Fatalf("the run that lost its key recorded its change: %v", err)
	}

	// The retry's change is committing when the next takeover comes.
	tx := db.Begin()
	run := idempotency.WithRun(ctx, idempotency.Run{Scope: sc, Lease: retry.Lease})
	if err := idempotency.RecordChange(uow.Within(run, tx), "f-1"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1100 * time.Millisecond)
	next := make(chan idempotency.Claim, 1)
	go func() {
		c, err := store.Begin(ctx, sc, hash)
		if err != nil {
			t.Error(err)
		}
		next <- c
	}()
	select {
	case c := <-next:
		t.Fatalf("the takeover did not wait for the change committing: %+v", c)
	case <-time.After(300 * time.Millisecond):
	}
	if err := tx.Commit().Error; err != nil {
		t.Fatal(err)
	}
	third := <-next
	if third.Outcome != idempotency.Started || third.ChangeRef != "f-1" {
		t.Fatalf("the takeover after the commit: %+v", third)
	}
	if got, ok := idempotency.RecordedChange(idempotency.WithRun(ctx, idempotency.Run{Scope: sc, Lease: third.Lease, ChangeRef: third.ChangeRef})); !ok || got != "f-1" {
		t.Fatalf("RecordedChange %q %v", got, ok)
	}

	// Its answer is a 5xx: the key stays, lapsed, and still names the change.
	if err := store.Abandon(ctx, sc, third.Lease); err != nil {
		t.Fatal(err)
	}
	fourth, err := store.Begin(ctx, sc, hash)
	if err != nil || fourth.Outcome != idempotency.Started || fourth.ChangeRef != "f-1" {
		t.Fatalf("after Abandon: %+v %v", fourth, err)
	}
	// Without a change recorded, Abandon frees the key.
	other := idempotency.Scope{Caller: "admin:1", Method: "POST", Route: "/r", Key: "k"}
	c, _ := store.Begin(ctx, other, hash)
	if err := store.Abandon(ctx, other, c.Lease); err != nil {
		t.Fatal(err)
	}
	var n int64
	db.Raw(`SELECT count(*) FROM idempotency_keys WHERE key = 'k'`).Scan(&n)
	if n != 0 {
		t.Fatalf("%d rows after Abandon", n)
	}
}
