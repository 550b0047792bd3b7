package adminauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/gocommerce/shop/internal/mail"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Mailer sends the security emails the service writes to admin_emails.
type Mailer struct {
	db      *gorm.DB
	sender  mail.Sender
	appName string
}

// NewMailer returns a Mailer sending through sender; appName names the shop
// in subjects.
func NewMailer(db *gorm.DB, sender mail.Sender, appName string) *Mailer {
	return &Mailer{db: db, sender: sender, appName: appName}
}

// mailBatch bounds one run; the rest waits for the next.
const mailBatch = 50

// SendPending sends the unsent admin emails, oldest first, and returns how
// many went out. Each is sent inside a transaction that holds its row FOR
// UPDATE SKIP LOCKED and marks it sent, so concurrent runs never send one
// twice; a crash between sending and the commit may repeat one, never lose
// one. A failed email does not hold up the others; the run returns the
// failures joined (the task is retried, and the sweep tries again).
func (m *Mailer) SendPending(ctx context.Context) (int, error) {
	var ids []string
	if err := m.db.WithContext(ctx).Model(&models.AdminEmail{}).Where("sent_at IS NULL").
		Order("created_at").Limit(mailBatch).Pluck("id", &ids).Error; err != nil {
		return 0, fmt.Errorf("adminauth.emails: %w", err)
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

// sendOne sends email id unless another run holds it or it was sent.
func (m *Mailer) sendOne(ctx context.Context, id string) (bool, error) {
	sent := false
	err := m.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var e models.AdminEmail
		err := tx.Clauses(clause.Locking{Strength: "UPDATE", Options: "SKIP LOCKED"}).
			Where("id = ? AND sent_at IS NULL", id).Take(&e).Error
		if errors.Is(err, gorm.ErrRecordNotFound) {
			return nil
		}
		if err != nil {
			return err
		}
		var a models.Admin
		if err := tx.Take(&a, "id = ?", e.AdminID).Error; err != nil {
			return err
		}
		msg, err := m.message(&e, &a)
		if err != nil {
			return err
		}
		if err := m.sender.Send(ctx, msg); err != nil {
			return err
		}
		sent = true
		return tx.Model(&e).Update("sent_at", time.Now().UTC()).Error
	})
	if err != nil {
		return false, fmt.Errorf("adminauth.emails: %w", err)
	}
	return sent, nil
}

// message renders email e to admin a.
func (m *Mailer) message(e *models.AdminEmail, a *models.Admin) (mail.Message, error) {
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
