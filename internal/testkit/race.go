package testkit

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// Race runs call(0) … call(n-1) at once and reports how many of them were
// in flight at the same moment. Every call waits behind one barrier, opened
// once all n goroutines are ready, and is timed from just before it starts
// to just after it returns. Race fails tb unless at least two calls
// overlapped: a concurrency test whose requests happened to run one after
// another proves nothing, and must not pass.
func Race(tb testing.TB, n int, call func(i int)) int {
	tb.Helper()
	if n < 2 {
		tb.Fatalf("testkit: Race needs at least 2 calls, got %d", n)
	}
	type span struct{ start, end time.Time }
	spans := make([]span, n)
	var ready, done sync.WaitGroup
	barrier := make(chan struct{})
	for i := range n {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			ready.Done()
			<-barrier
			spans[i].start = time.Now()
			defer func() { spans[i].end = time.Now() }()
			call(i)
		}()
	}
	ready.Wait()
	close(barrier)
	done.Wait()

	// The most calls in flight at one moment: sweep the starts and ends in
	// time order (an end at the same instant as a start counts first).
	type edge struct {
		at    time.Time
		delta int
	}
	edges := make([]edge, 0, 2*n)
	for _, s := range spans {
		edges = append(edges, edge{s.start, +1}, edge{s.end, -1})
	}
	slices.SortFunc(edges, func(a, b edge) int {
		if c := a.at.Compare(b.at); c != 0 {
			return c
		}
		return a.delta - b.delta
	})
	most, now := 0, 0
	for _, e := range edges {
		now += e.delta
		most = max(most, now)
	}
	if most < 2 {
		tb.Fatalf("testkit: the %d calls ran one after another, never two at once: the race was not run", n)
	}
	return most
}
