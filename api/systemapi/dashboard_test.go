package systemapi_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
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

// The dashboard renders in a real browser signed in by the admin cookie.
// The cookie is set by a tiny page on another port of 127.0.0.1 (cookies
// ignore ports) that redirects to the dashboard, so the browser sends the
// dashboard's own requests, page, scripts and API calls, with it.
func TestDashboardInHeadlessChromium(t *testing.T) {
	bin := testkit.MustChromium(t)
	app := testkit.MustApp(t)
	_, super := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	task, opts := tasks.NewReconcileTask("browser-job") // so the queue table has a row
	if err := tasks.Enqueue(t.Context(), app.Queue, task, opts...); err != nil {
		t.Fatal(err)
	}
	dashboard := app.URL + "/api/v1/admin/queues/"
	login := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: adminroute.AccessCookie, Value: super, Path: "/api/v1/admin", HttpOnly: true})
		http.Redirect(w, r, dashboard, http.StatusFound)
	}))
	defer login.Close()

	dir := t.TempDir()
	shot := filepath.Join(dir, "dashboard.png")
	common := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
		"--user-data-dir=" + filepath.Join(dir, "profile"), "--window-size=1280,900", "--virtual-time-budget=8000"}
	dom, _ := testkit.RunChromium(t, bin, append(common, "--dump-dom", login.URL)...)
	title := regexp.MustCompile(`<title>([^<]*)</title>`).FindStringSubmatch(dom)
	if title == nil || title[1] != "Asynq - Monitoring" {
		t.Fatalf("page title %v; dom: %.500s", title, dom)
	}
	// The React app rendered (its bundle loaded with the cookie) and read
	// the queues through the API: the low queue's row is there.
	if !strings.Contains(dom, "Queues") || !regexp.MustCompile(`>low<`).MatchString(dom) {
		t.Fatalf("dashboard did not render; dom: %.2000s", dom)
	}
	testkit.RunChromium(t, bin, append(common, "--screenshot="+shot, login.URL)...)
	st, err := os.Stat(shot)
	if err != nil || st.Size() < 5000 {
		t.Fatalf("screenshot %s: %v (%d bytes)", shot, err, sizeOf(st))
	}
	if keep := os.Getenv("SCREENSHOT_DIR"); keep != "" { // e.g. a CI artifact directory
		if b, err := os.ReadFile(shot); err == nil && os.WriteFile(filepath.Join(keep, "dashboard.png"), b, 0o644) == nil {
			shot = filepath.Join(keep, "dashboard.png")
		}
	}
	t.Logf("dashboard screenshot: %s (%d bytes)", shot, st.Size())
}

func sizeOf(st os.FileInfo) int64 {
	if st == nil {
		return 0
	}
	return st.Size()
}
