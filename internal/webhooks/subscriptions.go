package webhooks

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gocommerce/shop/internal/idempotency"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/paging"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Subscriptions manages webhook subscriptions.
type Subscriptions struct {
	db    *gorm.DB
	queue tasks.Enqueuer
	guard Guard
}

// NewSubscriptions returns the service; guard vets target URLs.
func NewSubscriptions(db *gorm.DB, q tasks.Enqueuer, guard Guard) *Subscriptions {
	return &Subscriptions{db: db, queue: q, guard: guard}
}

// CreateInput is a new subscription. Secret is generated when nil;
// IsActive defaults to true.
type CreateInput struct {
	URL         string
	Events      []string
	Secret      *string
	Description string
	IsActive    *bool
}

// Create registers a subscription and returns it with its secret (the only
// time the secret is shown). A keyed request retried after its process
// died answers with the subscription it made, secret and all: that
// caller's first answer, which carried it, was never sent (idempotency.RecordedRow).
// Errors: VALIDATION_ERROR (url, events, secret).
func (s *Subscriptions) Create(ctx context.Context, in CreateInput) (*models.WebhookSubscription, error) {
	if id, ok := idempotency.RecordedRow(ctx); ok {
		return s.Get(ctx, id)
	}
	sub := &models.WebhookSubscription{ID: uuid.New(), Description: strings.TrimSpace(in.Description), IsActive: true}
	if err := s.guard.CheckURL(ctx, in.URL); err != nil {
		return nil, err
	}
	sub.URL = in.URL
	events, err := validEvents(in.Events)
	if err != nil {
		return nil, err
	}
	sub.Events = events
	sub.Secret = NewSecret()
	if in.Secret != nil {
		if _, err := SecretKey(*in.Secret); err != nil {
			return nil, err
		}
		sub.Secret = *in.Secret
	}
	if in.IsActive != nil {
		sub.IsActive = *in.IsActive
	}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Create(sub).Error; err != nil {
			return err
		}
		return idempotency.RecordRow(ctx, tx, sub.ID)
	})
	if err != nil {
		return nil, database.Translate(err, "webhook")
	}
	// Read back, so that its times are as stored, as a retry reads them.
	return s.Get(ctx, sub.ID)
}

// Get returns a subscription. Errors: NOT_FOUND.
func (s *Subscriptions) Get(ctx context.Context, id uuid.UUID) (*models.WebhookSubscription, error) {
	var sub models.WebhookSubscription
	if err := s.db.WithContext(ctx).Take(&sub, "id = ?", id).Error; err != nil {
		return nil, database.Translate(err, "webhook")
	}
	return &sub, nil
}

// List returns a page of subscriptions, newest first, and the total.
func (s *Subscriptions) List(ctx context.Context, w paging.Window) ([]models.WebhookSubscription, int64, error) {
	limit, offset := w.Limit, w.Offset
	var total int64
	q := s.db.WithContext(ctx).Model(&models.WebhookSubscription{})
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, database.Translate(err, "webhook")
	}
	var subs []models.WebhookSubscription
	if err := q.Order("created_at DESC, id DESC").Offset(offset).Limit(limit).Find(&subs).Error; err != nil {
		return nil, 0, database.Translate(err, "webhook")
	}
	return subs, total, nil
}

// UpdateInput changes the fields that are not nil.
type UpdateInput struct {
	URL         patch.Field[string]
	Events      patch.Field[[]string]
	Secret      patch.Field[string]
	Description patch.Field[string]
	IsActive    patch.Field[bool]
}

// Update changes a subscription. Turning it on again clears the reason the
// system turned it off. A keyed request retried after its process died
// answers with the subscription as it is, changing nothing (idempotency.RecordedRow).
// Errors: NOT_FOUND, VALIDATION_ERROR.
func (s *Subscriptions) Update(ctx context.Context, id uuid.UUID, in UpdateInput) (*models.WebhookSubscription, error) {
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return s.Get(ctx, id)
	}
	for _, err := range []error{patch.NotNull("url", in.URL), patch.NotNull("events", in.Events), patch.NotNull("secret", in.Secret),
		patch.NotNull("isActive", in.IsActive)} {
		if err != nil {
			return nil, err
		}
	}
	changes := map[string]any{"updated_at": gorm.Expr("now()")}
	if url, ok := in.URL.Get(); ok {
		if err := s.guard.CheckURL(ctx, url); err != nil {
			return nil, err
		}
		changes["url"] = url
	}
	if names, ok := in.Events.Get(); ok {
		events, err := validEvents(names)
		if err != nil {
			return nil, err
		}
		changes["events"] = models.StringArray(events)
	}
	if secret, ok := in.Secret.Get(); ok {
		if _, err := SecretKey(secret); err != nil {
			return nil, err
		}
		changes["secret"] = secret
	}
	if in.Description.Present() { // null clears it
		d, _ := in.Description.Get()
		if d = strings.TrimSpace(d); len(d) > 500 {
			return nil, apperr.Invalid("description", "must be at most 500 characters")
		}
		changes["description"] = d
	}
	if active, ok := in.IsActive.Get(); ok {
		changes["is_active"] = active
		if active {
			changes["disabled_reason"] = nil
		}
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Model(&models.WebhookSubscription{}).Where("id = ?", id).Updates(changes)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return apperr.Missing("webhook")
		}
		return idempotency.RecordRow(ctx, tx, id)
	})
	if err != nil {
		return nil, database.Translate(err, "webhook")
	}
	return s.Get(ctx, id)
}

// Delete removes a subscription and its delivery log; queued attempts find
// nothing and end. A keyed request retried after its process died
// answers as the delete did (idempotency.RecordedRow). Errors: NOT_FOUND.
func (s *Subscriptions) Delete(ctx context.Context, id uuid.UUID) error {
	if _, ok := idempotency.RecordedRow(ctx); ok {
		return nil
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Delete(&models.WebhookSubscription{}, "id = ?", id)
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return apperr.Missing("webhook")
		}
		return idempotency.RecordRow(ctx, tx, id)
	})
	return database.Translate(err, "webhook")
}

// validEvents checks names against the published event types and drops
// repeats. Errors: VALIDATION_ERROR on `events`.
func validEvents(in []string) ([]string, error) {
	switch {
	case len(in) == 0:
		return nil, apperr.Invalid("events", "must name at least one event")
	case len(in) > 20:
		return nil, apperr.Invalid("events", "must name at most 20 events")
	}
	out := make([]string, 0, len(in))
	for i, e := range in {
		if !slices.Contains(outbox.EventTypes, e) {
			return nil, apperr.Invalid(fmt.Sprintf("events[%d]", i), "must be one of: "+strings.Join(outbox.EventTypes, ", "))
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	return out, nil
}

// SubscribedTypes returns the event types some active subscription wants:
// the outbox dispatcher queues fan-out work for those only.
func SubscribedTypes(ctx context.Context, db *gorm.DB) (map[string]bool, error) {
	var types []string
	if err := db.WithContext(ctx).Raw(`SELECT DISTINCT unnest(events) FROM webhook_subscriptions WHERE is_active`).
		Scan(&types).Error; err != nil {
		return nil, fmt.Errorf("webhooks.subscribed_types: %w", err)
	}
	out := make(map[string]bool, len(types))
	for _, t := range types {
		out[t] = true
	}
	return out, nil
}
