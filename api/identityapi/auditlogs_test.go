package identityapi_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
)

func TestAuditLogRead(t *testing.T) {
	app := testkit.MustApp(t)
	rootAdmin := mustAccount(t, app, "super_admin")
	root := mustLogin(t, app, rootAdmin)
	a := mustAccount(t, app, "staff")
	mustLogin(t, app, a)
	login(t, app, a.Email, "wrong-password-1").Expect(t, http.StatusUnauthorized)
	app.Do(t, "PATCH", base+"/users/"+a.ID.String(), testkit.Req{Token: root.Access, Body: map[string]any{"name": "Renamed"}}).Expect(t, http.StatusOK)

	type entry struct {
		ID, Action, CreatedAt, IPAddress, UserAgent string
		AdminID, EntityID                           *string
		Metadata                                    map[string]any
	}
	var list struct {
		Data       []entry `json:"data"`
		Pagination struct{ Page, Limit, Total, TotalPages int }
	}
	get := func(q string) {
		t.Helper()
		list.Data = nil
		app.Do(t, "GET", base+"/audit-logs"+q, testkit.Req{Token: root.Access}).Expect(t, http.StatusOK).JSON(t, &list)
	}
	get("")
	if list.Pagination.Total != 4 || list.Data[0].Action != "admin_user.update" || list.Data[3].Action != "auth.login" {
		t.Fatalf("all entries, newest first: %+v", list)
	}
	get("?adminId=" + a.ID.String())
	if list.Pagination.Total != 2 {
		t.Fatalf("by admin: %+v", list)
	}
	get("?action=auth.login_failed")
	if list.Pagination.Total != 1 || list.Data[0].Metadata["email"] != a.Email || list.Data[0].Metadata["password"] != nil {
		t.Fatalf("by action: %+v", list)
	}
	get("?action=auth.*")
	if list.Pagination.Total != 3 {
		t.Fatalf("by action prefix: %+v", list)
	}
	get("?entityId=" + a.ID.String())
	if list.Pagination.Total != 1 || list.Data[0].Action != "admin_user.update" || *list.Data[0].AdminID != rootAdmin.ID.String() {
		t.Fatalf("by entity: %+v", list)
	}
	get("?limit=1&page=2")
	if len(list.Data) != 1 || list.Pagination.TotalPages != 4 || list.Data[0].Action != "auth.login_failed" {
		t.Fatalf("paged: %+v", list)
	}
	today := time.Now().UTC().Format(time.DateOnly)
	get("?dateFrom=" + today + "&dateTo=" + today)
	if list.Pagination.Total != 4 {
		t.Fatalf("today: %+v", list)
	}
	get("?dateTo=" + time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly))
	if list.Pagination.Total != 0 {
		t.Fatalf("before today: %+v", list)
	}
	get("?dateFrom=" + url.QueryEscape(time.Now().Add(time.Minute).Format(time.RFC3339)))
	if list.Pagination.Total != 0 {
		t.Fatalf("from the future: %+v", list)
	}

	app.Do(t, "GET", base+"/audit-logs?adminId=nope", testkit.Req{Token: root.Access, Invalid: true}).ExpectField(t, "adminId")
	app.Do(t, "GET", base+"/audit-logs?dateFrom=yesterday", testkit.Req{Token: root.Access, Invalid: true}).ExpectField(t, "dateFrom")
	app.Do(t, "GET", base+"/audit-logs?dateFrom=2030-01-02&dateTo=2030-01-01", testkit.Req{Token: root.Access, Invalid: true}).ExpectField(t, "dateTo")
	app.Do(t, "GET", base+"/audit-logs?page=0", testkit.Req{Token: root.Access, Invalid: true}).ExpectField(t, "page")
}

// The audit table refuses UPDATE, DELETE and TRUNCATE in SQL, whoever runs them.
func TestAuditLogIsAppendOnly(t *testing.T) {
	app := testkit.MustApp(t)
	login(t, app, "nobody@example.com", "whatever-password").Expect(t, http.StatusUnauthorized)
	if len(auditEntries(t, app, "auth.login_failed")) != 1 {
		t.Fatal("no entry to tamper with")
	}
	for _, sql := range []string{
		"UPDATE admin_audit_logs SET action = 'x'",
		"UPDATE admin_audit_logs SET metadata = '{}'",
		"DELETE FROM admin_audit_logs",
		"TRUNCATE admin_audit_logs",
	} {
		if err := app.DB.Exec(sql).Error; err == nil {
			t.Errorf("%s succeeded", sql)
		}
	}
	if e := auditEntries(t, app, "auth.login_failed"); len(e) != 1 {
		t.Fatalf("entries after tampering: %+v", e)
	}
}
