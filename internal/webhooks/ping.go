package webhooks

import (
	"context"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// TestEventType is the type of the event POST /admin/webhooks/{id}/test
// sends. It goes to the one subscription only, whatever its events.
const TestEventType = "webhook.test"

// TestEventData is the data of a test event.
type TestEventData struct {
	WebhookID string `json:"webhookId"`
	Message   string `json:"message"`
}

// SendTest queues a webhook.test delivery to one subscription and returns
// the delivery's id; its attempts show in the delivery log like any other.
// The event is written as already dispatched, so no other subscription
// receives it. Errors: NOT_FOUND, CONFLICT (subscription disabled).
func (s *Subscriptions) SendTest(ctx context.Context, id uuid.UUID) (uuid.UUID, error) {
	sub, err := s.Get(ctx, id)
	if err != nil {
		return uuid.Nil, err
	}
	if !sub.IsActive {
		return uuid.Nil, apperr.New(apperr.Conflict, "webhook is disabled; enable it before testing")
	}
	now := time.Now().UTC()
	del := models.WebhookDelivery{ID: uuid.New(), SubscriptionID: sub.ID, EventType: TestEventType,
		Status: models.DeliveryPending, NextAttemptAt: now}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		data, err := jsonBytes(TestEventData{WebhookID: sub.ID.String(), Message: "Test delivery: your endpoint is reachable and can verify signatures."})
		if err != nil {
			return err
		}
		ev := models.Event{ID: uuid.New(), Type: TestEventType, Data: data, CreatedAt: now, DispatchedAt: &now}
		if err := tx.Create(&ev).Error; err != nil {
			return err
		}
		del.EventID = ev.ID
		return tx.Create(&del).Error
	})
	if err != nil {
		return uuid.Nil, fmt.Errorf("webhooks.send_test: %w", err)
	}
	task, opts := tasks.NewWebhookDeliveryTask(del.ID.String(), 1, timeZero)
	// Not queued now (Redis down): the sweep sends it within a few minutes.
	_ = tasks.Enqueue(ctx, s.queue, task, opts...)
	return del.ID, nil
}
