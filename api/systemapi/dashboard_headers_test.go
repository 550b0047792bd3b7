package systemapi_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/tasks"
)

// The dashboard is a page a super admin's cookie opens, so it carries the
// console's security headers: no other page may frame it (clickjacking its
// pause and delete buttons), and its policy allows this origin only. Its
// inline scripts and the styles it injects run by a nonce that changes with
// every load, and the page references nothing on another host (the fonts
// it asked Google for are dropped).
func TestDashboardSecurityHeaders(t *testing.T) {
	app := testkit.MustApp(t)
	_, super := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	task, opts := tasks.NewReconcileTask("headers-job")
	if err := tasks.Enqueue(t.Context(), app.Queue, task, opts...); err != nil {
		t.Fatal(err)
	}
	get := func(path string) *testkit.Response {
		return app.Do(t, "GET", path, testkit.Req{Token: super}).Expect(t, http.StatusOK)
	}
	page := get("/api/v1/admin/queues/")
	nonce := checkPageHeaders(t, "page", page.Header)
	if nonce == "" {
		t.Fatalf("the page's policy has no nonce: %q", page.Header.Get("Content-Security-Policy"))
	}
	if cc := page.Header.Get("Cache-Control"); !strings.Contains(cc, "no-store") {
		t.Errorf("page Cache-Control %q: a page with a nonce must not be kept", cc)
	}
	html := string(page.Body)
	scripts := regexp.MustCompile(`<script([^>]*)>`).FindAllStringSubmatch(html, -1)
	if len(scripts) < 3 {
		t.Fatalf("page scripts %v", scripts)
	}
	for _, s := range scripts {
		if !strings.Contains(s[1], "src=") && !strings.Contains(s[1], `nonce="`+nonce+`"`) {
			t.Errorf("inline script without the response's nonce: %s", s[0])
		}
	}
	if !strings.Contains(html, `<meta property="csp-nonce" content="`+nonce+`">`) {
		t.Errorf("no csp-nonce meta for the styles the page injects (JSS reads it): %.600s", html)
	}
	// Nothing on another host: every reference is a path of the dashboard.
	for _, ref := range regexp.MustCompile(`(?:src|href)="([^"]*)"`).FindAllStringSubmatch(html, -1) {
		if !strings.HasPrefix(ref[1], "/api/v1/admin/queues/") {
			t.Errorf("page references %q", ref[1])
		}
	}
	if m := regexp.MustCompile(`(?i)(https?:)?//[a-z0-9.-]+\.[a-z]{2,}`).FindString(html); m != "" {
		t.Errorf("page names another host: %q", m)
	}
	if again := checkPageHeaders(t, "page again", get("/api/v1/admin/queues/").Header); again == nonce {
		t.Errorf("two loads share the nonce %q", nonce)
	}

	// Its other answers (script, API) carry the headers too.
	script := regexp.MustCompile(`src="(/api/v1/admin/queues/static/js/[^"]+)"`).FindStringSubmatch(html)
	if script == nil {
		t.Fatalf("no script in %.600s", html)
	}
	checkPageHeaders(t, "script", get(script[1]).Header)
	checkPageHeaders(t, "api", get("/api/v1/admin/queues/api/queues").Header)
}

// checkPageHeaders checks the console's security headers and returns the
// nonce of the policy's script-src ("" when it has none).
func checkPageHeaders(t *testing.T, what string, h http.Header) string {
	t.Helper()
	for name, want := range map[string]string{
		"X-Frame-Options":            "DENY",
		"X-Content-Type-Options":     "nosniff",
		"Referrer-Policy":            "no-referrer",
		"Cross-Origin-Opener-Policy": "same-origin",
	} {
		if got := h.Get(name); got != want {
			t.Errorf("%s: %s %q, want %q", what, name, got, want)
		}
	}
	csp := h.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'self'", "frame-ancestors 'none'", "base-uri 'none'", "object-src 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("%s: Content-Security-Policy %q lacks %q", what, csp, want)
		}
	}
	for _, refused := range []string{"unsafe-inline", "unsafe-eval", "http", "*"} {
		if strings.Contains(csp, refused) {
			t.Errorf("%s: Content-Security-Policy %q allows %q", what, csp, refused)
		}
	}
	if m := regexp.MustCompile(`script-src 'self' 'nonce-([A-Za-z0-9+/=_-]+)'`).FindStringSubmatch(csp); m != nil {
		return m[1]
	}
	return ""
}
