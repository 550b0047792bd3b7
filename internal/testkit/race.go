package testkit

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/database"
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

// HoldRow locks the row id of table (a name from the test's code, never
// input) of the database at dbURL in a transaction of its own, as a
// concurrent change would, and keeps it until waiters sessions of that
// database wait on a lock, or timeout passes. It uses connections of its
// own, so requests queue on Postgres locks, not on the app's pool. It
// returns at once; the returned func waits for the release and reports
// whether the waiters were seen. Requests run behind it meet at the row:
// each has done everything before its first write to it when the row is let
// go, and all of them were in flight at once.
func HoldRow(tb testing.TB, dbURL, table string, id any, waiters int, timeout time.Duration) (released func() bool) {
	tb.Helper()
	db, err := database.Open(context.Background(), dbURL, database.Options{MaxConns: 2})
	if err != nil {
		tb.Fatalf("testkit: hold %s: %v", table, err)
	}
	tx := db.Begin()
	if err := tx.Exec(`SELECT 1 FROM `+table+` WHERE id = ? FOR UPDATE`, id).Error; err != nil {
		tx.Rollback()
		database.Close(db)
		tb.Fatalf("testkit: hold %s %v: %v", table, id, err)
	}
	seen := make(chan bool, 1)
	go func() {
		defer database.Close(db)
		defer tx.Rollback()
		deadline := time.Now().Add(timeout)
		for time.Now().Before(deadline) {
			var n int
			if err := db.Raw(`SELECT count(*) FROM pg_stat_activity
				WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&n).Error; err == nil && n >= waiters {
				seen <- true
				return
			}
			time.Sleep(5 * time.Millisecond)
		}
		seen <- false
	}()
	return func() bool { return <-seen }
}
