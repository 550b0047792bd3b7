package customer_test

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/mail"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

const newPassword = "correct-horse-battery-9"

// claimEnv is a claim service sending through a local SMTP server.
type claimEnv struct {
	db     *gorm.DB
	smtp   *testkit.SMTPServer
	claims *customer.Claims
}

func newClaimEnv(t *testing.T, ttl time.Duration) claimEnv {
	t.Helper()
	db, _ := testkit.MustDB(t)
	smtp := testkit.StartSMTP(t)
	log := slog.New(slog.DiscardHandler)
	sender, err := mail.New(smtp.URL(), "shop@example.com", log, false)
	if err != nil {
		t.Fatal(err)
	}
	set := customer.ClaimSettings{TokenTTL: ttl, PublicURL: "https://shop.example", AppName: "Shop"}
	return claimEnv{db: db, smtp: smtp, claims: customer.NewClaims(db, sender, set, log)}
}

func (e claimEnv) guest(t *testing.T, email string) *models.Customer {
	t.Helper()
	var g *models.Customer
	err := e.db.Transaction(func(tx *gorm.DB) error {
		var err error
		g, err = customer.GuestRecord(tx, email, "Asha", "")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// token sends a claim email to guest g and returns the token it carries.
func (e claimEnv) token(t *testing.T, g *models.Customer) string {
	t.Helper()
	before := len(e.smtp.To(g.Email))
	if err := e.claims.ClaimEmail(context.Background(), g.ID); err != nil {
		t.Fatal(err)
	}
	got := e.smtp.To(g.Email)
	if len(got) != before+1 {
		t.Fatalf("claim emails to %s: %d, want %d", g.Email, len(got), before+1)
	}
	_, after, ok := strings.Cut(got[len(got)-1].Body, "POST /customers/claim:")
	if !ok {
		t.Fatalf("no token in the claim email:\n%s", got[len(got)-1].Body)
	}
	return strings.Fields(after)[0]
}

// A token works once, only with its email, and makes the guest record an
// account with a verified email; a second token sent before it dies with it.
func TestClaimTokenWorksOnceForItsEmail(t *testing.T) {
	e := newClaimEnv(t, time.Hour)
	ctx := context.Background()
	g := e.guest(t, " Guest@Example.com ")
	if g.Email != "guest@example.com" || !g.IsGuest {
		t.Fatalf("guest record: %+v", g)
	}
	first := e.token(t, g)
	second := e.token(t, g)

	if _, err := e.claims.Claim(ctx, "other@example.com", second, newPassword); !errors.Is(err, customer.ErrBadToken) {
		t.Fatalf("another email: %v, want ErrBadToken", err)
	}
	c, err := e.claims.Claim(ctx, "GUEST@example.com", second, newPassword)
	if err != nil {
		t.Fatal(err)
	}
	if c.ID != g.ID || c.IsGuest || !c.EmailVerified || c.PasswordHash == nil {
		t.Fatalf("claimed record: id %s guest %v verified %v", c.ID, c.IsGuest, c.EmailVerified)
	}
	for name, tok := range map[string]string{"the spent token": second, "the earlier token": first} {
		if _, err := e.claims.Claim(ctx, g.Email, tok, newPassword); !errors.Is(err, customer.ErrBadToken) {
			t.Errorf("%s: %v, want ErrBadToken", name, err)
		}
	}
	// A claimed record is an account: no more claim emails.
	if err := e.claims.ClaimEmail(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	if n := len(e.smtp.To(g.Email)); n != 2 {
		t.Errorf("claim emails after the claim: %d, want 2", n)
	}
}

func TestExpiredClaimTokenIsRefused(t *testing.T) {
	e := newClaimEnv(t, -time.Minute)
	g := e.guest(t, "late@example.com")
	tok := e.token(t, g)
	if _, err := e.claims.Claim(context.Background(), g.Email, tok, newPassword); !errors.Is(err, customer.ErrBadToken) {
		t.Fatalf("expired token: %v, want ErrBadToken", err)
	}
	var after models.Customer
	if err := e.db.Take(&after, "id = ?", g.ID).Error; err != nil || !after.IsGuest {
		t.Fatalf("guest record after a refused claim: guest %v, err %v", after.IsGuest, err)
	}
}

// When the email has an account already, the guest's orders move into it
// and the guest record is removed.
func TestClaimIntoAnExistingAccountMovesTheOrders(t *testing.T) {
	e := newClaimEnv(t, time.Hour)
	account := fixtures.MustCustomer(t, e.db, "Asha")
	g := e.guest(t, account.Email)
	p := fixtures.MustProduct(t, e.db, "Lamp", 99900)
	v := fixtures.MustVariant(t, e.db, p.ID, 10)
	o := fixtures.MustOrder(t, e.db, fixtures.OrderSpec{Customer: *g, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})

	c, err := e.claims.Claim(context.Background(), account.Email, e.token(t, g), newPassword)
	if err != nil {
		t.Fatal(err)
	}
	if c.ID != account.ID || !c.EmailVerified {
		t.Fatalf("claimed into %s (verified %v), want the account %s", c.ID, c.EmailVerified, account.ID)
	}
	var moved models.Order
	if err := e.db.Take(&moved, "id = ?", o.ID).Error; err != nil {
		t.Fatal(err)
	}
	if moved.CustomerID != account.ID {
		t.Errorf("order belongs to %s, want the account %s", moved.CustomerID, account.ID)
	}
	var guests int64
	e.db.Model(&models.Customer{}).Where("id = ?", g.ID).Count(&guests)
	if guests != 0 {
		t.Error("the guest record was kept")
	}
}

// Checkouts by the same email at once share one guest record.
func TestConcurrentGuestRecordsAreOne(t *testing.T) {
	db, _ := testkit.MustDB(t)
	const n = 12
	ids := make([]uuid.UUID, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := db.Transaction(func(tx *gorm.DB) error {
				g, err := customer.GuestRecord(tx, "same@example.com", "Asha", "")
				if err == nil {
					ids[i] = g.ID
				}
				return err
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for _, id := range ids[1:] {
		if id != ids[0] {
			t.Fatalf("guest records %s and %s for one email", ids[0], id)
		}
	}
	var count int64
	db.Model(&models.Customer{}).Where("email = ? AND is_guest", "same@example.com").Count(&count)
	if count != 1 {
		t.Fatalf("%d guest records, want 1", count)
	}
}
