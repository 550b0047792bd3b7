package testkit

import (
	"sync"
	"sync/atomic"
	"testing"
)

// Together calls fn(0), …, fn(n-1) in n goroutines held behind a barrier
// until every one is ready, then released at once, and waits for them. It
// fails tb unless at least two calls were running at the same moment: a
// concurrency test whose calls happened to run one after the other proves
// nothing, and must not pass. It returns how many ran at once at most.
func Together(tb testing.TB, n int, fn func(i int)) int {
	tb.Helper()
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	var running, most atomic.Int32
	for i := range n {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			ready.Done()
			<-start
			now := running.Add(1)
			for {
				m := most.Load()
				if now <= m || most.CompareAndSwap(m, now) {
					break
				}
			}
			defer running.Add(-1)
			fn(i)
		}()
	}
	ready.Wait()
	close(start)
	done.Wait()
	requireOverlap(tb, n, int(most.Load()))
	return int(most.Load())
}

// requireOverlap fails tb when n calls ran at most most at once and that
// is one.
func requireOverlap(tb testing.TB, n, most int) {
	tb.Helper()
	if n > 1 && most < 2 {
		tb.Fatalf("testkit: the %d concurrent calls ran one after the other; nothing was tested", n)
	}
}
