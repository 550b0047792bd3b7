package webhookapi

import (
	"time"

	"github.com/gocommerce/shop/internal/webhooks"
	"github.com/gocommerce/shop/models"
)

// subscriptionBody is a subscription as the API shows it: never its secret,
// except once, in the answer to its creation.
type subscriptionBody struct {
	ID             string    `json:"id"`
	URL            string    `json:"url"`
	Events         []string  `json:"events"`
	Description    string    `json:"description"`
	IsActive       bool      `json:"isActive"`
	DisabledReason *string   `json:"disabledReason"`
	Secret         string    `json:"secret,omitempty"`
	CreatedAt      time.Time `json:"createdAt"`
	UpdatedAt      time.Time `json:"updatedAt"`
}

func subscriptionOf(s *models.WebhookSubscription) subscriptionBody {
	events := []string(s.Events)
	if events == nil {
		events = []string{}
	}
	return subscriptionBody{ID: s.ID.String(), URL: s.URL, Events: events, Description: s.Description, IsActive: s.IsActive,
		DisabledReason: s.DisabledReason, CreatedAt: s.CreatedAt.UTC(), UpdatedAt: s.UpdatedAt.UTC()}
}

// deliveryBody is a delivery with its attempt log.
type deliveryBody struct {
	ID             string        `json:"id"`
	WebhookID      string        `json:"webhookId"`
	EventID        string        `json:"eventId"`
	EventType      string        `json:"eventType"`
	Status         string        `json:"status"`
	AttemptCount   int           `json:"attemptCount"`
	NextAttemptAt  *time.Time    `json:"nextAttemptAt"`
	LastStatusCode *int          `json:"lastStatusCode"`
	LastError      *string       `json:"lastError"`
	DeliveredAt    *time.Time    `json:"deliveredAt"`
	CreatedAt      time.Time     `json:"createdAt"`
	Attempts       []attemptBody `json:"attempts"`
}

type attemptBody struct {
	Attempt    int       `json:"attempt"`
	StatusCode *int      `json:"statusCode"`
	DurationMS int       `json:"durationMs"`
	Error      *string   `json:"error"`
	CreatedAt  time.Time `json:"createdAt"`
}

func deliveryOf(d webhooks.DeliveryLog) deliveryBody {
	b := deliveryBody{ID: d.ID.String(), WebhookID: d.SubscriptionID.String(), EventID: d.EventID.String(), EventType: d.EventType,
		Status: d.Status, AttemptCount: d.Attempts, LastStatusCode: d.LastStatusCode, LastError: d.LastError,
		DeliveredAt: utc(d.DeliveredAt), CreatedAt: d.CreatedAt.UTC(), Attempts: make([]attemptBody, 0, len(d.AttemptLog))}
	if d.Status == models.DeliveryPending {
		next := d.NextAttemptAt.UTC()
		b.NextAttemptAt = &next
	}
	for _, a := range d.AttemptLog {
		b.Attempts = append(b.Attempts, attemptBody{Attempt: a.Attempt, StatusCode: a.StatusCode, DurationMS: a.DurationMS,
			Error: a.Error, CreatedAt: a.CreatedAt.UTC()})
	}
	return b
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}
