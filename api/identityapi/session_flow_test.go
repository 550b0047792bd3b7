package identityapi_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
)

// Login → me → refresh → the old refresh token replayed → 401, and the
// session is gone with every token it issued.
func TestRefreshRotationAndReuseDetection(t *testing.T) {
	app := testkit.MustApp(t)
	a := mustAccount(t, app, "staff")
	s := mustLogin(t, app, a)

	if s.Body["expires_in"] != float64(900) {
		t.Fatalf("expires_in %v, want 900", s.Body["expires_in"])
	}
	admin, _ := s.Body["admin"].(map[string]any)
	if admin["id"] != a.ID.String() || admin["email"] != a.Email || admin["role"] != "staff" {
		t.Fatalf("admin %v", admin)
	}
	m := me(t, app, s.Access).Expect(t, http.StatusOK).Map(t)
	if m["email"] != a.Email || m["twoFactorEnabled"] != false || m["role"] != "staff" {
		t.Fatalf("me %v", m)
	}

	r := refresh(t, app, s.Refresh).Expect(t, http.StatusOK)
	next := asLoggedIn(t, r)
	if next.Refresh == s.Refresh || sessionOf(next.Refresh) != sessionOf(s.Refresh) {
		t.Fatal("refresh must rotate the token within the same session")
	}
	me(t, app, next.Access).Expect(t, http.StatusOK)

	// The old token again: reuse. The session and all its tokens die.
	refresh(t, app, s.Refresh).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	if sessionExists(t, app, sessionOf(s.Refresh)) {
		t.Fatal("session survived refresh token reuse")
	}
	me(t, app, next.Access).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	me(t, app, s.Access).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	refresh(t, app, next.Refresh).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")

	reuse := auditEntries(t, app, "auth.refresh_reuse")
	if len(reuse) != 1 || reuse[0].AdminID == nil || *reuse[0].AdminID != a.ID || reuse[0].EntityID == nil || *reuse[0].EntityID != sessionOf(s.Refresh) {
		t.Fatalf("refresh reuse audit entries: %+v", reuse)
	}
}
