package identityapi_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

func TestLogoutEndsSessionAtOnce(t *testing.T) {
	app := testkit.MustApp(t)
	a := mustAccount(t, app, "viewer")
	s, other := mustLogin(t, app, a), mustLogin(t, app, a)

	r := app.Do(t, "DELETE", base+"/auth/logout", testkit.Req{Token: s.Access}).Expect(t, http.StatusNoContent)
	if len(r.Body) != 0 {
		t.Fatalf("logout body %q", r.Body)
	}
	for _, name := range []string{"admin_access_token", "admin_refresh_token"} {
		if c := cookie(r, name); c == nil || c.Value != "" || c.Expires.IsZero() || c.Expires.Year() > 2010 {
			t.Fatalf("logout does not clear %s: %v", name, r.Header.Values("Set-Cookie"))
		}
	}
	me(t, app, s.Access).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	refresh(t, app, s.Refresh).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	me(t, app, other.Access).Expect(t, http.StatusOK) // other devices stay in
	if e := auditEntries(t, app, "auth.logout"); len(e) != 1 || *e[0].EntityID != sessionOf(s.Refresh) {
		t.Fatalf("auth.logout entries %+v", e)
	}
}

func TestLogoutAll(t *testing.T) {
	app := testkit.MustApp(t)
	a, b := mustAccount(t, app, "viewer"), mustAccount(t, app, "viewer")
	s1, s2, bs := mustLogin(t, app, a), mustLogin(t, app, a), mustLogin(t, app, b)
	app.Do(t, "DELETE", base+"/auth/logout/all", testkit.Req{Token: s1.Access}).Expect(t, http.StatusNoContent)
	me(t, app, s1.Access).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	me(t, app, s2.Access).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	refresh(t, app, s2.Refresh).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	me(t, app, bs.Access).Expect(t, http.StatusOK)
	if len(auditEntries(t, app, "auth.logout_all")) != 1 {
		t.Fatal("no auth.logout_all entry")
	}
}

func TestSessionsListAndRevoke(t *testing.T) {
	app := testkit.MustApp(t)
	a, b := mustAccount(t, app, "viewer"), mustAccount(t, app, "viewer")
	phone := asLoggedIn(t, app.Do(t, "POST", base+"/auth/login", testkit.Req{
		Body:    map[string]any{"email": a.Email, "password": testkit.AdminPassword},
		Headers: map[string]string{"X-Device-Id": "phone-1", "User-Agent": "PhoneApp/1.0"},
	}).Expect(t, http.StatusOK))
	laptop := asLoggedIn(t, app.Do(t, "POST", base+"/auth/login", testkit.Req{
		Body: map[string]any{"email": a.Email, "password": testkit.AdminPassword, "deviceId": "laptop-1"},
	}).Expect(t, http.StatusOK))
	bs := mustLogin(t, app, b)

	var list struct {
		Data []struct {
			ID, DeviceID, CreatedAt, LastUsedAt, ExpiresAt string
			UserAgent, IPAddress                           *string
			Current                                        bool
		} `json:"data"`
	}
	app.Do(t, "GET", base+"/auth/sessions", testkit.Req{Token: laptop.Access}).Expect(t, http.StatusOK).JSON(t, &list)
	if len(list.Data) != 2 {
		t.Fatalf("%d sessions, want 2", len(list.Data))
	}
	byDevice := map[string]int{}
	for i, s := range list.Data {
		byDevice[s.DeviceID] = i
		if s.CreatedAt == "" || s.LastUsedAt == "" || s.ExpiresAt == "" || s.IPAddress == nil || *s.IPAddress != "127.0.0.1" {
			t.Fatalf("session %+v", s)
		}
	}
	ph, lp := list.Data[byDevice["phone-1"]], list.Data[byDevice["laptop-1"]]
	if ph.Current || !lp.Current || ph.UserAgent == nil || *ph.UserAgent != "PhoneApp/1.0" || ph.ID != sessionOf(phone.Refresh) {
		t.Fatalf("sessions %+v", list.Data)
	}

	// Another admin's session and unknown ids are 404; a malformed id too.
	app.Do(t, "DELETE", base+"/auth/sessions/"+sessionOf(bs.Refresh), testkit.Req{Token: laptop.Access}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	app.Do(t, "DELETE", base+"/auth/sessions/"+uuid.NewString(), testkit.Req{Token: laptop.Access}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	app.Do(t, "DELETE", base+"/auth/sessions/not-a-uuid", testkit.Req{Token: laptop.Access, Invalid: true}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	me(t, app, bs.Access).Expect(t, http.StatusOK)

	app.Do(t, "DELETE", base+"/auth/sessions/"+ph.ID, testkit.Req{Token: laptop.Access}).Expect(t, http.StatusNoContent)
	me(t, app, phone.Access).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	refresh(t, app, phone.Refresh).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	me(t, app, laptop.Access).Expect(t, http.StatusOK)
	if e := auditEntries(t, app, "auth.session_revoke"); len(e) != 1 || *e[0].EntityID != ph.ID {
		t.Fatalf("auth.session_revoke entries %+v", e)
	}
}

// An expired session is refused and deleted when a request finds it.
func TestExpiredSessionIsRefusedAndDeleted(t *testing.T) {
	app := testkit.MustApp(t)
	s := mustLogin(t, app, mustAccount(t, app, "viewer"))
	app.DB.Exec("UPDATE admin_sessions SET expires_at = now() - interval '1 second' WHERE id = ?", sessionOf(s.Refresh))
	me(t, app, s.Access).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	if sessionExists(t, app, sessionOf(s.Refresh)) {
		t.Fatal("expired session not deleted")
	}
}

// Two refreshes with the same token at once: at most one succeeds (the
// loser is a reuse and ends the session).
func TestConcurrentRefreshesAtMostOneSucceeds(t *testing.T) {
	app := testkit.MustApp(t)
	s := mustLogin(t, app, mustAccount(t, app, "viewer"))
	got := concurrently(4, func(int) int { return refresh(t, app, s.Refresh).Status })
	if got[http.StatusOK] > 1 || got[http.StatusOK]+got[http.StatusUnauthorized] != 4 {
		t.Fatalf("statuses %v", got)
	}
}

func TestRefreshWithoutOrWithBadCookie(t *testing.T) {
	app := testkit.MustApp(t)
	s := mustLogin(t, app, mustAccount(t, app, "viewer"))
	app.Do(t, "POST", base+"/auth/refresh", testkit.Req{}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	refresh(t, app, "garbage").ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	refresh(t, app, uuid.NewString()+".abc").ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	// A bearer access token is not a refresh token.
	app.Do(t, "POST", base+"/auth/refresh", testkit.Req{Token: s.Access}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	me(t, app, s.Access).Expect(t, http.StatusOK)
}

// A request marks its session used (at most once a minute).
func TestRequestsTouchTheSession(t *testing.T) {
	app := testkit.MustApp(t)
	s := mustLogin(t, app, mustAccount(t, app, "viewer"))
	app.DB.Exec("UPDATE admin_sessions SET last_used_at = now() - interval '1 hour' WHERE id = ?", sessionOf(s.Refresh))
	me(t, app, s.Access).Expect(t, http.StatusOK)
	var stale int64
	app.DB.Table("admin_sessions").Where("id = ? AND last_used_at < now() - interval '1 minute'", sessionOf(s.Refresh)).Count(&stale)
	if stale != 0 {
		t.Fatal("last_used_at not updated")
	}
}
