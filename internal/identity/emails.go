package identity

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/mail"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
)

// NewMailer returns the outbox of the administrators' security emails
// (admin_emails, written with the change they report); appName names the
// shop in subjects.
func NewMailer(db *gorm.DB, sender mail.Sender, appName string) *mail.Outbox {
	m := securityEmails{appName: appName}
	return mail.NewOutbox(db, sender, "identity.emails", mail.AdminEmails, []string{models.AdminEmailTwoFactorLockout}, m.render)
}

// securityEmails renders the administrators' security emails.
type securityEmails struct{ appName string }

// render renders admin email id.
func (m securityEmails) render(tx *gorm.DB, id string) (mail.Message, error) {
	var e models.AdminEmail
	if err := tx.Take(&e, "id = ?", id).Error; err != nil {
		return mail.Message{}, err
	}
	var a models.Admin
	if err := tx.Take(&a, "id = ?", e.AdminID).Error; err != nil {
		return mail.Message{}, err
	}
	return m.message(&e, &a)
}

// message renders email e to admin a.
func (m securityEmails) message(e *models.AdminEmail, a *models.Admin) (mail.Message, error) {
	if e.Kind != models.AdminEmailTwoFactorLockout {
		return mail.Message{}, fmt.Errorf("unknown admin email kind %q", e.Kind)
	}
	var d lockoutDetails
	if err := json.Unmarshal(e.Details, &d); err != nil {
		return mail.Message{}, fmt.Errorf("lockout email details: %w", err)
	}
	body := fmt.Sprintf(`Hello%s,

%d wrong two-factor codes were entered for your %s administrator account
(%s) between %s and %s UTC. Each attempt came after the correct password.

Two-factor sign-in for your account is paused until %s UTC. Sign-in with
your password still works; the second step is refused until then.

If these attempts were not yours, someone knows your password: change it,
then review your signed-in sessions and the audit log.
`, greeting(a.Name), d.Failures, m.appName, a.Email, d.Since.UTC().Format(time.DateTime),
		e.CreatedAt.UTC().Format(time.DateTime), d.LockedUntil.UTC().Format(time.DateTime))
	return mail.Message{To: a.Email, Subject: m.appName + ": two-factor sign-in paused after wrong codes", Body: body}, nil
}

// greeting is " name" for the salutation, or nothing for an unnamed admin.
func greeting(name string) string {
	if name == "" {
		return ""
	}
	return " " + name
}
