package shipment

import (
	"context"
	"fmt"

	"github.com/gocommerce/shop/internal/courier"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// queueBatch is how many bookings one transaction of QueueBookings takes.
const queueBatch = 500

// QueueBookings queues the booking task (TypeCourierBook) of each shipment
// staged pending and not queued yet (StageBooking), oldest first, and
// records it queued; the outbox's dispatch calls it, so a booking is
// queued like an event: by the nudge after the fulfilment's commit, or by
// the scheduler's dispatch two seconds later when the nudge was lost. Rows
// are taken with SKIP LOCKED, so concurrent dispatches share them; a
// dispatch that dies after queueing and before recording queues them
// again, which the task's one id per fulfilment makes a no-op. It returns
// how many it queued; without a courier it queues nothing. A backlog (the
// worker was down) is queued in batches, all in this one call.
func (s *Service) QueueBookings(ctx context.Context) (int, error) {
	if !s.Configured() {
		return 0, nil
	}
	total := 0
	for {
		n, err := s.queueBookings(ctx)
		total += n
		if err != nil || n < queueBatch {
			return total, err
		}
	}
}

// queueBookings queues one batch of QueueBookings.
func (s *Service) queueBookings(ctx context.Context) (int, error) {
	queued := 0
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var ids []uuid.UUID
		if err := tx.Model(&models.Shipment{}).Clauses(clause.Locking{Strength: "UPDATE", Options: "SKIP LOCKED"}).
			Where("status = ? AND booking_queued_at IS NULL", courier.StatusPending).
			Order("created_at").Limit(queueBatch).Pluck("fulfillment_id", &ids).Error; err != nil {
			return err
		}
		done := make([]uuid.UUID, 0, len(ids))
		for _, id := range ids {
			task, opts := tasks.NewCourierBookTask(id.String())
			if err := tasks.Enqueue(ctx, s.queue, task, opts...); err != nil {
				// Keep what was queued; the rest waits for the next dispatch.
				if len(done) == 0 {
					return err
				}
				break
			}
			done = append(done, id)
		}
		if len(done) == 0 {
			return nil
		}
		queued = len(done)
		return tx.Model(&models.Shipment{}).Where("fulfillment_id IN ?", done).
			Update("booking_queued_at", s.now()).Error
	})
	if err != nil {
		return 0, fmt.Errorf("shipment.queue_bookings: %w", err)
	}
	return queued, nil
}
