package main

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A warmed-up run sends every item at most once, warm-up included, and
// counts only the answers to requests sent after measuring was called.
func TestOnceRunWarmsUpWithoutCountingOrReusing(t *testing.T) {
	var (
		mu       sync.Mutex
		seen     = map[string]int{}
		measured atomic.Int64
		started  atomic.Bool
	)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen[r.URL.Query().Get("i")]++
		mu.Unlock()
		if started.Load() {
			measured.Add(1)
		}
		time.Sleep(time.Millisecond)
		w.WriteHeader(http.StatusCreated)
	}))
	defer srv.Close()
	calls := 0
	r, err := onceRun{name: "items", conns: 4, items: 100000, until: 150 * time.Millisecond, warmup: 100 * time.Millisecond,
		measuring: func() { calls++; started.Store(true) },
		request: func(i int) *http.Request {
			req, _ := http.NewRequest(http.MethodPost, srv.URL+"/?i="+strconv.Itoa(i), nil)
			return req
		},
		accepted: func(status int, _ []byte) bool { return status == http.StatusCreated },
	}.run()
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range seen {
		if n != 1 {
			t.Fatalf("item %s sent %d times", i, n)
		}
	}
	if calls != 1 {
		t.Fatalf("measuring called %d times, want once", calls)
	}
	if r.Requests == 0 || int64(r.Requests) != measured.Load() || r.Requests >= len(seen) {
		t.Fatalf("counted %d requests; %d were sent after the warm-up, %d in all", r.Requests, measured.Load(), len(seen))
	}
}
