package messaging

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"
)

// Receipt is a provider's word on a message it was sent: the message named
// by our reference (Ref, when the provider echoes it) or by the provider's
// id, its new status and when.
type Receipt struct {
	Channel     string
	Ref         string
	ProviderRef string
	Status      string
	At          time.Time
}

// Apply moves the message of r to r.Status if that is a step forward
// (pending, sent, delivered, read; failed only before delivery), so a
// receipt delivered twice, or late after a later one, changes nothing. It
// reports whether a message moved. A receipt that arrives while the send
// still holds the row waits for it. Errors: the database's.
func (s *Service) Apply(ctx context.Context, r Receipt) (bool, error) {
	switch r.Status {
	case StatusSent, StatusDelivered, StatusRead, StatusFailed:
	default:
		return false, nil
	}
	at := r.At
	if at.IsZero() {
		at = s.now()
	}
	q := s.db.WithContext(ctx).Table("messages").Where("channel = ?", r.Channel)
	if id, err := uuid.Parse(r.Ref); err == nil {
		q = q.Where("id = ?", id)
	} else if r.ProviderRef != "" {
		q = q.Where("provider_ref = ?", r.ProviderRef)
	} else {
		return false, nil
	}
	q = q.Where(`(CASE status WHEN 'pending' THEN 0 WHEN 'sent' THEN 1 WHEN 'delivered' THEN 2 WHEN 'read' THEN 3 ELSE 4 END) < ?`, rank(r.Status))
	res := q.Updates(map[string]any{"status": r.Status, "status_at": at.UTC()})
	if res.Error != nil {
		return false, fmt.Errorf("messaging.apply: %w", res.Error)
	}
	return res.RowsAffected > 0, nil
}

// rank orders the statuses; failed ranks with delivered (a message
// delivered is never failed afterwards).
func rank(status string) int {
	switch status {
	case StatusSent:
		return 1
	case StatusDelivered, StatusFailed:
		return 2
	case StatusRead:
		return 3
	}
	return 0
}

// Stop records that phone replied STOP on channel: nothing more is sent
// there (messages not sent yet included). Idempotent.
func (s *Service) Stop(ctx context.Context, channel, phone string) error {
	to := Phone(phone)
	if to == "" {
		return nil
	}
	err := s.db.WithContext(ctx).Exec(`INSERT INTO message_opt_outs (phone, channel) VALUES (?, ?) ON CONFLICT DO NOTHING`, to, channel).Error
	if err != nil {
		return fmt.Errorf("messaging.stop: %w", err)
	}
	s.log.InfoContext(ctx, "phone opted out by reply", "channel", channel)
	return nil
}
