package identityapi_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

func TestAdminUsersManagement(t *testing.T) {
	app := testkit.MustApp(t)
	root := mustLogin(t, app, mustAccount(t, app, "super_admin"))
	const pw = "a-long-enough-password"

	r := app.Do(t, "POST", base+"/users", testkit.Req{Token: root.Access, Body: map[string]any{
		"email": " New.Staff@Example.com ", "name": "New Staff", "password": pw, "role": "staff",
	}}).Expect(t, http.StatusCreated)
	created := r.Map(t)
	id, _ := created["id"].(string)
	if created["email"] != "new.staff@example.com" || created["role"] != "staff" || created["isActive"] != true ||
		created["twoFactorEnabled"] != false || created["lastLoginAt"] != nil || created["createdAt"] == "" || created["password"] != nil {
		t.Fatalf("created %v", created)
	}
	app.Do(t, "POST", base+"/users", testkit.Req{Token: root.Access, Body: map[string]any{
		"email": "NEW.staff@example.com", "password": pw, "role": "staff",
	}}).ExpectError(t, http.StatusConflict, "CONFLICT")
	app.Do(t, "POST", base+"/users", testkit.Req{Token: root.Access, Body: map[string]any{"email": "x@example.com", "password": "short", "role": "staff"}, Invalid: true}).ExpectField(t, "password")
	app.Do(t, "POST", base+"/users", testkit.Req{Token: root.Access, Body: map[string]any{"email": "x@example.com", "password": pw, "role": "owner"}, Invalid: true}).ExpectField(t, "role")
	app.Do(t, "POST", base+"/users", testkit.Req{Token: root.Access, Body: map[string]any{"email": "not-an-email", "password": pw, "role": "staff"}}).ExpectField(t, "email")

	// The create entry names the new admin and holds no password.
	entries := auditEntries(t, app, "admin_user.create")
	if len(entries) != 1 || entries[0].EntityID == nil || *entries[0].EntityID != id || bytes.Contains(entries[0].Metadata, []byte(pw)) ||
		!bytes.Contains(entries[0].Metadata, []byte("New.Staff@Example.com")) {
		t.Fatalf("admin_user.create entries %+v", entries)
	}

	got := app.Do(t, "GET", base+"/users/"+id, testkit.Req{Token: root.Access}).Expect(t, http.StatusOK).Map(t)
	if got["email"] != "new.staff@example.com" {
		t.Fatalf("get %v", got)
	}
	app.Do(t, "GET", base+"/users/"+uuid.NewString(), testkit.Req{Token: root.Access}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")

	var list struct {
		Data       []map[string]any `json:"data"`
		Pagination struct{ Page, Limit, Total, TotalPages int }
	}
	app.Do(t, "GET", base+"/users?role=staff", testkit.Req{Token: root.Access}).Expect(t, http.StatusOK).JSON(t, &list)
	if len(list.Data) != 1 || list.Data[0]["id"] != id || list.Pagination.Total != 1 {
		t.Fatalf("role filter %+v", list)
	}
	app.Do(t, "GET", base+"/users?search=new.st&limit=1", testkit.Req{Token: root.Access}).Expect(t, http.StatusOK).JSON(t, &list)
	if len(list.Data) != 1 || list.Pagination.Limit != 1 {
		t.Fatalf("search %+v", list)
	}
	app.Do(t, "GET", base+"/users", testkit.Req{Token: root.Access}).Expect(t, http.StatusOK).JSON(t, &list)
	if list.Pagination.Total != 2 || list.Data[0]["id"] != id {
		t.Fatalf("list (newest first) %+v", list)
	}
	app.Do(t, "GET", base+"/users?role=owner", testkit.Req{Token: root.Access, Invalid: true}).ExpectField(t, "role")
	app.Do(t, "GET", base+"/users?limit=101", testkit.Req{Token: root.Access, Invalid: true}).ExpectField(t, "limit")

	// A role change applies to the admin's live token at once.
	staff := asLoggedIn(t, login(t, app, "new.staff@example.com", pw).Expect(t, http.StatusOK))
	app.Do(t, "GET", base+"/users", testkit.Req{Token: staff.Access}).ExpectError(t, http.StatusForbidden, "FORBIDDEN")
	up := app.Do(t, "PATCH", base+"/users/"+id, testkit.Req{Token: root.Access, Body: map[string]any{"role": "super_admin", "name": "Promoted"}}).Expect(t, http.StatusOK).Map(t)
	if up["role"] != "super_admin" || up["name"] != "Promoted" || up["lastLoginAt"] == nil {
		t.Fatalf("update %v", up)
	}
	app.Do(t, "GET", base+"/users", testkit.Req{Token: staff.Access}).Expect(t, http.StatusOK)
	app.Do(t, "PATCH", base+"/users/"+id, testkit.Req{Token: root.Access, Body: map[string]any{"role": "owner"}, Invalid: true}).ExpectField(t, "role")
	app.Do(t, "PATCH", base+"/users/"+uuid.NewString(), testkit.Req{Token: root.Access, Body: map[string]any{"name": "x"}}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	if e := auditEntries(t, app, "admin_user.update"); len(e) != 1 || *e[0].EntityID != id {
		t.Fatalf("admin_user.update entries %+v", e)
	}
}

func TestDeactivationEndsSessionsAtOnce(t *testing.T) {
	app := testkit.MustApp(t)
	root := mustLogin(t, app, mustAccount(t, app, "super_admin"))
	a := mustAccount(t, app, "admin")
	s1, s2 := mustLogin(t, app, a), mustLogin(t, app, a)
	secret, _ := enable2FA(t, app, s1.Access)
	tok := challenge(t, app, a)

	off := app.Do(t, "PATCH", base+"/users/"+a.ID.String(), testkit.Req{Token: root.Access, Body: map[string]any{"isActive": false}}).Expect(t, http.StatusOK).Map(t)
	if off["isActive"] != false {
		t.Fatalf("update %v", off)
	}
	me(t, app, s1.Access).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	me(t, app, s2.Access).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	refresh(t, app, s2.Refresh).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	verify(t, app, tok, totpAt(t, secret, 0)).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	login(t, app, a.Email, testkit.AdminPassword).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")

	app.Do(t, "PATCH", base+"/users/"+a.ID.String(), testkit.Req{Token: root.Access, Body: map[string]any{"isActive": true}}).Expect(t, http.StatusOK)
	challenge(t, app, a) // can log in again (2FA kept)
}

func TestLastSuperAdminIsKept(t *testing.T) {
	app := testkit.MustApp(t)
	rootAdmin := mustAccount(t, app, "super_admin")
	root := mustLogin(t, app, rootAdmin)
	self := base + "/users/" + rootAdmin.ID.String()
	app.Do(t, "PATCH", self, testkit.Req{Token: root.Access, Body: map[string]any{"role": "admin"}}).ExpectError(t, http.StatusConflict, "CONFLICT")
	app.Do(t, "PATCH", self, testkit.Req{Token: root.Access, Body: map[string]any{"isActive": false}}).ExpectError(t, http.StatusConflict, "CONFLICT")
	app.Do(t, "PATCH", self, testkit.Req{Token: root.Access, Body: map[string]any{"name": "Still here"}}).Expect(t, http.StatusOK)

	// Two super_admins demoting each other at once: one of them stays.
	other := mustAccount(t, app, "super_admin")
	otherS := mustLogin(t, app, other)
	got := concurrently(2, func(i int) int {
		if i == 0 {
			return app.Do(t, "PATCH", base+"/users/"+other.ID.String(), testkit.Req{Token: root.Access, Body: map[string]any{"role": "staff"}}).Status
		}
		return app.Do(t, "PATCH", self, testkit.Req{Token: otherS.Access, Body: map[string]any{"role": "staff"}}).Status
	})
	var supers int64
	app.DB.Table("admins").Where("role = 'super_admin' AND is_active").Count(&supers)
	if supers != 1 || got[http.StatusOK] != 1 {
		t.Fatalf("statuses %v, %d super_admins left", got, supers)
	}
}
