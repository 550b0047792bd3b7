package webhooks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/gocommerce/shop/models"
)

// Envelope is the body of every delivery: the event's id, type, creation
// time and data (docs/WEBHOOKS.md documents each type's data).
type Envelope struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	CreatedAt time.Time       `json:"createdAt"`
	Data      json.RawMessage `json:"data"`
}

// body renders an event's envelope. It is the same bytes on every attempt.
func body(ev *models.Event) ([]byte, error) {
	var data bytes.Buffer
	if err := json.Compact(&data, ev.Data); err != nil {
		return nil, fmt.Errorf("webhooks.body: event %s data: %w", ev.ID, err)
	}
	return json.Marshal(Envelope{ID: ev.ID.String(), Type: ev.Type, CreatedAt: ev.CreatedAt.UTC(), Data: data.Bytes()})
}
