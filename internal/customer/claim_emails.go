package customer

import (
	"context"
	"errors"
	"fmt"

	"github.com/gocommerce/shop/internal/mail"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// ErrGone is returned when the order or customer of an email task no longer
// exists; the task cannot succeed later either.
var ErrGone = errors.New("claim: record gone")

// OrderEmails sends order orderID's confirmation and, when its customer is
// still a guest, an invitation to claim the account with a fresh token.
// Each email goes out once however often the task runs (customer_emails);
// a crash between sending and recording may repeat one, never lose one.
func (s *Claims) OrderEmails(ctx context.Context, orderID uuid.UUID) error {
	var o models.Order
	if err := s.db.WithContext(ctx).Preload("Items").Take(&o, "id = ?", orderID).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return ErrGone
		}
		return fmt.Errorf("customer.claim_order: %w", err)
	}
	var c models.Customer
	if err := s.db.WithContext(ctx).Take(&c, "id = ?", o.CustomerID).Error; err != nil {
		return fmt.Errorf("customer.claim_order_customer: %w", err)
	}
	err := s.once(ctx, models.EmailOrderConfirmation, o.ID.String(), c.ID, func() error {
		return s.sender.Send(ctx, mail.Message{To: o.Email, Subject: "Your order " + o.OrderNumber, Body: s.confirmationBody(&o)})
	})
	if err != nil || !c.IsGuest {
		return err
	}
	return s.once(ctx, models.EmailOrderClaim, o.ID.String(), c.ID, func() error { return s.sendClaim(ctx, &c) })
}

// ClaimEmail (re)sends the claim invitation to guest record customerID with
// a fresh token; a record claimed meanwhile gets nothing.
func (s *Claims) ClaimEmail(ctx context.Context, customerID uuid.UUID) error {
	var c models.Customer
	if err := s.db.WithContext(ctx).Take(&c, "id = ?", customerID).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return ErrGone
		}
		return fmt.Errorf("customer.claim_customer: %w", err)
	}
	if !c.IsGuest || !c.IsActive {
		return nil
	}
	return s.sendClaim(ctx, &c)
}

// GuestFor returns the id of the active guest record of email, or nil: the
// claim re-send request queues an email only for it, but answers the same
// either way.
func (s *Claims) GuestFor(ctx context.Context, email string) (*uuid.UUID, error) {
	var row struct{ ID uuid.UUID }
	err := s.db.WithContext(ctx).Raw(`SELECT id FROM customers WHERE email = ? AND email <> '' AND is_guest AND is_active`,
		NormalizeEmail(email)).Scan(&row).Error
	if err != nil || row.ID == uuid.Nil {
		return nil, err
	}
	return &row.ID, nil
}

func (s *Claims) sendClaim(ctx context.Context, c *models.Customer) error {
	token, err := s.issue(s.db.WithContext(ctx), c.ID)
	if err != nil {
		return err
	}
	return s.sender.Send(ctx, mail.Message{To: c.Email, Subject: "Claim your " + s.set.AppName + " account",
		Body: s.claimBody(c, token), Secret: true})
}

// once runs send unless the email (kind, ref) was sent already, and records
// it as sent when send succeeds.
func (s *Claims) once(ctx context.Context, kind, ref string, customerID uuid.UUID, send func() error) error {
	db := s.db.WithContext(ctx)
	if err := db.Exec(`INSERT INTO customer_emails (kind, ref, customer_id) VALUES (?, ?, ?) ON CONFLICT (kind, ref) DO NOTHING`,
		kind, ref, customerID).Error; err != nil {
		return fmt.Errorf("customer.claim_email_record: %w", err)
	}
	var row models.CustomerEmail
	if err := db.Take(&row, "kind = ? AND ref = ?", kind, ref).Error; err != nil {
		return fmt.Errorf("customer.claim_email_record: %w", err)
	}
	if row.SentAt != nil {
		return nil
	}
	if err := send(); err != nil {
		return err
	}
	return db.Exec(`UPDATE customer_emails SET sent_at = now() WHERE id = ?`, row.ID).Error
}
