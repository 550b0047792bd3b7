package audit

import (
	"context"

	"github.com/gocommerce/shop/internal/database"
)

// Pending is the audit entry of an administrator's request in progress. The
// admin guard opens it before the handler runs and puts it in the request's
// context. A service that writes the request's change as a database.Batch
// stages the entry in that batch (Stage), so the entry commits, or rolls
// back, with the change and costs no commit of its own; the guard writes
// the entries no change staged once the handler has succeeded (Record).
type Pending struct {
	Entry
	staged bool
}

type pendingKey struct{}

// WithPending returns ctx carrying p.
func WithPending(ctx context.Context, p *Pending) context.Context {
	return context.WithValue(ctx, pendingKey{}, p)
}

// PendingOf returns the entry ctx carries, or nil.
func PendingOf(ctx context.Context) *Pending {
	p, _ := ctx.Value(pendingKey{}).(*Pending)
	return p
}

// Staged reports whether a change carries the entry.
func (p *Pending) Staged() bool { return p.staged }

// auditColumns are the columns Stage writes (the id is the table's default).
var auditColumns = []string{"admin_id", "action", "entity_id", "metadata", "ip_address", "user_agent", "created_at"}

// Stage adds the insert of ctx's pending entry to b, once per request: the
// first change to stage it carries it, and a context without one (a worker,
// a seeder) adds nothing. entityID names the entity when the entry has none
// yet (a create, whose id the route's path cannot hold). The entry is taken
// as it is now: a handler adds its metadata before it calls the service.
func Stage(ctx context.Context, b *database.Batch, entityID string) error {
	p := PendingOf(ctx)
	if p == nil || p.staged {
		return nil
	}
	if p.EntityID == "" {
		p.EntityID = entityID
	}
	row, err := p.row()
	if err != nil {
		return err
	}
	b.Insert("admin_audit_logs", auditColumns,
		[]any{row.AdminID, row.Action, row.EntityID, row.Metadata, row.IPAddress, row.UserAgent, row.CreatedAt})
	p.staged = true
	return nil
}
