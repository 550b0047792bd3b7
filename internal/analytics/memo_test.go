package analytics

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Concurrent dashboards asking for the same range share one computation,
// and later ones within the TTL reuse its answer.
func TestReportMemoSharesOneComputation(t *testing.T) {
	m := newReportMemo[int](time.Hour)
	var calls atomic.Int32
	started, release := make(chan struct{}), make(chan struct{})
	compute := func(context.Context) (int, error) {
		if calls.Add(1) == 1 {
			close(started)
		}
		<-release
		return 42, nil
	}
	var wg sync.WaitGroup
	var wrong atomic.Int32
	for range 20 {
		wg.Go(func() {
			if v, err := m.get(t.Context(), "k", compute); err != nil || v != 42 {
				wrong.Add(1)
			}
		})
	}
	<-started
	close(release) // callers that come later find the kept report
	wg.Wait()
	if calls.Load() != 1 || wrong.Load() != 0 {
		t.Fatalf("%d computations, %d wrong answers; want 1 and 0", calls.Load(), wrong.Load())
	}
	if v, err := m.get(t.Context(), "other", func(context.Context) (int, error) { return 1, nil }); err != nil || v != 1 {
		t.Fatalf("another key: %d %v", v, err)
	}
}

// An error is not remembered, and an expired report is computed again.
func TestReportMemoForgetsErrorsAndExpired(t *testing.T) {
	m := newReportMemo[int](time.Nanosecond)
	boom := errors.New("boom")
	if _, err := m.get(t.Context(), "k", func(context.Context) (int, error) { return 0, boom }); !errors.Is(err, boom) {
		t.Fatalf("err %v", err)
	}
	n := 0
	for range 3 {
		if _, err := m.get(t.Context(), "k", func(context.Context) (int, error) { n++; return n, nil }); err != nil {
			t.Fatal(err)
		}
	}
	if n != 3 {
		t.Fatalf("expired reports computed %d times, want 3", n)
	}
}

// A caller that gives up (its request ended) gets its context's error, and
// the computation it started goes on for the others.
func TestReportMemoOutlivesTheFirstCaller(t *testing.T) {
	m := newReportMemo[int](time.Hour)
	started, release, firstDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
	gone, cancel := context.WithCancel(t.Context())
	var firstErr error
	go func() {
		defer close(firstDone)
		_, firstErr = m.get(gone, "k", func(ctx context.Context) (int, error) {
			close(started)
			<-release
			return 7, ctx.Err() // nil: the computation's context is not the caller's
		})
	}()
	<-started
	cancel()
	<-firstDone
	if !errors.Is(firstErr, context.Canceled) {
		t.Fatalf("first caller: %v", firstErr)
	}
	var second int
	var secondErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		second, secondErr = m.get(t.Context(), "k", func(context.Context) (int, error) { return -1, nil })
	}()
	close(release)
	<-done
	// Whether it joined the running computation or came after it, the
	// second caller gets its result, never a computation of its own.
	if secondErr != nil || second != 7 {
		t.Fatalf("second caller: %d %v", second, secondErr)
	}
}
