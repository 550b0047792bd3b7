package messaging

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Message statuses: pending until the worker sends it, then what the
// provider's receipts say.
const (
	StatusPending   = "pending"
	StatusSent      = "sent"
	StatusDelivered = "delivered"
	StatusRead      = "read"
	StatusFailed    = "failed"
)

// Request is one event to tell a customer about: the event, the subject
// that makes it one (an order id, a fulfilment id: one message per event,
// subject and channel however often it is asked for), the order it
// belongs to, the customer whose preferences apply (nil: a shopper without
// an account, who gets SMS only), the phone and the template's variables in
// the event's order (Variables).
type Request struct {
	Event      string
	Subject    string
	OrderID    *uuid.UUID
	CustomerID *uuid.UUID
	Phone      string
	Variables  []string
}

// planned is one row to write.
type planned struct {
	id      uuid.UUID
	channel string
	tpl     EventSettings
}

// plan is the channels r goes to, read in tx: those its event's settings
// name, that have a provider, that the customer has not refused (WhatsApp
// only after the customer opted in) and the phone has not stopped.
func (s *Service) plan(tx *gorm.DB, r Request) ([]planned, string, error) {
	to := Phone(r.Phone)
	if to == "" {
		return nil, "", nil
	}
	set, err := loadSettings(tx)
	if err != nil {
		return nil, "", err
	}
	es := set.Events[r.Event]
	if len(es.Channels) == 0 {
		return nil, "", nil
	}
	var prefs struct {
		SMS, WhatsApp bool
	}
	prefs.SMS = true
	if r.CustomerID != nil {
		var rows []struct {
			MessageSMS      bool
			MessageWhatsapp bool
			WhatsappOptInAt *time.Time
		}
		if err := tx.Raw(`SELECT message_sms, message_whatsapp, whatsapp_opt_in_at FROM customers WHERE id = ?`, *r.CustomerID).
			Scan(&rows).Error; err != nil {
			return nil, "", fmt.Errorf("messaging.plan: %w", err)
		}
		if len(rows) == 1 {
			prefs.SMS = rows[0].MessageSMS
			prefs.WhatsApp = rows[0].MessageWhatsapp && rows[0].WhatsappOptInAt != nil
		}
	}
	var stopped []string
	if err := tx.Raw(`SELECT channel FROM message_opt_outs WHERE phone = ?`, to).Scan(&stopped).Error; err != nil {
		return nil, "", fmt.Errorf("messaging.plan: %w", err)
	}
	var out []planned
	for _, c := range es.Channels {
		if !s.Enabled(c) || (c == SMS && !prefs.SMS) || (c == WhatsApp && !prefs.WhatsApp) || contains(stopped, c) {
			continue
		}
		out = append(out, planned{id: uuid.New(), channel: c, tpl: es})
	}
	return out, to, nil
}

func contains(list []string, v string) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// insertSQL writes one planned message; a message of the same event,
// subject and channel written before wins (nothing is written).
const insertSQL = `INSERT INTO messages (id, dedupe_key, event, channel, order_id, to_phone, template, sender_id,
	dlt_template_id, language, variables, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?)
	ON CONFLICT (dedupe_key, channel) DO NOTHING`

func (s *Service) insertArgs(r Request, to string, p planned) []any {
	vars, _ := json.Marshal(r.Variables)
	tpl, sender, dlt, lang := p.tpl.WhatsApp.Template, "", "", p.tpl.WhatsApp.Language
	if p.channel == SMS {
		tpl, sender, dlt, lang = p.tpl.SMS.TemplateID, p.tpl.SMS.SenderID, p.tpl.SMS.DLTTemplateID, ""
	}
	return []any{p.id, r.Event + ":" + r.Subject, r.Event, p.channel, r.OrderID, to, tpl, sender, dlt, lang, string(vars), s.now()}
}

// Stage stages in u the messages of r (none when no channel takes them),
// queues their sends once u commits and returns how many channels take it.
// Errors: the database's.
func (s *Service) Stage(u *uow.Unit, r Request) (int, error) {
	ps, to, err := s.plan(u.Tx(), r)
	if err != nil {
		return 0, err
	}
	for _, p := range ps {
		u.Add(insertSQL, s.insertArgs(r, to, p)...)
		id := p.id.String()
		u.AfterCommit("message:"+id, func(ctx context.Context, _ tasks.Enqueuer, log *slog.Logger) {
			s.queueSend(ctx, id)
		})
	}
	return len(ps), nil
}

// Write writes the messages of r in tx (a transaction its caller commits)
// and returns their ids, to queue (QueueSends) after the commit. Errors:
// the database's.
func (s *Service) Write(tx *gorm.DB, r Request) ([]string, error) {
	ps, to, err := s.plan(tx, r)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, p := range ps {
		res := tx.Exec(insertSQL, s.insertArgs(r, to, p)...)
		if res.Error != nil {
			return nil, fmt.Errorf("messaging.write: %w", res.Error)
		}
		if res.RowsAffected == 1 {
			ids = append(ids, p.id.String())
		}
	}
	return ids, nil
}

