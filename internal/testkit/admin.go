package testkit

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/identity"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// TOTPCode is the two-factor code of secret at time at.
func TOTPCode(tb testing.TB, secret string, at time.Time) string {
	tb.Helper()
	code, err := identity.CodeAt(secret, at)
	if err != nil {
		tb.Fatal(err)
	}
	return code
}

// AdminPassword is the password of admins made by MustAdmin.
const AdminPassword = "correct-horse-battery"

// MustAdmin creates an active admin with role and returns it with an access
// token of a fresh session.
func MustAdmin(tb testing.TB, a *App, role string) (*models.Admin, string) {
	tb.Helper()
	ctx := context.Background()
	email := fmt.Sprintf("%s-%s@example.com", role, uuid.NewString()[:8])
	adm, err := a.AdminAccounts.Create(ctx, identity.CreateInput{Email: email, Name: role, Password: AdminPassword, Role: role})
	if err != nil {
		tb.Fatalf("testkit: create admin: %v", err)
	}
	tok, err := a.AdminAuth.OpenSession(ctx, adm, identity.ClientInfo{DeviceID: "testkit"})
	if err != nil {
		tb.Fatalf("testkit: open session: %v", err)
	}
	return adm, tok.AccessToken
}
