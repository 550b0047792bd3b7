package mail

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// Outbox sends the emails a service wrote as rows, in the transaction of the
// change they report, to one of the email tables (admin_emails,
// customer_emails: an id, a kind, created_at and sent_at). A post-commit
// nudge and the scheduler's sweep run SendPending; it sends each row once
// and marks it sent.
type Outbox struct {
	db     *gorm.DB
	sender Sender
	name   string
	table  string
	kinds  []string
	render Renderer
}

// Renderer renders the email of row id, read in tx (which holds the row).
type Renderer func(tx *gorm.DB, id string) (Message, error)

// Email tables an Outbox sends from.
const (
	AdminEmails    = "admin_emails"
	CustomerEmails = "customer_emails"
)

// outboxBatch bounds one run; the rest waits for the next.
const outboxBatch = 50

// NewOutbox returns the outbox of the rows of table whose kind is one of
// kinds, rendered by render and sent through sender; name prefixes its
// errors.
func NewOutbox(db *gorm.DB, sender Sender, name, table string, kinds []string, render Renderer) *Outbox {
	if table != AdminEmails && table != CustomerEmails {
		panic("mail: no email table " + table)
	}
	return &Outbox{db: db, sender: sender, name: name, table: table, kinds: kinds, render: render}
}

// SendPending sends the unsent emails, oldest first (at most 50 a run), and
// returns how many went out. Each is sent inside a transaction that holds
// its row FOR UPDATE SKIP LOCKED and marks it sent, so concurrent runs never
// send one twice; a crash between sending and the commit may repeat one,
// never lose one. A failed email does not hold up the others; the run
// returns the failures joined (the task is retried, and the sweep tries
// again).
func (o *Outbox) SendPending(ctx context.Context) (int, error) {
	var ids []string
	if err := o.db.WithContext(ctx).Table(o.table).Where("sent_at IS NULL AND kind IN ?", o.kinds).
		Order("created_at").Limit(outboxBatch).Pluck("id", &ids).Error; err != nil {
		return 0, fmt.Errorf("%s: %w", o.name, err)
	}
	sent := 0
	var errs []error
	for _, id := range ids {
		ok, err := o.sendOne(ctx, id)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %s: %w", o.name, id, err))
		}
		if ok {
			sent++
		}
	}
	return sent, errors.Join(errs...)
}

// sendOne sends email id unless another run holds it or it was sent.
func (o *Outbox) sendOne(ctx context.Context, id string) (bool, error) {
	sent := false
	err := o.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var held []string
		if err := tx.Raw(`SELECT id FROM `+o.table+` WHERE id = ? AND sent_at IS NULL FOR UPDATE SKIP LOCKED`, id).
			Scan(&held).Error; err != nil || len(held) == 0 {
			return err
		}
		msg, err := o.render(tx, id)
		if err != nil {
			return err
		}
		if err := o.sender.Send(ctx, msg); err != nil {
			return err
		}
		sent = true
		return tx.Exec(`UPDATE `+o.table+` SET sent_at = ? WHERE id = ?`, time.Now().UTC(), id).Error
	})
	return sent, err
}
