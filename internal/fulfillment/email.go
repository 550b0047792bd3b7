package fulfillment

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/mail"
	"github.com/gocommerce/shop/internal/uow"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// stageEmail stages the row of fulfilment f's shipment email in u: it
// exists exactly when the fulfilment does, and the worker sends it
// (Mailer), nudged once u commits.
func stageEmail(u *uow.Unit, o *models.Order, f *models.Fulfillment) error {
	customer := o.CustomerID
	if err := u.Create(&models.CustomerEmail{Kind: models.EmailFulfillmentTracking, Ref: f.ID.String(), CustomerID: &customer,
		CreatedAt: f.CreatedAt}); err != nil {
		return err
	}
	u.AfterCommit("fulfillment.emails", nudgeEmails)
	return nil
}

// nudgeEmails asks the worker to send the shipment emails now; a failure is
// only logged, the scheduler's sweep sends them anyway.
func nudgeEmails(ctx context.Context, q tasks.Enqueuer, log *slog.Logger) {
	task, opts := tasks.NewFulfillmentEmailsTask(time.Now())
	if err := tasks.Enqueue(ctx, q, task, opts...); err != nil {
		log.WarnContext(ctx, "shipment email nudge failed; the sweep will send it", "err", err)
	}
}

// NewMailer returns the outbox of the customers' shipment emails (written
// with their fulfilment when the customer is to be notified); appName signs
// them, and each carries the shipment's tax invoice from invoices (nil:
// none).
func NewMailer(db *gorm.DB, sender mail.Sender, appName string, invoices InvoicePDFs) *mail.Outbox {
	m := shipmentEmails{appName: appName, invoices: invoices}
	return mail.NewOutbox(db, sender, "fulfillment.emails", mail.CustomerEmails, []string{models.EmailFulfillmentTracking}, m.render)
}

// shipmentEmails renders the customers' shipment emails.
type shipmentEmails struct {
	appName  string
	invoices InvoicePDFs
}

// InvoicePDFs renders the tax invoice of a fulfilment (package invoice).
type InvoicePDFs interface {
	// FulfillmentInvoicePDF returns the file name and PDF of fulfilment
	// id's invoice; ok is false when it has none.
	FulfillmentInvoicePDF(tx *gorm.DB, id uuid.UUID) (name string, pdf []byte, ok bool, err error)
}

// render renders shipment email id: its fulfilment, with the order's lines.
func (m shipmentEmails) render(tx *gorm.DB, id string) (mail.Message, error) {
	var e models.CustomerEmail
	if err := tx.Take(&e, "id = ?", id).Error; err != nil {
		return mail.Message{}, err
	}
	var f models.Fulfillment
	if err := tx.Preload("Items").Take(&f, "id = ?", e.Ref).Error; err != nil {
		return mail.Message{}, err
	}
	var o models.Order
	if err := tx.Preload("Items").Take(&o, "id = ?", f.OrderID).Error; err != nil {
		return mail.Message{}, err
	}
	msg := m.message(&o, &f)
	if m.invoices != nil {
		name, pdf, ok, err := m.invoices.FulfillmentInvoicePDF(tx, f.ID)
		if err != nil {
			return mail.Message{}, err
		}
		if ok {
			msg.Attachments = append(msg.Attachments, mail.Attachment{Name: name, ContentType: "application/pdf", Data: pdf})
			msg.Body += "\nYour tax invoice is attached.\n"
		}
	}
	return msg, nil
}

// message renders the shipment email of fulfilment f of order o.
func (m shipmentEmails) message(o *models.Order, f *models.Fulfillment) mail.Message {
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
