package models

import (
	"time"

	"github.com/google/uuid"
)

// Event is an outbox entry: a domain event written in the transaction of the
// change that caused it.
type Event struct {
	ID           uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	Type         string
	Data         JSON
	CreatedAt    time.Time
	DispatchedAt *time.Time
	// TraceContext is the traceparent of the code that published the event
	// (tracing on), resumed when it is dispatched.
	TraceContext *string
}

// WebhookSubscription is an outbound webhook receiver.
type WebhookSubscription struct {
	ID             uuid.UUID   `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	URL            string      `gorm:"column:url"`
	Events         StringArray `gorm:"type:text[]"`
	Secret         string
	Description    string
	IsActive       bool
	DisabledReason *string
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// Webhook delivery statuses.
const (
	DeliveryPending   = "pending"
	DeliverySucceeded = "succeeded"
	DeliveryFailed    = "failed"
)

// WebhookDelivery is one event sent to one subscription; its id is the
// stable webhook-id across retries.
type WebhookDelivery struct {
	ID             uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	SubscriptionID uuid.UUID `gorm:"type:uuid"`
	EventID        uuid.UUID `gorm:"type:uuid"`
	EventType      string
	Status         string
	// Attempts is how many attempts were made; while Status is pending,
	// attempt Attempts+1 is due at NextAttemptAt.
	Attempts       int
	NextAttemptAt  time.Time
	LastStatusCode *int
	LastError      *string
	DeliveredAt    *time.Time
	CreatedAt      time.Time
	UpdatedAt      time.Time
}

// WebhookDeliveryAttempt is one HTTP attempt of a delivery.
type WebhookDeliveryAttempt struct {
	ID         uuid.UUID `gorm:"type:uuid;primaryKey;default:gen_random_uuid()"`
	DeliveryID uuid.UUID `gorm:"type:uuid"`
	Attempt    int
	StatusCode *int
	DurationMS int `gorm:"column:duration_ms"`
	Error      *string
	CreatedAt  time.Time
}
