package returns

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/gocommerce/shop/internal/mail"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// Customer email kinds of a return (customer_emails.kind; ref is the
// return's id). Each is written in the transaction of the move it reports
// and sent once by the worker (Mailer).
const (
	EmailApproved = "return_approved"
	EmailRejected = "return_rejected"
	EmailRefunded = "return_refunded"
)

var emailKinds = []string{EmailApproved, EmailRejected, EmailRefunded}

// stageEmail stages the unsent email kind about return r in u (once: a
// second is ignored), and its sending once u commits.
func stageEmail(u *uow.Unit, kind string, r *models.Return) {
	u.Add(`INSERT INTO customer_emails (kind, ref, customer_id) VALUES (?, ?, ?) ON CONFLICT (kind, ref) DO NOTHING`,
		kind, r.ID.String(), r.CustomerID)
	id := r.ID
	u.AfterCommit("email:"+kind+":"+id.String(), func(ctx context.Context, q tasks.Enqueuer, log *slog.Logger) {
		nudgeEmail(ctx, q, log, kind, id)
	})
}

// nudgeEmail asks the worker to send email kind of return id, just
// committed; a failure is only logged: the scheduler's sweep sends it
// within a minute.
func nudgeEmail(ctx context.Context, q tasks.Enqueuer, log *slog.Logger, kind string, id uuid.UUID) {
	task, opts := tasks.NewReturnEmailsTask(kind + ":" + id.String())
	if err := tasks.Enqueue(ctx, q, task, opts...); err != nil {
		log.WarnContext(ctx, "return email nudge failed; the sweep will send it", "err", err)
	}
}

// NewMailer returns the outbox of the customers' return emails; appName
// signs them.
func NewMailer(db *gorm.DB, sender mail.Sender, appName string) *mail.Outbox {
	m := returnEmails{appName: appName}
	return mail.NewOutbox(db, sender, "returns.emails", mail.CustomerEmails, emailKinds, m.render)
}

// returnEmails renders the customers' return emails.
type returnEmails struct{ appName string }

// render renders return email id.
func (m returnEmails) render(tx *gorm.DB, id string) (mail.Message, error) {
	var e models.CustomerEmail
	if err := tx.Take(&e, "id = ?", id).Error; err != nil {
		return mail.Message{}, err
	}
	return m.message(tx, &e)
}

// message renders email e about its return.
func (m returnEmails) message(tx *gorm.DB, e *models.CustomerEmail) (mail.Message, error) {
	var r models.Return
	if err := tx.Preload("Items").Take(&r, "id = ?", e.Ref).Error; err != nil {
		return mail.Message{}, err
	}
	var o models.Order
	if err := tx.Preload("Items").Take(&o, "id = ?", r.OrderID).Error; err != nil {
		return mail.Message{}, err
	}
	titles := map[string]string{}
	for _, it := range o.Items {
		titles[it.ID.String()] = it.Title
	}
	var units strings.Builder
	for _, it := range r.Items {
		fmt.Fprintf(&units, "  %d × %s\n", it.Quantity, titles[it.OrderItemID.String()])
	}
	hello := "Hello"
	if o.Name != "" {
		hello += " " + o.Name
	}
	var subject, text string
	switch e.Kind {
	case EmailApproved:
		subject = "Your return for order " + o.OrderNumber + " is approved"
		text = "your return of these items from order " + o.OrderNumber + " is approved:\n\n" + units.String() +
			"\nPlease send them back. We will refund you once they arrive.\n"
	case EmailRejected:
		subject = "Your return for order " + o.OrderNumber + " was not accepted"
		text = "we could not accept your return of these items from order " + o.OrderNumber + ":\n\n" + units.String()
		if r.RejectReason != "" {
			text += "\nReason: " + r.RejectReason + "\n"
		}
	case EmailRefunded:
		var amount money.Amount
		if err := tx.Raw(`SELECT COALESCE(sum(amount), 0)::bigint FROM refunds WHERE return_id = ? AND status = ?`,
			r.ID, models.RefundProcessed).Scan(&amount).Error; err != nil {
			return mail.Message{}, err
		}
		subject = "Your refund for order " + o.OrderNumber
		text = fmt.Sprintf("we received the items you returned from order %s and refunded %s %s to your original payment method.\n",
			o.OrderNumber, amount.String(), o.Currency)
	default:
		return mail.Message{}, fmt.Errorf("unknown return email kind %q", e.Kind)
	}
	return mail.Message{To: o.Email, Subject: subject, Body: hello + ",\n\n" + text + "\n" + m.appName + "\n"}, nil
}
