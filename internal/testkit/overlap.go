package testkit

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Concurrency tests prove that their requests raced: they start them
// behind a barrier (StartTogether) and, so that a fast request cannot
// finish before a slow one begins, hold a lock every request's transaction
// needs (MustHoldTableLock) until all of them wait on it inside their
// transactions (Overlap.WaitBlocked), then let them go at once. A test that
// reaches the release has shown that its requests overlapped.

// StartTogether runs f(0) ... f(n-1) in n goroutines released at one
// instant, once all of them are running, and returns a function that waits
// for them all to return.
func StartTogether(n int, f func(i int)) (wait func()) {
	var ready, done sync.WaitGroup
	barrier := make(chan struct{})
	ready.Add(n)
	done.Add(n)
	for i := 0; i < n; i++ {
		go func() {
			defer done.Done()
			ready.Done()
			<-barrier
			f(i)
		}()
	}
	ready.Wait()
	close(barrier)
	return done.Wait
}

// Overlap is a lock on a table of a test's database, held by a connection
// of its own (not one of the app's pool) until Release.
type Overlap struct {
	tb    testing.TB
	conn  *pgx.Conn
	tx    pgx.Tx
	table string
	once  sync.Once
}

// MustHoldTableLock takes `LOCK table IN EXCLUSIVE MODE` in a transaction on
// databaseURL: reads go on, and every insert, update or delete of table
// waits until Release (which tb's end calls too).
func MustHoldTableLock(tb testing.TB, databaseURL, table string) *Overlap {
	tb.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		tb.Fatalf("testkit: lock %s: %v", table, err)
	}
	tx, err := conn.Begin(ctx)
	if err == nil {
		_, err = tx.Exec(ctx, "LOCK TABLE "+pgx.Identifier{table}.Sanitize()+" IN EXCLUSIVE MODE")
	}
	if err != nil {
		conn.Close(ctx)
		tb.Fatalf("testkit: lock %s: %v", table, err)
	}
	o := &Overlap{tb: tb, conn: conn, tx: tx, table: table}
	tb.Cleanup(o.Release)
	return o
}

// WaitBlocked waits (up to 30 s) until n sessions of the database wait on a
// lock, on the table's or on one another's (a unique key another of them
// inserted first): all n are then inside their transactions at once. It
// fails tb, after releasing the lock, if they never are.
func (o *Overlap) WaitBlocked(n int) {
	o.tb.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var blocked int
	for {
		// The lock's transaction would see one snapshot of the activity
		// statistics all along: clear it for each look.
		_, err := o.tx.Exec(context.Background(), `SELECT pg_stat_clear_snapshot()`)
		if err == nil {
			err = o.tx.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> pg_backend_pid() AND cardinality(pg_blocking_pids(pid)) > 0`).
				Scan(&blocked)
		}
		if err != nil {
			o.Release()
			o.tb.Fatalf("testkit: blocked sessions: %v", err)
		}
		if blocked >= n {
			return
		}
		if time.Now().After(deadline) {
			o.Release()
			o.tb.Fatalf("testkit: %d of %d requests waited on %s at once: they did not overlap", blocked, n, o.table)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Release ends the lock's transaction and closes its connection; the
// waiting transactions go on at once. Calling it again does nothing.
func (o *Overlap) Release() {
	o.once.Do(func() {
		ctx := context.Background()
		_ = o.tx.Rollback(ctx)
		_ = o.conn.Close(ctx)
	})
}
