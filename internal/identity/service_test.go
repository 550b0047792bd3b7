package identity_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/identity"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

func newService(t *testing.T) (*identity.Service, *gorm.DB, *models.Admin) {
	t.Helper()
	db, _ := testkit.MustDB(t)
	svc := identity.New(db, identity.Settings{
		JWTSecret: []byte("test-key-of-at-least-thirty-two-bytes!!"), AccessTokenTTL: 15 * time.Minute,
		RefreshTTL: 90 * 24 * time.Hour, SessionTTL: 30 * 24 * time.Hour, Issuer: "Test",
	})
	a, err := identity.NewAccounts(db).Create(context.Background(), identity.CreateInput{
		Email: "svc-" + uuid.NewString()[:8] + "@example.com", Password: testkit.AdminPassword, Role: "admin",
	})
	if err != nil {
		t.Fatal(err)
	}
	return svc, db, a
}

// race runs f(0..n-1) at once and returns the errors.
func race(n int, f func(i int) error) []error {
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			errs[i] = f(i)
		}(i)
	}
	close(start)
	wg.Wait()
	return errs
}

func TestRefreshRaceAndReuse(t *testing.T) {
	svc, db, a := newService(t)
	ctx := context.Background()
	tok, err := svc.OpenSession(ctx, a, identity.ClientInfo{DeviceID: "d"})
	if err != nil {
		t.Fatal(err)
	}
	errs := race(6, func(int) error { _, err := svc.Refresh(ctx, tok.RefreshToken, identity.ClientInfo{}); return err })
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else if apperr.CodeOf(err) != apperr.Unauthorized {
			t.Fatalf("unexpected error %v", err)
		}
	}
	if ok > 1 {
		t.Fatalf("%d concurrent refreshes with one token succeeded", ok)
	}
	// Some loser saw the rotated secret: reuse, so the session is gone.
	var n int64
	db.Model(&models.AdminSession{}).Where("id = ?", tok.SessionID).Count(&n)
	if n != 0 {
		t.Fatal("session survived a concurrent reuse")
	}
	if _, err := svc.Authenticate(ctx, tok.AccessToken); !identity.IsUnauthenticated(err) {
		t.Fatalf("access token of the ended session: %v", err)
	}
	var reuse int64
	db.Model(&models.AdminAuditLog{}).Where("action = ? AND entity_id = ?", identity.ActionRefreshReuse, tok.SessionID.String()).Count(&reuse)
	if reuse == 0 {
		t.Fatal("no auth.refresh_reuse entry")
	}
}

func TestRefreshKeepsWithinSession(t *testing.T) {
	svc, db, a := newService(t)
	ctx := context.Background()
	tok, _ := svc.OpenSession(ctx, a, identity.ClientInfo{DeviceID: "d"})
	// Near the end of the session the refresh token must not outlive it.
	end := time.Now().Add(time.Hour).UTC()
	db.Model(&models.AdminSession{}).Where("id = ?", tok.SessionID).Update("expires_at", end)
	res, err := svc.Refresh(ctx, tok.RefreshToken, identity.ClientInfo{})
	if err != nil {
		t.Fatal(err)
	}
	if d := res.Tokens.RefreshExpiresAt.Sub(end); d > time.Millisecond || d < -time.Millisecond {
		t.Fatalf("refresh expires %v, session %v", res.Tokens.RefreshExpiresAt, end)
	}
	// A session past its end is refused and removed.
	db.Model(&models.AdminSession{}).Where("id = ?", tok.SessionID).Update("expires_at", time.Now().Add(-time.Second))
	if _, err := svc.Refresh(ctx, res.Tokens.RefreshToken, identity.ClientInfo{}); apperr.CodeOf(err) != apperr.Unauthorized {
		t.Fatalf("expired session refreshed: %v", err)
	}
}

