package order

import (
	"context"
	"fmt"
	"strings"

	"gorm.io/gorm"
)

// Compacted is what one CompactCounters run changed.
type Compacted struct {
	// Folded is how many counter rows were added into another row of their
	// key and deleted.
	Folded int64
	// Emptied is how many rows counting nothing (n = 0) were deleted.
	Emptied int64
}

// counterTables are the order counters (migrations 00011, 00019, 00068) and the
// columns of their keys.
var counterTables = []struct {
	table string
	key   []string
}{
	{"order_day_counts", []string{"day", "status"}},
	{"order_counts", []string{"status"}},
	{"order_payment_counts", []string{"payment_method", "payment_status"}},
}

// CompactCounters folds every counter key's rows into one and deletes rows
// that count nothing. A writer that finds every row of its key held adds a
// new one (migration 00019), so without this a key keeps as many rows as it
// ever had writers at once, and every count, deep page and rollup reads
// them all: under a benchmark's concurrent fulfilments the day counters
// grew to about twice the rows they need (the count is in
// docs/BENCHMARKS.md, "Figures behind code comments"). Sums are
// unchanged, in every snapshot: a key's rows are deleted and its kept row
// raised in one statement.
//
// It never waits for a writer: it takes only rows no other transaction
// holds (FOR UPDATE SKIP LOCKED), and writers skip the rows it holds, so it
// can run at any time (the scheduler runs it every minute). lock_timeout is
// a second guard: waiting would be a bug, answered with an error, not a
// stalled checkout.
func CompactCounters(ctx context.Context, db *gorm.DB) (Compacted, error) {
	var out Compacted
	err := db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Exec("SET LOCAL lock_timeout = '1s'").Error; err != nil {
			return err
		}
		for _, t := range counterTables {
			var folded, emptied int64
			if err := tx.Raw(foldSQL(t.table, t.key)).Scan(&folded).Error; err != nil {
				return fmt.Errorf("%s: fold: %w", t.table, err)
			}
			if err := tx.Raw(emptySQL(t.table, t.key)).Scan(&emptied).Error; err != nil {
				return fmt.Errorf("%s: empty: %w", t.table, err)
			}
			out.Folded, out.Emptied = out.Folded+folded, out.Emptied+emptied
		}
		return nil
	})
	if err != nil {
		return Compacted{}, fmt.Errorf("order.compact counters: %w", err)
	}
	return out, nil
}

// foldSQL deletes, of each key of table with more than one row, the rows
// this transaction could take but the lowest shard, and adds them to that
// one; it returns how many it deleted. The kept row is held too, so no
// writer changes it meanwhile, and a writer's row that was changed since
// the statement's snapshot is deleted or raised as it is now (READ
// COMMITTED re-reads a row another transaction changed before acting on
// it), so no increment is lost.
func foldSQL(table string, key []string) string {
	k := strings.Join(key, ", ")
	return fmt.Sprintf(`WITH held AS (
			SELECT %[2]s, shard FROM %[1]s
			WHERE (%[2]s) IN (SELECT %[2]s FROM %[1]s GROUP BY %[2]s HAVING count(*) > 1)
			FOR UPDATE SKIP LOCKED),
		keep AS (SELECT DISTINCT ON (%[2]s) %[2]s, shard FROM held ORDER BY %[2]s, shard),
		gone AS (
			DELETE FROM %[1]s c USING held h
			WHERE %[3]s AND NOT EXISTS (SELECT 1 FROM keep k WHERE %[4]s)
			RETURNING %[5]s, c.n),
		raised AS (
			UPDATE %[1]s c SET n = c.n + g.n
			FROM (SELECT %[2]s, sum(n) AS n FROM gone GROUP BY %[2]s) g JOIN keep k USING (%[2]s)
			WHERE %[6]s)
		SELECT count(*) FROM gone`,
		table, k, same("c", "h", key), same("k", "h", key), columns("c", key), same("c", "k", key))
}

// emptySQL deletes the rows of table that count nothing and no other
// transaction holds, and returns how many. A key left without rows counts
// zero; its next writer inserts one.
func emptySQL(table string, key []string) string {
	return fmt.Sprintf(`WITH gone AS (
			DELETE FROM %[1]s c USING (SELECT %[2]s, shard FROM %[1]s WHERE n = 0 FOR UPDATE SKIP LOCKED) z
			WHERE %[3]s AND c.n = 0
			RETURNING 1)
		SELECT count(*) FROM gone`, table, strings.Join(key, ", "), same("c", "z", key))
}

// same is the condition that rows a and b have the same key and shard.
func same(a, b string, key []string) string {
	conds := []string{a + ".shard = " + b + ".shard"}
	for _, c := range key {
		conds = append(conds, a+"."+c+" = "+b+"."+c)
	}
	return strings.Join(conds, " AND ")
}

// columns is key's columns of row a.
func columns(a string, key []string) string {
	out := make([]string, len(key))
	for i, c := range key {
		out[i] = a + "." + c
	}
	return strings.Join(out, ", ")
}
