// Package retention deletes what the service no longer needs once it is
// older than the retention period (DATA_RETENTION_DAYS): dispatched events
// with their finished webhook deliveries and attempt logs, abandoned guest
// carts, and security emails to administrators once sent. Orders, payments, refunds, customers and the audit log are
// never pruned; spent claim tokens and expired admin sessions go sooner,
// with the nightly reconcile.
package retention

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// Report counts the rows deleted by one run.
type Report struct {
	Events      int64 `json:"events"`
	GuestCarts  int64 `json:"guestCarts"`
	AdminEmails int64 `json:"adminEmails"`
}

// batch bounds one DELETE, so a first run over a large backlog never holds
// its locks (or the cascades' locks) for long.
const batch = 1000

// prunes are the deletions, each selecting at most batch ids of rows last
// touched before @before. An event goes only when no delivery of it is
// still pending (its deliveries and attempts go with it, by cascade); a
// guest cart only when no checkout session refers to it and neither it nor
// a line of it changed since @before.
var prunes = []struct {
	name, table, ids string
}{
	{"events", "events", `SELECT e.id FROM events e
		WHERE e.dispatched_at < @before
		  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.id AND d.status = 'pending')
		LIMIT @batch`},
	{"guest_carts", "carts", `SELECT c.id FROM carts c
		WHERE c.customer_id IS NULL AND c.locked_by IS NULL AND c.updated_at < @before
		  AND NOT EXISTS (SELECT 1 FROM checkout_sessions s WHERE s.cart_id = c.id)
		  AND NOT EXISTS (SELECT 1 FROM cart_items i WHERE i.cart_id = c.id AND i.updated_at >= @before)
		LIMIT @batch`},
	// A sent email's (kind, ref) marker is only needed while its event can
	// recur, which is minutes (a lockout window), not months.
	{"admin_emails", "admin_emails", `SELECT id FROM admin_emails
		WHERE sent_at < @before
		LIMIT @batch`},
}

// Prune deletes what was last touched before before, in batches.
func Prune(ctx context.Context, db *gorm.DB, before time.Time) (Report, error) {
	var r Report
	counts := []*int64{&r.Events, &r.GuestCarts, &r.AdminEmails}
	for i, p := range prunes {
		for {
			res := db.WithContext(ctx).Exec(`DELETE FROM `+p.table+` WHERE id IN (`+p.ids+`)`,
				map[string]any{"before": before.UTC(), "batch": batch})
			if res.Error != nil {
				return r, fmt.Errorf("retention.%s: %w", p.name, res.Error)
			}
			*counts[i] += res.RowsAffected
			if res.RowsAffected < batch {
				break
			}
		}
	}
	return r, nil
}
