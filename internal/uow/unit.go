// Package uow is the unit of work of a change that spans domains: the
// transaction, the statements staged to run in it as one, and the work to do
// once it has committed.
//
// The service that opens the transaction creates the unit (Runner.Run) and
// passes it by hand to every domain function that contributes to the
// change; nothing contributes through a context. A contribution is a
// function named Stage<What> taking the unit first (stock.StageShip,
// order.StageMoves, outbox.Stage, audit.Stage,
// invoice.StageFulfillmentInvoice, ...): it reads what it needs through Tx,
// stages its writes, and names the nudges its writes want after the commit
// (AfterCommit).
//
// Staged statements run as one database.Batch, whose rules every
// contribution follows (see its doc comment: one snapshot, no order, no row
// changed twice). A statement carries the values it was staged with: a
// model set after it was staged is not what is written, so a contribution
// stages a row once it is complete. A step that must read what an earlier
// one wrote, or change a row it changed, calls Flush between the two: that
// costs a round trip, so the hot paths (a fulfilment) flush once, at the
// commit.
package uow

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/tasks"
	"gorm.io/gorm"
)

// Unit is one change in progress: its transaction, the statements staged
// for it, and the nudges to queue once it commits.
type Unit struct {
	ctx   context.Context
	tx    *gorm.DB
	batch database.Batch
	// after is the work to do once the unit has committed, in the order
	// named, one per key.
	after []nudge
	// joined is set on a unit Within a caller's transaction.
	joined bool
}

// Nudge is work to do once a unit has committed, e.g. queueing the task that
// sends what it wrote (outbox.Nudge). It runs with the queue and logger of
// the service that opened the unit; a failure is for it to log, since the
// change has committed.
type Nudge func(ctx context.Context, q tasks.Enqueuer, log *slog.Logger)

type nudge struct {
	key string
	run Nudge
}

// Context is the context of the request or job the change serves, for
// tracing and cancellation.
func (u *Unit) Context() context.Context { return u.ctx }

// Tx is the unit's transaction, for reads and for statements whose answer
// the change needs at once (a conditional update whose row count decides).
// A read does not see what is staged and not yet flushed.
func (u *Unit) Tx() *gorm.DB { return u.tx }

// Add stages sql, a statement that changes rows no other part names (an
// insert of rows of no model, a delete), with its arguments.
func (u *Unit) Add(sql string, args ...any) { u.batch.Add(sql, args...) }

// Insert stages one insert of rows into table's columns (see
// database.Batch.Insert); one model's row is staged with Create.
func (u *Unit) Insert(table string, columns []string, rows ...[]any) {
	u.batch.Insert(table, columns, rows...)
}

// Create stages the insert of value, a model pointer (or pointer to a slice
// of models) whose primary key is set (see database.Batch.Create).
func (u *Unit) Create(value any) error { return u.batch.Create(u.tx, value) }

// Updates stages the update of columns of the row of model, a model pointer
// whose primary key is set (see database.Batch.Updates); a second change of
// that row before the next Flush fails the unit with database.ErrRowTwice.
func (u *Unit) Updates(model any, columns map[string]any) error {
	return u.batch.Updates(u.tx, model, columns)
}

// Update stages sql, an update of the row of table whose key is key, for a
// statement GORM cannot build (a conditional counter); a second change of
// that row before the next Flush fails the unit with database.ErrRowTwice.
func (u *Unit) Update(table string, key any, sql string, args ...any) {
	u.batch.Update(table, key, sql, args...)
}

// Len is the number of statements staged since the last Flush.
func (u *Unit) Len() int { return u.batch.Len() }

// SQL is the statement the next Flush sends when two or more are staged.
func (u *Unit) SQL() string { return u.batch.SQL() }

// Flush runs what is staged, as one statement, so that what follows reads
// it and may change its rows again. Errors: the failing part's,
// database.ErrRowTwice, ErrNoAfterCommit.
func (u *Unit) Flush() error {
	if u.joined && len(u.after) > 0 {
		return ErrNoAfterCommit
	}
	err := u.batch.Exec(u.tx)
	u.batch = database.Batch{}
	if err != nil {
		return fmt.Errorf("uow.flush: %w", err)
	}
	return nil
}

// AfterCommit names work to do once the unit has committed: the first
// nudge named key runs, later ones with that key do not (one outbox
// dispatch however many events were staged). Nothing runs when the unit
// rolls back.
func (u *Unit) AfterCommit(key string, n Nudge) {
	for _, a := range u.after {
		if a.key == key {
			return
		}
	}
	u.after = append(u.after, nudge{key: key, run: n})
}
