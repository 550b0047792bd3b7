package identity_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/identity"
	"github.com/gocommerce/shop/internal/mail"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
)

// enableTOTP switches 2FA on for a and returns its current TOTP code (unused:
// enabling takes the previous step's) and the backup codes.
func enableTOTP(t *testing.T, svc *identity.Service, a *models.Admin) (string, []string) {
	t.Helper()
	ctx := context.Background()
	setup, err := svc.GenerateTwoFactorSecret(ctx, a.ID, a.Email)
	if err != nil {
		t.Fatal(err)
	}
	code := func(offset time.Duration) string { return testkit.TOTPCode(t, setup.Secret, time.Now().Add(offset)) }
	backups, err := svc.EnableTwoFactor(ctx, a.ID, code(-30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return code(0), backups
}

// challenges logs a in n times and returns the twoFactorTokens.
func challenges(t *testing.T, svc *identity.Service, a *models.Admin, n int) []string {
	t.Helper()
	toks := make([]string, n)
	for i := range toks {
		res, err := svc.Login(context.Background(), a.Email, testkit.AdminPassword, identity.ClientInfo{DeviceID: "d"})
		if err != nil || res.Challenge == nil {
			t.Fatalf("login %d: %v %+v", i, err, res)
		}
		toks[i] = res.Challenge.Token
	}
	return toks
}

func lockoutEmails(t *testing.T, db *gorm.DB) []models.AdminEmail {
	t.Helper()
	var rows []models.AdminEmail
	if err := db.Order("created_at").Find(&rows).Error; err != nil {
		t.Fatal(err)
	}
	return rows
}

// Wrong codes submitted at once on many challenges are counted one by one
// against the admin: exactly MaxTwoFactorFailures are checked (and refused
// as wrong), every other one meets the lockout, and one lockout email is
// written.
func TestTwoFactorFailuresCountedPerAdminUnderRace(t *testing.T) {
	svc, db, a := newService(t)
	enableTOTP(t, svc, a)
	const n = 2 * identity.DefaultMaxTwoFactorFailures
	toks := challenges(t, svc, a, n)
	errs := race(n, func(i int) error {
		code := "000000"
		if i%2 == 1 {
			code = "aaaa-bbbb-cccc-dddd" // a wrong backup code counts too
		}
		_, err := svc.CompleteTwoFactorLogin(context.Background(), toks[i], code, identity.ClientInfo{})
		return err
	})
	wrong, locked := 0, 0
	for _, err := range errs {
		var le *identity.TwoFactorLockedError
		switch {
		case errors.As(err, &le):
			if apperr.CodeOf(err) != apperr.RateLimited || le.Limit != identity.DefaultMaxTwoFactorFailures ||
				le.Until.Before(time.Now().Add(identity.DefaultTwoFactorLockout-time.Minute)) {
				t.Fatalf("lockout error %v %+v", err, le)
			}
			locked++
		case apperr.CodeOf(err) == apperr.Unauthorized:
			wrong++
		default:
			t.Fatalf("unexpected error %v", err)
		}
	}
	if wrong != identity.DefaultMaxTwoFactorFailures || locked != n-wrong {
		t.Fatalf("%d codes checked and refused, %d locked out; want %d and %d", wrong, locked, identity.DefaultMaxTwoFactorFailures, n-identity.DefaultMaxTwoFactorFailures)
	}
	if rows := lockoutEmails(t, db); len(rows) != 1 || rows[0].AdminID != a.ID || rows[0].Kind != models.AdminEmailTwoFactorLockout {
		t.Fatalf("lockout emails %+v", rows)
	}
	var audits int64
	db.Model(&models.AdminAuditLog{}).Where("action = ? AND admin_id = ?", identity.ActionTwoFactorLocked, a.ID).Count(&audits)
	if audits != 1 {
		t.Fatalf("%d auth.2fa_locked entries", audits)
	}
}

// Failures older than the window do not count: nine wrong codes, the window
// passes, nine more do not lock, the tenth of the new window does.
func TestTwoFactorFailureWindowRestarts(t *testing.T) {
	svc, db, a := newService(t)
	enableTOTP(t, svc, a)
	ctx := context.Background()
	fail := func() error {
		_, err := svc.CompleteTwoFactorLogin(ctx, challenges(t, svc, a, 1)[0], "000000", identity.ClientInfo{})
		return err
	}
	for i := 0; i < identity.DefaultMaxTwoFactorFailures-1; i++ {
		if err := fail(); apperr.CodeOf(err) != apperr.Unauthorized {
			t.Fatalf("failure %d: %v", i+1, err)
		}
	}
	if err := db.Exec(`UPDATE admin_two_factor SET failures_since = failures_since - ?::interval WHERE admin_id = ?`,
		"15 minutes", a.ID).Error; err != nil {
		t.Fatal(err)
	}
	for i := 0; i < identity.DefaultMaxTwoFactorFailures; i++ {
		if err := fail(); apperr.CodeOf(err) != apperr.Unauthorized {
			t.Fatalf("failure %d of the new window: %v", i+1, err)
		}
	}
	var le *identity.TwoFactorLockedError
	if err := fail(); !errors.As(err, &le) {
		t.Fatalf("after 10 failures in the new window: %v", err)
	}
}

// captureSender keeps the messages it is asked to send.
type captureSender struct {
	mu   sync.Mutex
	msgs []mail.Message
}

func (s *captureSender) Send(_ context.Context, m mail.Message) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.msgs = append(s.msgs, m)
	return nil
}

// Runs of the mailer at once send a lockout email once, to the admin, and
// a later run sends nothing more.
func TestLockoutEmailSentOnce(t *testing.T) {
	svc, db, a := newService(t)
	enableTOTP(t, svc, a)
	for _, tok := range challenges(t, svc, a, identity.DefaultMaxTwoFactorFailures) {
		if _, err := svc.CompleteTwoFactorLogin(context.Background(), tok, "000000", identity.ClientInfo{}); apperr.CodeOf(err) != apperr.Unauthorized {
			t.Fatal(err)
		}
	}
	sender := &captureSender{}
	mailer := identity.NewMailer(db, sender, "Test Shop")
	for _, err := range race(4, func(int) error { _, err := mailer.SendPending(context.Background()); return err }) {
		if err != nil {
			t.Fatal(err)
		}
	}
	if n, err := mailer.SendPending(context.Background()); n != 0 || err != nil {
		t.Fatalf("a later run sent %d (%v)", n, err)
	}
	if len(sender.msgs) != 1 || sender.msgs[0].To != a.Email || sender.msgs[0].Secret {
		t.Fatalf("messages %+v", sender.msgs)
	}
	if rows := lockoutEmails(t, db); len(rows) != 1 || rows[0].SentAt == nil {
		t.Fatalf("lockout emails %+v", rows)
	}
}
