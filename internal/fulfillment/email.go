package fulfillment

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/mail"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// queueEmail writes the shipment email of fulfilment f in tx: it exists
// exactly when the fulfilment does, and the worker sends it (Mailer).
func queueEmail(tx *gorm.DB, o *models.Order, f *models.Fulfillment) error {
	e := models.CustomerEmail{Kind: models.EmailFulfillmentTracking, Ref: f.ID.String(), CustomerID: &o.CustomerID}
	if err := tx.Create(&e).Error; err != nil {
		return fmt.Errorf("fulfillment.email: %w", err)
	}
	return nil
}

// nudgeEmails asks the worker to send the shipment emails now; a failure is
// only logged, the scheduler's sweep sends them anyway.
func (s *Service) nudgeEmails(ctx context.Context) {
	task, opts := tasks.NewFulfillmentEmailsTask(time.Now())
	if err := tasks.Enqueue(ctx, s.queue, task, opts...); err != nil {
		s.log.WarnContext(ctx, "shipment email nudge failed; the sweep will send it", "err", err)
	}
}

// Mailer sends the shipment emails written with their fulfilments.
type Mailer struct {
	db      *gorm.DB
	sender  mail.Sender
	appName string
}

// NewMailer returns a Mailer sending through sender; appName signs the email.
func NewMailer(db *gorm.DB, sender mail.Sender, appName string) *Mailer {
	return &Mailer{db: db, sender: sender, appName: appName}
}

// mailBatch bounds one run; the rest waits for the next.
const mailBatch = 50

// SendPending sends the unsent shipment emails, oldest first, and returns
// how many went out. Each is sent in a transaction holding its row FOR
// UPDATE SKIP LOCKED that marks it sent, so two runs never send one twice;
// a crash between sending and the commit may repeat one, never lose one.
func (m *Mailer) SendPending(ctx context.Context) (int, error) {
	var ids []string
	if err := m.db.WithContext(ctx).Model(&models.CustomerEmail{}).
		Where("kind = ? AND sent_at IS NULL", models.EmailFulfillmentTracking).
		Order("created_at").Limit(mailBatch).Pluck("id", &ids).Error; err != nil {
		return 0, fmt.Errorf("fulfillment.emails: %w", err)
	}
	sent := 0
	var errs []error
	for _, id := range ids {
		ok, err := m.sendOne(ctx, id)
		if err != nil {
			errs = append(errs, err)
		}
		if ok {
			sent++
		}
	}
	return sent, errors.Join(errs...)
}

func (m *Mailer) sendOne(ctx context.Context, id string) (bool, error) {
	sent := false
	err := m.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var e models.CustomerEmail
		err := tx.Clauses(clause.Locking{Strength: "UPDATE", Options: "SKIP LOCKED"}).
			Where("id = ? AND sent_at IS NULL", id).Take(&e).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		var f models.Fulfillment
		if err := tx.Preload("Items").Take(&f, "id = ?", e.Ref).Error; err != nil {
			return err
		}
		var o models.Order
		if err := tx.Preload("Items").Take(&o, "id = ?", f.OrderID).Error; err != nil {
			return err
		}
		if err := m.sender.Send(ctx, m.message(&o, &f)); err != nil {
			return err
		}
		sent = true
		return tx.Model(&e).Update("sent_at", time.Now().UTC()).Error
	})
	if err != nil {
		return false, fmt.Errorf("fulfillment.emails: %w", err)
	}
	return sent, nil
}

// message renders the shipment email of fulfilment f of order o.
func (m *Mailer) message(o *models.Order, f *models.Fulfillment) mail.Message {
	titles := make(map[string]string, len(o.Items))
	for _, it := range o.Items {
		titles[it.ID.String()] = it.Title
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Hello %s,\n\nPart of your order %s is on its way:\n\n", o.Name, o.OrderNumber)
	for _, it := range f.Items {
		fmt.Fprintf(&b, "  %d × %s\n", it.Quantity, titles[it.OrderItemID.String()])
	}
	fmt.Fprintf(&b, "\nCarrier: %s\nTracking number: %s\n", f.Carrier, f.TrackingNumber)
	if f.TrackingURL != "" {
		fmt.Fprintf(&b, "Track it: %s\n", f.TrackingURL)
	}
	fmt.Fprintf(&b, "\nThank you for shopping with %s.\n", m.appName)
	return mail.Message{To: o.Email, Subject: "Your order " + o.OrderNumber + " has shipped", Body: b.String()}
}
