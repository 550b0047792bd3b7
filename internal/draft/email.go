package draft

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gocommerce/shop/internal/mail"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
)

// NewMailer returns the outbox of the payment-link emails, written when a
// draft's link is made; appName signs them.
func NewMailer(db *gorm.DB, sender mail.Sender, appName string) *mail.Outbox {
	m := linkEmails{appName: appName}
	return mail.NewOutbox(db, sender, "draft.emails", mail.CustomerEmails, []string{models.EmailPaymentLink}, m.render)
}

type linkEmails struct{ appName string }

// render renders payment-link email id: the link's session (its lines,
// total and expiry) and the draft's link URL.
func (m linkEmails) render(tx *gorm.DB, id string) (mail.Message, error) {
	var e models.CustomerEmail
	if err := tx.Take(&e, "id = ?", id).Error; err != nil {
		return mail.Message{}, err
	}
	var sess models.CheckoutSession
	if err := tx.Take(&sess, "id = ?", e.Ref).Error; err != nil {
		return mail.Message{}, err
	}
	var d models.DraftOrder
	if err := tx.Take(&d, "checkout_session_id = ?", sess.ID).Error; err != nil {
		return mail.Message{}, err
	}
	lines, err := sessionLines(&sess)
	if err != nil {
		return mail.Message{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Hello %s,\n\nHere is your order from %s:\n\n", nameOr(sess.Name), m.appName)
	for _, l := range lines {
		fmt.Fprintf(&b, "  %d × %s  %s\n", l.Quantity, l.Title, l.LineTotal)
	}
	if sess.ShippingCost > 0 {
		fmt.Fprintf(&b, "  Shipping  %s\n", sess.ShippingCost)
	}
	fmt.Fprintf(&b, "\nTotal: %s %s\n\nPay here: %s\n", sess.Total, sess.Currency, deref(d.PaymentLinkURL))
	fmt.Fprintf(&b, "The link can be paid until %s (UTC); your items are held for you until then.\n\n%s\n",
		sess.ExpiresAt.UTC().Format("2 Jan 2006 15:04"), m.appName)
	return mail.Message{To: sess.Email, Subject: "Your order from " + m.appName + ": pay by link", Body: b.String()}, nil
}

func sessionLines(sess *models.CheckoutSession) ([]models.CheckoutLine, error) {
	var lines []models.CheckoutLine
	err := json.Unmarshal(sess.Lines, &lines)
	return lines, err
}

func nameOr(n string) string {
	if strings.TrimSpace(n) == "" {
		return "there"
	}
	return n
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
