package webhooks

import (
	"context"
	"encoding/json"

	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// DeliveryLog is a delivery with its attempts, oldest attempt first.
type DeliveryLog struct {
	models.WebhookDelivery
	AttemptLog []models.WebhookDeliveryAttempt
}

// Deliveries returns a page of a subscription's deliveries, newest first,
// each with its attempts (two queries, not one per delivery), and the total.
// status filters when not empty. Errors: NOT_FOUND.
func (s *Subscriptions) Deliveries(ctx context.Context, id uuid.UUID, status string, w paging.Window) ([]DeliveryLog, int64, error) {
	limit, offset := w.Limit, w.Offset
	if _, err := s.Get(ctx, id); err != nil {
		return nil, 0, err
	}
	q := s.db.WithContext(ctx).Model(&models.WebhookDelivery{}).Where("subscription_id = ?", id)
	if status != "" {
		q = q.Where("status = ?", status)
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, database.Translate(err, "webhook")
	}
	var dels []models.WebhookDelivery
	if err := q.Order("created_at DESC, id DESC").Offset(offset).Limit(limit).Find(&dels).Error; err != nil {
		return nil, 0, database.Translate(err, "webhook")
	}
	out := make([]DeliveryLog, len(dels))
	if len(dels) == 0 {
		return out, total, nil
	}
	ids := make([]uuid.UUID, len(dels))
	index := map[uuid.UUID]int{}
	for i, d := range dels {
		ids[i], index[d.ID] = d.ID, i
		out[i] = DeliveryLog{WebhookDelivery: d, AttemptLog: []models.WebhookDeliveryAttempt{}}
	}
	var attempts []models.WebhookDeliveryAttempt
	if err := s.db.WithContext(ctx).Where("delivery_id IN ?", ids).Order("delivery_id, attempt").Find(&attempts).Error; err != nil {
		return nil, 0, database.Translate(err, "webhook")
	}
	for _, a := range attempts {
		i := index[a.DeliveryID]
		out[i].AttemptLog = append(out[i].AttemptLog, a)
	}
	return out, total, nil
}

func jsonBytes(v any) ([]byte, error) { return json.Marshal(v) }