// QueueSends queues the sends of messages ids; one that cannot be queued
// is sent by the sweep.
func (s *Service) QueueSends(ctx context.Context, ids []string) {
	for _, id := range ids {
		s.queueSend(ctx, id)
	}
}

func (s *Service) queueSend(ctx context.Context, id string) {
	task, opts := tasks.NewMessageSendTask(id)
	if err := tasks.Enqueue(ctx, s.queue, task, opts...); err != nil {
		s.log.WarnContext(ctx, "message send not queued; the sweep sends it", "message_id", id, "err", err)
	}
}

// Sweep queues the sends of messages pending for more than a minute (and
// less than a day: an older one is not news any more) and returns how
// many.
func (s *Service) Sweep(ctx context.Context) (int, error) {
	var ids []string
	now := s.now()
	if err := s.db.WithContext(ctx).Raw(`SELECT id FROM messages WHERE status = 'pending' AND created_at < ? AND created_at > ?
		ORDER BY created_at LIMIT 1000`, now.Add(-time.Minute), now.Add(-24*time.Hour)).Scan(&ids).Error; err != nil {
		return 0, fmt.Errorf("messaging.sweep: %w", err)
	}
	s.QueueSends(ctx, ids)
	return len(ids), nil
}

// row is a message as the sender reads it.
type row struct {
	ID            uuid.UUID
	Channel       string
	ToPhone       string
	Template      string
	SenderID      string
	DLTTemplateID string
	Language      string
	Variables     string
	Event         string
}

// Send sends message id unless it was sent (or another run holds it):
// inside a transaction holding its row, it asks the provider and marks it
// sent with the provider's id. A worker that dies between the two leaves it
// pending, and the retry sends it again with the same reference (its id).
// A refusal marks it failed; an unreachable provider is returned (the task
// retries). A phone that replied STOP since it was written gets nothing.
func (s *Service) Send(ctx context.Context, id uuid.UUID) error {
	return s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var rows []row
		if err := tx.Raw(`SELECT id, channel, to_phone, template, sender_id, dlt_template_id, language, variables::text AS variables, event
			FROM messages WHERE id = ? AND status = 'pending' FOR UPDATE SKIP LOCKED`, id).Scan(&rows).Error; err != nil {
			return fmt.Errorf("messaging.send: %w", err)
		}
		if len(rows) == 0 {
			return nil
		}
		m := rows[0]
		var stopped int64
		if err := tx.Raw(`SELECT count(*) FROM message_opt_outs WHERE phone = ? AND channel = ?`, m.ToPhone, m.Channel).
			Scan(&stopped).Error; err != nil {
			return fmt.Errorf("messaging.send: %w", err)
		}
		p := s.providers[m.Channel]
		if stopped > 0 || p == nil {
			reason := "the phone replied STOP"
			if p == nil {
				reason = "no provider for the channel"
			}
			return s.mark(tx, m.ID, StatusFailed, nil, reason)
		}
		var vars []string
		_ = json.Unmarshal([]byte(m.Variables), &vars)
		ref, err := p.Send(ctx, Outgoing{Ref: m.ID.String(), To: m.ToPhone, Template: m.Template, DLTTemplateID: m.DLTTemplateID,
			SenderID: m.SenderID, Language: m.Language, Variables: vars})
		observeSend(m.Channel, err)
		if err != nil {
			if isRefused(err) {
				s.log.WarnContext(ctx, "message refused", "message_id", m.ID, "channel", m.Channel, "err", err)
				return s.mark(tx, m.ID, StatusFailed, nil, err.Error())
			}
			return err
		}
		if s.afterSend != nil {
			if err := s.afterSend(m.ID); err != nil {
				return err
			}
		}
		if err := s.mark(tx, m.ID, StatusSent, &ref, ""); err != nil {
			return err
		}
		if m.Event == EventCODOTP {
			// The code is for the shopper's eyes: once sent, the row keeps
			// no usable copy of it.
			return tx.Exec(`UPDATE messages SET variables = jsonb_set(variables, '{0}', '"******"') WHERE id = ?`, m.ID).Error
		}
		return nil
	})
}

// mark sets a message's outcome of sending.
func (s *Service) mark(tx *gorm.DB, id uuid.UUID, status string, ref *string, reason string) error {
	now := s.now()
	cols := map[string]any{"status": status, "attempts": gorm.Expr("attempts + 1"), "status_at": now, "last_error": truncate(reason, 500)}
	if status == StatusSent {
		cols["sent_at"], cols["provider_ref"] = now, ref
	}
	if err := tx.Table("messages").Where("id = ?", id).Updates(cols).Error; err != nil {
		return fmt.Errorf("messaging.mark: %w", err)
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}
