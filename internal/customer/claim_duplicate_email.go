package customer

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/gocommerce/shop/internal/mail"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// DuplicatePaymentEmail tells the shopper of checkout session sessionID
// that its payment was refunded in full because the same cart had already
// been paid (by the order named in the email). It goes out once, and only
// for a REFUNDED session.
func (s *Claims) DuplicatePaymentEmail(ctx context.Context, sessionID uuid.UUID) error {
	var sess models.CheckoutSession
	if err := s.db.WithContext(ctx).Take(&sess, "id = ?", sessionID).Error; err != nil {
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return ErrGone
		}
		return fmt.Errorf("customer.claim_duplicate_session: %w", err)
	}
	if sess.State != models.CheckoutRefunded {
		return nil
	}
	purchase := sess.ID
	if sess.PurchaseID != nil {
		purchase = *sess.PurchaseID
	}
	var order string
	if err := s.db.WithContext(ctx).Raw(`SELECT o.order_number FROM checkout_sessions cs JOIN orders o ON o.id = cs.order_id
		WHERE COALESCE(cs.purchase_id, cs.id) = ? AND cs.state = ?`, purchase, models.CheckoutCompleted).Scan(&order).Error; err != nil {
		return fmt.Errorf("customer.claim_duplicate_order: %w", err)
	}
	return s.once(ctx, models.EmailDuplicatePaymentRefund, sess.ID.String(), sess.CustomerID, func() error {
		return s.sender.Send(ctx, mail.Message{To: sess.Email, Subject: "Your second payment was refunded",
			Body: s.duplicateBody(&sess, order)})
	})
}

func (s *Claims) duplicateBody(sess *models.CheckoutSession, order string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Hello %s,\n\n", nameOr(sess.Name))
	fmt.Fprintf(&b, "Your cart was paid twice. ")
	if order != "" {
		fmt.Fprintf(&b, "The first payment became order %s; ", order)
	} else {
		fmt.Fprintf(&b, "The first payment became your order; ")
	}
	fmt.Fprintf(&b, "the second, %s %s, has been refunded in full", sess.Total, sess.Currency)
	if sess.RefundID != nil {
		fmt.Fprintf(&b, " (refund %s)", *sess.RefundID)
	}
	fmt.Fprintf(&b, ". Your bank may take a few days to show it.\n\n%s\n", s.set.AppName)
	return b.String()
}
