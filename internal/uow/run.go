package uow

import (
	"context"
	"errors"
	"log/slog"

	"github.com/gocommerce/shop/tasks"
	"gorm.io/gorm"
)

// Runner opens the units of one service: on its database, with its queue
// and logger for the work that follows a commit.
type Runner struct {
	db    *gorm.DB
	queue tasks.Enqueuer
	log   *slog.Logger
}

// NewRunner returns the runner of a service.
func NewRunner(db *gorm.DB, queue tasks.Enqueuer, log *slog.Logger) Runner {
	return Runner{db: db, queue: queue, log: log}
}

// Run opens a transaction, gives fn a unit on it, flushes what fn staged,
// commits, and then does the unit's after-commit work. An error from fn, or
// from the flush, rolls everything back and is returned as it is.
func (r Runner) Run(ctx context.Context, fn func(u *Unit) error) error {
	u := &Unit{ctx: ctx}
	err := r.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		u.tx = tx
		if err := fn(u); err != nil {
			return err
		}
		return u.Flush()
	})
	if err != nil {
		return err
	}
	for _, a := range u.after {
		a.run(ctx, r.queue, r.log)
	}
	return nil
}

// Within returns a unit staging into tx, a transaction its caller opened
// and commits (checkout's, which retries a deadlock as a whole). The
// caller flushes it before the commit. Such a unit takes no after-commit
// work: its Flush fails when a contribution named some
// (ErrNoAfterCommit), rather than lose it.
func Within(ctx context.Context, tx *gorm.DB) *Unit {
	return &Unit{ctx: ctx, tx: tx, joined: true}
}

// ErrNoAfterCommit is the error of flushing a unit Within a caller's
// transaction to which a contribution named after-commit work.
var ErrNoAfterCommit = errors.New("uow: a unit within a caller's transaction cannot run work after its commit")
