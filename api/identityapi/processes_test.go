package identityapi_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
)

// Two API processes share Postgres and Redis. Each reuses the admin
// sessions it has checked (identity.Stamps), yet a session ended or an
// account changed through one process is refused or changed on the other
// from the next request on.
func TestSessionChangesReachEveryAPIProcess(t *testing.T) {
	one := testkit.MustApp(t, testkit.WithConfig(highLimits))
	two := testkit.MustApp(t, testkit.WithStores(one.DatabaseURL, one.RedisURL), testkit.WithConfig(highLimits))
	root := mustLogin(t, one, mustAccount(t, one, "super_admin"))
	a := mustAccount(t, one, "viewer")
	s1, s2, s3 := mustLogin(t, one, a), mustLogin(t, one, a), mustLogin(t, one, a)
	for _, s := range []*loggedIn{s1, s2, s3} { // every session checked, and remembered, by both
		me(t, one, s.Access).Expect(t, http.StatusOK)
		me(t, two, s.Access).Expect(t, http.StatusOK)
	}

	// The sessions are reused: one deleted behind the service's back (by
	// SQL, no stamp) is still accepted by the process that remembers it.
	one.DB.Exec("DELETE FROM admin_sessions WHERE id = ?", sessionOf(s3.Refresh))
	me(t, two, s3.Access).Expect(t, http.StatusOK)

	// Logout through one: two refuses the session at once.
	one.Do(t, "DELETE", base+"/auth/logout", testkit.Req{Token: s1.Access}).Expect(t, http.StatusNoContent)
	me(t, two, s1.Access).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")

	// A role change through two: one answers with the new role at once.
	two.Do(t, "PATCH", base+"/users/"+a.ID.String(), testkit.Req{Token: root.Access, Body: map[string]any{"role": "staff"}}).Expect(t, http.StatusOK)
	if got := me(t, one, s2.Access).Expect(t, http.StatusOK).Map(t)["role"]; got != "staff" {
		t.Fatalf("role on the other process = %v, want staff", got)
	}
	me(t, two, s2.Access).Expect(t, http.StatusOK)

	// Revoking a session through two: one refuses it.
	two.Do(t, "DELETE", base+"/auth/sessions/"+sessionOf(s2.Refresh), testkit.Req{Token: root.Access}).
		ExpectError(t, http.StatusNotFound, "NOT_FOUND") // another admin's session is not root's to revoke
	s4 := mustLogin(t, one, a)
	me(t, one, s4.Access).Expect(t, http.StatusOK)
	two.Do(t, "DELETE", base+"/auth/sessions/"+sessionOf(s2.Refresh), testkit.Req{Token: s4.Access}).Expect(t, http.StatusNoContent)
	me(t, one, s2.Access).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")

	// Deactivation through one: two refuses the remaining session.
	me(t, two, s4.Access).Expect(t, http.StatusOK)
	one.Do(t, "PATCH", base+"/users/"+a.ID.String(), testkit.Req{Token: root.Access, Body: map[string]any{"isActive": false}}).Expect(t, http.StatusOK)
	me(t, two, s4.Access).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
}

// Stamps lost with Redis's data (a restart without persistence) make every
// process ask Postgres again: a session deleted meanwhile is refused.
func TestLostStampsCheckSessionsAgain(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithConfig(highLimits))
	s := mustLogin(t, app, mustAccount(t, app, "viewer"))
	me(t, app, s.Access).Expect(t, http.StatusOK) // remembered
	if err := app.Redis.FlushDB(context.Background()).Err(); err != nil {
		t.Fatal(err)
	}
	app.DB.Exec("DELETE FROM admin_sessions WHERE id = ?", sessionOf(s.Refresh))
	me(t, app, s.Access).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
}
