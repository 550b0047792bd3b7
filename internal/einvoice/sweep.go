package einvoice

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
)

// sweepAfter is how long a pending report or e-way bill waits for the task
// its commit queued before the sweep queues it again.
const sweepAfter = 5 * time.Minute

// Sweep queues again the pending reports and e-way bills untouched for
// sweepAfter (their nudge lost with Redis down, or their retries spent
// while the portal was down), at most 1000 of each a tick.
func (s *Service) Sweep(ctx context.Context, tick time.Time) error {
	before := s.now().Add(-sweepAfter)
	key := "sweep:" + tick.UTC().Format(time.RFC3339)
	var docs []uuid.UUID
	var bills []struct{ FulfillmentID, TransferID *uuid.UUID }
	if err := s.db.WithContext(ctx).Raw(`SELECT document_id FROM einvoices WHERE status = 'pending' AND updated_at < ?
		ORDER BY issued_at LIMIT 1000`, before).Scan(&docs).Error; err != nil {
		return fmt.Errorf("einvoice.sweep: %w", err)
	}
	if err := s.db.WithContext(ctx).Raw(`SELECT fulfillment_id, transfer_id FROM eway_bills WHERE status = 'pending' AND updated_at < ?
		ORDER BY created_at LIMIT 1000`, before).Scan(&bills).Error; err != nil {
		return fmt.Errorf("einvoice.sweep: %w", err)
	}
	for _, id := range docs {
		t, opts := tasks.NewEInvoiceTask(id.String(), key)
		if err := tasks.Enqueue(ctx, s.queue, t, opts...); err != nil {
			return fmt.Errorf("einvoice.sweep: %w", err)
		}
	}
	for _, b := range bills {
		o := transferOwner
		if b.FulfillmentID != nil {
			o = fulfillmentBill(*b.FulfillmentID)
		} else if b.TransferID != nil {
			o.id = *b.TransferID
		}
		t, opts := o.task(key)
		if err := tasks.Enqueue(ctx, s.queue, t, opts...); err != nil {
			return fmt.Errorf("einvoice.sweep: %w", err)
		}
	}
	return nil
}
