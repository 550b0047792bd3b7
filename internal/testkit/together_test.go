package testkit

import (
	"fmt"
	"testing"
	"time"
)

// recorder is a testing.TB that notes a failure instead of stopping.
type recorder struct {
	testing.TB
	failure string
}

func (r *recorder) Helper() {}

func (r *recorder) Fatalf(format string, args ...any) { r.failure = fmt.Sprintf(format, args...) }

// Calls that wait for each other ran at once and pass; calls that ran one
// after the other fail the test.
func TestTogetherFailsCallsThatDidNotOverlap(t *testing.T) {
	arrived := make(chan int, 2)
	both := make(chan struct{})
	if n := Together(t, 2, func(int) {
		if arrived <- 0; len(arrived) == 2 {
			close(both)
		}
		select {
		case <-both:
		case <-time.After(5 * time.Second):
		}
	}); n != 2 {
		t.Fatalf("two calls waiting for each other ran %d at once", n)
	}
	for _, c := range []struct {
		n, most int
		fails   bool
	}{{2, 1, true}, {10, 1, true}, {2, 2, false}, {10, 3, false}, {1, 1, false}} {
		rec := &recorder{TB: t}
		if requireOverlap(rec, c.n, c.most); (rec.failure != "") != c.fails {
			t.Errorf("%d calls, %d at once: failure %q", c.n, c.most, rec.failure)
		}
	}
}
