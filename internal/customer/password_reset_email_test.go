package customer_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/internal/mail"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"gorm.io/gorm"
)

// capture is a mail.Sender that keeps messages, or fails while fail is set.
type capture struct {
	mu   sync.Mutex
	fail bool
	sent []mail.Message
}

func (c *capture) Send(_ context.Context, m mail.Message) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.fail {
		return errors.New("mail server down")
	}
	c.sent = append(c.sent, m)
	return nil
}

func resetAccount(t *testing.T, db *gorm.DB) (*customer.Service, *models.Customer) {
	t.Helper()
	svc := customer.New(db, customer.Settings{JWTSecret: []byte(strings.Repeat("k", 32)), TokenTTL: time.Hour})
	s, err := svc.Register(context.Background(), customer.RegisterInput{Email: "reset-me@example.com", Password: newPassword, Name: "Asha Rao"})
	if err != nil {
		t.Fatal(err)
	}
	return svc, s.Customer
}

func tokenRows(t *testing.T, db *gorm.DB) int64 {
	t.Helper()
	var n int64
	db.Raw(`SELECT count(*) FROM password_reset_tokens`).Scan(&n)
	return n
}

// The token is made when its email is sent: a failed send leaves no token
// and the email unsent (the retry makes one), and the message is marked
// secret, so the log sender never writes it outside development.
func TestResetTokenIsMadeWithItsEmail(t *testing.T) {
	db, _ := testkit.MustDB(t)
	ctx := context.Background()
	svc, c := resetAccount(t, db)
	sender := &capture{fail: true}
	outbox := customer.NewPasswordResetMailer(db, sender, customer.ResetMailSettings{PublicURL: "https://shop.example/", AppName: "Shop"})
	if err := svc.RequestPasswordReset(ctx, c.Email); err != nil {
		t.Fatal(err)
	}
	if _, err := outbox.SendPending(ctx); err == nil {
		t.Fatal("a failed send reported no error")
	}
	if n := tokenRows(t, db); n != 0 {
		t.Fatalf("%d tokens after a failed send", n)
	}
	sender.fail = false
	if n, err := outbox.SendPending(ctx); err != nil || n != 1 {
		t.Fatalf("sent %d: %v", n, err)
	}
	m := sender.sent[0]
	if !m.Secret || m.To != c.Email || !strings.Contains(m.Body, "https://shop.example/account/reset-password?token=") ||
		!strings.Contains(m.Body, "expires in 1 hour") {
		t.Fatalf("message: %+v", m)
	}
	if n := tokenRows(t, db); n != 1 {
		t.Fatalf("%d tokens after the send", n)
	}
	// The log sender withholds the body outside development.
	var logged bytes.Buffer
	(&mail.LogSender{Log: slog.New(slog.NewTextHandler(&logged, nil))}).Send(ctx, m)
	token := m.Body[strings.Index(m.Body, "token=")+len("token="):]
	token = token[:strings.IndexByte(token, '\n')]
	if strings.Contains(logged.String(), token) {
		t.Fatalf("the token reached the log: %s", logged.String())
	}
	// Sent once: another run sends nothing.
	if n, _ := outbox.SendPending(ctx); n != 0 {
		t.Fatalf("sent again: %d", n)
	}
}

// An account deactivated between the request and the send gets a notice
// with no token.
func TestDeactivatedAccountGetsNoResetToken(t *testing.T) {
	db, _ := testkit.MustDB(t)
	ctx := context.Background()
	svc, c := resetAccount(t, db)
	sender := &capture{}
	outbox := customer.NewPasswordResetMailer(db, sender, customer.ResetMailSettings{PublicURL: "https://shop.example", AppName: "Shop"})
	if err := svc.RequestPasswordReset(ctx, c.Email); err != nil {
		t.Fatal(err)
	}
	db.Model(&models.Customer{}).Where("id = ?", c.ID).Update("is_active", false)
	if n, err := outbox.SendPending(ctx); err != nil || n != 1 {
		t.Fatalf("sent %d: %v", n, err)
	}
	if m := sender.sent[0]; m.Secret || strings.Contains(m.Body, "token") || !strings.Contains(m.Body, "deactivated") {
		t.Fatalf("notice: %+v", m)
	}
	if n := tokenRows(t, db); n != 0 {
		t.Fatalf("%d tokens for a deactivated account", n)
	}
}
