package uow_test

import (
	"context"
	"errors"
	"log/slog"
	"testing"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/tasks"
)

type counter struct {
	ID int `gorm:"primaryKey;autoIncrement:false"`
	N  int
}

func mustCounters(t *testing.T) uow.Runner {
	t.Helper()
	db, _ := testkit.MustDB(t)
	if err := db.Exec(`CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL)`).Error; err != nil {
		t.Fatal(err)
	}
	if err := db.Exec(`INSERT INTO counters (id, n) VALUES (1, 0), (2, 0)`).Error; err != nil {
		t.Fatal(err)
	}
	return uow.NewRunner(db, nil, slog.Default())
}

// The batch's rule that no two parts change one row is enforced when they
// are staged: two updates of a row, or a create and an update of it, fail
// the unit with ErrRowTwice and nothing of it lands; rows of other tables
// or keys, and a row changed again after a Flush, are fine.
func TestUnitRefusesARowChangedTwice(t *testing.T) {
	t.Parallel()
	run := mustCounters(t)
	ctx := context.Background()
	cases := []struct {
		name  string
		stage func(u *uow.Unit) error
		twice bool
	}{
		{"two updates of one row", func(u *uow.Unit) error {
			u.Update("counters", 1, `UPDATE counters SET n = n + 1 WHERE id = ?`, 1)
			u.Update("counters", 1, `UPDATE counters SET n = n + 2 WHERE id = ?`, 1)
			return nil
		}, true},
		{"a create and an update of one row", func(u *uow.Unit) error {
			if err := u.Create(&counter{ID: 3, N: 1}); err != nil {
				return err
			}
			u.Update("counters", 3, `UPDATE counters SET n = n + 1 WHERE id = ?`, 3)
			return nil
		}, true},
		{"an update GORM builds and a written-out one of one row", func(u *uow.Unit) error {
			if err := u.Updates(&counter{ID: 2}, map[string]any{"n": 9}); err != nil {
				return err
			}
			u.Update("counters", 2, `UPDATE counters SET n = n + 1 WHERE id = ?`, 2)
			return nil
		}, true},
		{"updates of two rows", func(u *uow.Unit) error {
			u.Update("counters", 1, `UPDATE counters SET n = n + 1 WHERE id = ?`, 1)
			u.Update("counters", 2, `UPDATE counters SET n = n + 1 WHERE id = ?`, 2)
			return nil
		}, false},
		{"a row changed again after a flush", func(u *uow.Unit) error {
			u.Update("counters", 1, `UPDATE counters SET n = n + 1 WHERE id = ?`, 1)
			if err := u.Flush(); err != nil {
				return err
			}
			u.Update("counters", 1, `UPDATE counters SET n = n + 1 WHERE id = ?`, 1)
			return nil
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var before []counter
			if err := run.Run(ctx, func(u *uow.Unit) error { return u.Tx().Order("id").Find(&before).Error }); err != nil {
				t.Fatal(err)
			}
			err := run.Run(ctx, tc.stage)
			if got := errors.Is(err, database.ErrRowTwice); got != tc.twice {
				t.Fatalf("err = %v, refused = %v, want %v", err, got, tc.twice)
			}
			var after []counter
			if err := run.Run(ctx, func(u *uow.Unit) error { return u.Tx().Order("id").Find(&after).Error }); err != nil {
				t.Fatal(err)
			}
			if tc.twice && len(after) != len(before) {
				t.Fatalf("rows %v after a refused unit, want %v", after, before)
			}
			if tc.twice {
				for i := range before {
					if after[i] != before[i] {
						t.Fatalf("row %d = %+v after a refused unit, want %+v", i, after[i], before[i])
					}
				}
			}
		})
	}
}

// What a unit stages is not read back before a Flush (one snapshot), and
// is after it.
func TestUnitFlushMakesStagedRowsReadable(t *testing.T) {
	t.Parallel()
	run := mustCounters(t)
	err := run.Run(context.Background(), func(u *uow.Unit) error {
		u.Update("counters", 1, `UPDATE counters SET n = 5 WHERE id = ?`, 1)
		var n int
		if err := u.Tx().Raw(`SELECT n FROM counters WHERE id = 1`).Scan(&n).Error; err != nil || n != 0 {
			t.Errorf("before the flush n = %d (%v), want 0", n, err)
		}
		if err := u.Flush(); err != nil {
			return err
		}
		if err := u.Tx().Raw(`SELECT n FROM counters WHERE id = 1`).Scan(&n).Error; err != nil || n != 5 {
			t.Errorf("after the flush n = %d (%v), want 5", n, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// After-commit work runs once per key, in the order named, and only when
// the unit commits.
func TestUnitRunsAfterCommitWorkOnceItCommitted(t *testing.T) {
	t.Parallel()
	run := mustCounters(t)
	var ran []string
	nudge := func(name string) uow.Nudge {
		return func(context.Context, tasks.Enqueuer, *slog.Logger) { ran = append(ran, name) }
	}
	err := run.Run(context.Background(), func(u *uow.Unit) error {
		u.AfterCommit("outbox", nudge("outbox 1"))
		u.AfterCommit("emails", nudge("emails"))
		u.AfterCommit("outbox", nudge("outbox 2"))
		u.Update("counters", 1, `UPDATE counters SET n = n + 1 WHERE id = ?`, 1)
		if len(ran) != 0 {
			t.Errorf("ran %v before the commit", ran)
		}
		return nil
	})
	if err != nil || len(ran) != 2 || ran[0] != "outbox 1" || ran[1] != "emails" {
		t.Fatalf("ran %v (%v), want [outbox 1 emails]", ran, err)
	}

	ran = nil
	failed := errors.New("refused")
	err = run.Run(context.Background(), func(u *uow.Unit) error {
		u.AfterCommit("outbox", nudge("outbox"))
		return failed
	})
	if !errors.Is(err, failed) || len(ran) != 0 {
		t.Fatalf("a rolled back unit: err %v, ran %v", err, ran)
	}
}

// A unit within a caller's transaction flushes into it, and refuses work
// after a commit it does not make rather than lose it.
func TestUnitWithinACallersTransaction(t *testing.T) {
	t.Parallel()
	db, _ := testkit.MustDB(t)
	if err := db.Exec(`CREATE TABLE counters (id int PRIMARY KEY, n int NOT NULL)`).Error; err != nil {
		t.Fatal(err)
	}
	tx := db.Begin()
	defer tx.Rollback()
	u := uow.Within(context.Background(), tx)
	if err := u.Create(&counter{ID: 1, N: 7}); err != nil {
		t.Fatal(err)
	}
	if err := u.Flush(); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := tx.Raw(`SELECT n FROM counters WHERE id = 1`).Scan(&n).Error; err != nil || n != 7 {
		t.Fatalf("n = %d (%v), want 7", n, err)
	}
	u.AfterCommit("outbox", func(context.Context, tasks.Enqueuer, *slog.Logger) {})
	if err := u.Flush(); !errors.Is(err, uow.ErrNoAfterCommit) {
		t.Fatalf("flush with after-commit work: %v", err)
	}
}
