package audit

import (
	"fmt"

	"github.com/gocommerce/shop/internal/uow"
	"github.com/google/uuid"
)

// Pending is the audit entry of an administrator's request in progress. The
// admin guard opens it before the handler runs; the handler may add
// metadata and hands it, in the request's Actor, to the service, which
// stages it in the unit of work of the request's change (Stage), so the
// entry commits, or rolls back, with the change and costs no commit of its
// own. The guard writes an entry no change staged once the handler has
// succeeded (Record).
type Pending struct {
	Entry
	staged bool
}

// Actor is who makes a change: the administrator (uuid.Nil: the shop itself,
// a worker or reconcile) and the audit entry of their request (nil: none),
// which the service that opens the change stages with it.
type Actor struct {
	AdminID uuid.UUID
	Audit   *Pending
}

// Staged reports whether a change carries the entry.
func (p *Pending) Staged() bool { return p.staged }

// Stage stages the insert of entry p in u, once per request: the first
// change to stage it carries it, and a nil entry (a worker, a seeder) adds
// nothing. entityID names the entity when the entry has none yet (a
// create, whose id the route's path cannot hold). The entry is taken as it
// is now: a handler adds its metadata before it calls the service.
func Stage(u *uow.Unit, p *Pending, entityID string) error {
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
	if err := u.Create(&row); err != nil {
		return fmt.Errorf("audit.stage: %w", err)
	}
	p.staged = true
	return nil
}
