package customer

import (
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/mail"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
)

// ResetPath is the page a reset link opens (api/resetpage, or a storefront
// at PUBLIC_URL); it posts the token and the chosen password to
// POST /customers/password/reset.
const ResetPath = "/account/reset-password"

// ResetMailSettings configure the password reset emails.
type ResetMailSettings struct {
	// PublicURL is the storefront's address, for the link (PUBLIC_URL).
	PublicURL string
	// AppName signs the emails.
	AppName string
}

// NewPasswordResetMailer returns the outbox of the password reset emails
// that RequestPasswordReset writes. The token is made when its email is
// rendered, inside the outbox's transaction that holds the email row and
// marks it sent: it never rests anywhere in the clear (not in a row, not
// in a task), a failed send rolls it back, and a crash after the send may
// repeat the email with a new token, never lose it.
func NewPasswordResetMailer(db *gorm.DB, sender mail.Sender, set ResetMailSettings) *mail.Outbox {
	m := resetEmails{set: set, now: func() time.Time { return time.Now().UTC() }}
	return mail.NewOutbox(db, sender, "customer.reset_emails", mail.CustomerEmails, []string{EmailPasswordReset}, m.render)
}

// resetEmails renders the password reset emails.
type resetEmails struct {
	set ResetMailSettings
	now func() time.Time
}

// link is the link a reset email carries.
func (m resetEmails) link(token string) string {
	return strings.TrimRight(m.set.PublicURL, "/") + ResetPath + "?" + url.Values{"token": {token}}.Encode()
}

// render makes the token of reset email id and its message. An account
// deactivated since the request gets a notice without a token.
func (m resetEmails) render(tx *gorm.DB, id string) (mail.Message, error) {
	var e models.CustomerEmail
	if err := tx.Take(&e, "id = ?", id).Error; err != nil {
		return mail.Message{}, err
	}
	var c models.Customer
	if err := tx.Take(&c, "id = ?", e.CustomerID).Error; err != nil {
		return mail.Message{}, err
	}
	subject := "Reset your " + m.set.AppName + " password"
	if !c.IsActive || c.IsGuest {
		return mail.Message{To: c.Email, Subject: subject, Body: fmt.Sprintf(
			"Hello %s,\n\nA password reset was asked for your %s account, which is deactivated. Please contact the shop.\n\n%s\n",
			nameOr(c.Name), m.set.AppName, m.set.AppName)}, nil
	}
	token, err := m.issue(tx, &c, &e)
	if err != nil {
		return mail.Message{}, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Hello %s,\n\n", nameOr(c.Name))
	fmt.Fprintf(&b, "Someone asked to reset the password of your %s account. To choose a new one, open:\n\n", m.set.AppName)
	fmt.Fprintf(&b, "%s\n\n", m.link(token))
	fmt.Fprintf(&b, "Or send this token with a new password to POST /customers/password/reset:\n%s\n\n", token)
	fmt.Fprintf(&b, "The link works once and expires in %s. Resetting signs you out everywhere else.\n", ttlText(ResetTokenTTL))
	fmt.Fprintf(&b, "If you did not ask for this, ignore this email: your password stays as it is.\n\n%s\n", m.set.AppName)
	return mail.Message{To: c.Email, Subject: subject, Body: b.String(), Secret: true}, nil
}

// issue stores a new reset token for c from email e, and returns it; only
// its hash is kept. The account's dead tokens (spent or expired) are
// deleted on the way, so the table holds a few rows per account at most.
func (m resetEmails) issue(tx *gorm.DB, c *models.Customer, e *models.CustomerEmail) (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	token := base64.RawURLEncoding.EncodeToString(b)
	now := m.now()
	if err := tx.Exec(`DELETE FROM password_reset_tokens WHERE customer_id = ? AND (used_at IS NOT NULL OR expires_at <= ?)`,
		c.ID, now).Error; err != nil {
		return "", fmt.Errorf("customer.reset_prune: %w", err)
	}
	if err := tx.Exec(`INSERT INTO password_reset_tokens (customer_id, email_id, token_hash, expires_at) VALUES (?, ?, ?, ?)`,
		c.ID, e.ID, hashToken(token), now.Add(ResetTokenTTL)).Error; err != nil {
		return "", fmt.Errorf("customer.reset_issue: %w", err)
	}
	return token, nil
}

// ttlText writes d for a reader: "1 hour", "30 minutes".
func ttlText(d time.Duration) string {
	switch {
	case d == time.Hour:
		return "1 hour"
	case d%time.Hour == 0:
		return fmt.Sprintf("%d hours", d/time.Hour)
	default:
		return fmt.Sprintf("%d minutes", d/time.Minute)
	}
}
