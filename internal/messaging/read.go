package messaging

import (
	"context"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/database"
	"github.com/google/uuid"
)

// View is a message as GET /admin/orders/{id}/messages shows it. Its
// variables are not shown: a confirmation link or a code is the
// customer's, not the staff's.
type View struct {
	ID          uuid.UUID  `json:"id"`
	Event       string     `json:"event"`
	Channel     string     `json:"channel"`
	To          string     `json:"to"`
	Template    string     `json:"template"`
	Status      string     `json:"status"`
	ProviderRef *string    `json:"providerRef"`
	Attempts    int        `json:"attempts"`
	Error       string     `json:"error"`
	CreatedAt   time.Time  `json:"createdAt"`
	SentAt      *time.Time `json:"sentAt"`
	StatusAt    *time.Time `json:"statusAt"`
}

// OfOrder lists the messages of order id, oldest first. Errors: NOT_FOUND.
func (s *Service) OfOrder(ctx context.Context, id uuid.UUID) ([]View, error) {
	db := s.db.WithContext(ctx)
	var n int64
	if err := db.Table("orders").Where("id = ?", id).Count(&n).Error; err != nil {
		return nil, database.Translate(err, "order")
	}
	if n == 0 {
		return nil, apperr.New(apperr.NotFound, "order not found")
	}
	out := []View{}
	err := db.Raw(`SELECT id, event, channel, to_phone AS "to", template, status, provider_ref, attempts, last_error AS error,
		created_at, sent_at, status_at FROM messages WHERE order_id = ? ORDER BY created_at, channel`, id).Scan(&out).Error
	if err != nil {
		return nil, database.Translate(err, "messages")
	}
	for i := range out {
		out[i].CreatedAt = out[i].CreatedAt.UTC()
	}
	return out, nil
}

// Preferences are a customer's messagePreferences: SMS (on unless
// refused) and WhatsApp (only once the customer opted in).
type Preferences struct {
	SMS      bool `json:"sms"`
	WhatsApp bool `json:"whatsapp"`
}

// PreferencesOf returns customer id's preferences. Errors: NOT_FOUND.
func (s *Service) PreferencesOf(ctx context.Context, id uuid.UUID) (Preferences, error) {
	var rows []struct {
		MessageSMS      bool
		MessageWhatsapp bool
	}
	if err := s.db.WithContext(ctx).Raw(`SELECT message_sms, message_whatsapp FROM customers WHERE id = ?`, id).Scan(&rows).Error; err != nil {
		return Preferences{}, database.Translate(err, "customer")
	}
	if len(rows) == 0 {
		return Preferences{}, apperr.New(apperr.NotFound, "customer not found")
	}
	return Preferences{SMS: rows[0].MessageSMS, WhatsApp: rows[0].MessageWhatsapp}, nil
}

// SetPreferences sets customer id's preferences; turning WhatsApp on is
// the customer's opt-in, recorded with its time (kept while it stays on).
// A customer turning a channel back on also lifts a STOP their phone sent
// there. Errors: NOT_FOUND.
func (s *Service) SetPreferences(ctx context.Context, id uuid.UUID, p Preferences) (Preferences, error) {
	db := s.db.WithContext(ctx)
	res := db.Exec(`UPDATE customers SET message_sms = ?, message_whatsapp = ?,
		whatsapp_opt_in_at = CASE WHEN ? THEN coalesce(whatsapp_opt_in_at, ?) ELSE NULL END, updated_at = now() WHERE id = ?`,
		p.SMS, p.WhatsApp, p.WhatsApp, s.now(), id)
	if res.Error != nil {
		return Preferences{}, database.Translate(res.Error, "customer")
	}
	if res.RowsAffected == 0 {
		return Preferences{}, apperr.New(apperr.NotFound, "customer not found")
	}
	var phone []string
	if err := db.Raw(`SELECT phone FROM customers WHERE id = ?`, id).Scan(&phone).Error; err == nil && len(phone) == 1 {
		if to := Phone(phone[0]); to != "" {
			var lift []string
			if p.SMS {
				lift = append(lift, SMS)
			}
			if p.WhatsApp {
				lift = append(lift, WhatsApp)
			}
			if len(lift) > 0 {
				if err := db.Exec(`DELETE FROM message_opt_outs WHERE phone = ? AND channel IN ?`, to, lift).Error; err != nil {
					return Preferences{}, database.Translate(err, "customer")
				}
			}
		}
	}
	return p, nil
}
