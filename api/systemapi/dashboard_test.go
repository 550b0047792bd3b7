package systemapi_test

import (
	"strings"
	"testing"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/tasks"
)

// The dashboard and its API are for super admins only: 401 without a
// session, 403 for every lower role, by bearer or cookie alike.
func TestDashboardAccess(t *testing.T) {
	app := testkit.MustApp(t)
	_, super := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	page := "/api/v1/admin/queues/"
	for _, path := range []string{page, "/api/v1/admin/queues", "/api/v1/admin/queues/api/queues"} {
		app.Do(t, "GET", path, testkit.Req{}).ExpectError(t, 401, "UNAUTHORIZED")
	}
	app.Do(t, "POST", "/api/v1/admin/queues/api/queues/default:pause", testkit.Req{}).ExpectError(t, 401, "UNAUTHORIZED")
	for _, role := range []rbac.Role{rbac.Viewer, rbac.Staff, rbac.Admin} {
		_, tok := testkit.MustAdmin(t, app, string(role))
		app.Do(t, "GET", page, testkit.Req{Token: tok}).ExpectError(t, 403, "FORBIDDEN")
		app.Do(t, "GET", page, testkit.Req{Headers: map[string]string{"Cookie": adminroute.AccessCookie + "=" + tok}}).
			ExpectError(t, 403, "FORBIDDEN")
		app.Do(t, "DELETE", "/api/v1/admin/queues/api/queues/default", testkit.Req{Token: tok}).ExpectError(t, 403, "FORBIDDEN")
	}

	r := app.Do(t, "GET", page, testkit.Req{Token: super}).Expect(t, 200)
	if !strings.Contains(string(r.Body), "<title>Asynq - Monitoring</title>") ||
		!strings.Contains(string(r.Body), `src="/api/v1/admin/queues/static/js/`) {
		t.Fatalf("page: %.300s", r.Body)
	}
	task, opts := tasks.NewReconcileTask("dash-job")
	if err := tasks.Enqueue(t.Context(), app.Queue, task, opts...); err != nil {
		t.Fatal(err)
	}
	q := app.Do(t, "GET", "/api/v1/admin/queues/api/queues", testkit.Req{Headers: map[string]string{"Cookie": adminroute.AccessCookie + "=" + super}}).
		Expect(t, 200)
	if !strings.Contains(string(q.Body), `"queue":"low"`) {
		t.Fatalf("queues api: %s", q.Body)
	}
	// Managing tasks is audited.
	app.Do(t, "DELETE", "/api/v1/admin/queues/api/queues/low/pending_tasks/dash-job", testkit.Req{Token: super}).Expect(t, 204)
	var audits int64
	app.DB.Table("admin_audit_logs").Where("action = 'queue.manage'").Count(&audits)
	if audits != 1 {
		t.Fatalf("queue.manage audit entries %d, want 1", audits)
	}
}