func TestTwoFactorCodesAreSingleUseUnderRace(t *testing.T) {
	svc, db, a := newService(t)
	ctx := context.Background()
	setup, err := svc.GenerateTwoFactorSecret(ctx, a.ID, a.Email)
	if err != nil {
		t.Fatal(err)
	}
	code := func(offset time.Duration) string { return testkit.TOTPCode(t, setup.Secret, time.Now().Add(offset)) }
	if _, err := svc.EnableTwoFactor(ctx, a.ID, "12345678"); apperr.CodeOf(err) != apperr.Validation {
		t.Fatalf("enable with a backup-shaped code: %v", err)
	}
	backups, err := svc.EnableTwoFactor(ctx, a.ID, code(-30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.EnableTwoFactor(ctx, a.ID, code(0)); apperr.CodeOf(err) != apperr.Conflict {
		t.Fatalf("enable twice: %v", err)
	}
	// The enabling step cannot be used again.
	if ok, _ := svc.CheckTwoFactorCode(ctx, a.ID, code(-30*time.Second), identity.ClientInfo{}); ok {
		t.Fatal("the enabling code was accepted again")
	}

	count := func(results []bool) int {
		n := 0
		for _, ok := range results {
			if ok {
				n++
			}
		}
		return n
	}
	check := func(c string) []bool {
		res := make([]bool, 8)
		errs := race(8, func(i int) error {
			var err error
			res[i], err = svc.CheckTwoFactorCode(ctx, a.ID, c, identity.ClientInfo{})
			return err
		})
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		return res
	}
	if n := count(check(code(0))); n != 1 {
		t.Fatalf("TOTP code accepted %d times under race", n)
	}
	if n := count(check(backups[0])); n != 1 {
		t.Fatalf("backup code accepted %d times under race", n)
	}
	var tf models.AdminTwoFactor
	db.Take(&tf, "admin_id = ?", a.ID)
	if len(tf.BackupCodes) != identity.BackupCodeCount-1 {
		t.Fatalf("%d backup codes left", len(tf.BackupCodes))
	}
	// An older step than the last accepted one is refused too.
	if ok, _ := svc.CheckTwoFactorCode(ctx, a.ID, code(-30*time.Second), identity.ClientInfo{}); ok {
		t.Fatal("an older step was accepted after a newer one")
	}
	if err := svc.DisableTwoFactor(ctx, a.ID, backups[0]); apperr.CodeOf(err) != apperr.Validation {
		t.Fatalf("disable with a used backup code: %v", err)
	}
	if err := svc.DisableTwoFactor(ctx, a.ID, backups[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.CheckTwoFactorCode(ctx, a.ID, code(0), identity.ClientInfo{}); apperr.CodeOf(err) != apperr.Conflict {
		t.Fatalf("check with 2FA off: %v", err)
	}
}

func TestLoginAuditsAndRehash(t *testing.T) {
	svc, db, a := newService(t)
	ctx := context.Background()
	_, err := svc.Login(ctx, a.Email, "wrong-password-xyz", identity.ClientInfo{IP: "192.0.2.1", UserAgent: "ua"})
	var ae *apperr.Error
	if !errors.As(err, &ae) || ae.Code != apperr.Unauthorized {
		t.Fatalf("wrong password: %v", err)
	}
	res, err := svc.Login(ctx, a.Email, testkit.AdminPassword, identity.ClientInfo{IP: "192.0.2.1"})
	if err != nil || res.Tokens == nil || res.Challenge != nil {
		t.Fatalf("login: %+v %v", res, err)
	}
	var rows []models.AdminAuditLog
	db.Order("created_at").Find(&rows)
	if len(rows) != 2 || rows[0].Action != identity.ActionLoginFailed || rows[0].IPAddress != "192.0.2.1" || rows[1].Action != identity.ActionLogin ||
		*rows[1].EntityID != res.Tokens.SessionID.String() {
		t.Fatalf("audit rows %+v", rows)
	}
}
