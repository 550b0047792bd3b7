package docsapi_test

import (
	"bytes"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gocommerce/shop/api/docsapi"
	"github.com/gocommerce/shop/docs"
	"github.com/gocommerce/shop/internal/testkit"
)

// The service serves the document in the repository, byte for byte,
// without credentials.
func TestDocumentIsServed(t *testing.T) {
	app := testkit.MustApp(t)
	r := app.Do(t, "GET", docsapi.DocumentPath, testkit.Req{}).Expect(t, http.StatusOK)
	if r.Header.Get("Content-Type") != "application/yaml" || !bytes.Equal(r.Body, docs.OpenAPI) {
		t.Fatalf("Content-Type %q, %d bytes; want docs/openapi.yaml (%d bytes)", r.Header.Get("Content-Type"), len(r.Body), len(docs.OpenAPI))
	}
}

// The reference page loads only the script this service serves, under a
// policy that refuses inline and foreign scripts.
func TestReferencePageIsSelfContained(t *testing.T) {
	app := testkit.MustApp(t)
	page := app.Do(t, "GET", docsapi.PagePath, testkit.Req{}).Expect(t, http.StatusOK)
	csp := page.Header.Get("Content-Security-Policy")
	for _, want := range []string{"default-src 'none'", "script-src 'self';", "frame-ancestors 'none'"} {
		if !strings.Contains(csp, want) {
			t.Errorf("Content-Security-Policy %q lacks %q", csp, want)
		}
	}
	if strings.Contains(csp, "unsafe-eval") || strings.Contains(csp, "http") {
		t.Errorf("Content-Security-Policy %q allows eval or another origin", csp)
	}
	srcs := regexp.MustCompile(`(?:src|href|spec-url)="([^"]*)"`).FindAllStringSubmatch(string(page.Body), -1)
	if len(srcs) != 2 {
		t.Fatalf("page references %v", srcs)
	}
	for _, m := range srcs {
		if m[1] != docsapi.ScriptPath && m[1] != docsapi.DocumentPath {
			t.Errorf("page references %q", m[1])
		}
	}
	script := app.Do(t, "GET", docsapi.ScriptPath, testkit.Req{}).Expect(t, http.StatusOK)
	if !strings.HasPrefix(script.Header.Get("Content-Type"), "text/javascript") || len(script.Body) < 500_000 {
		t.Fatalf("script: %q, %d bytes", script.Header.Get("Content-Type"), len(script.Body))
	}
}

// In a real browser, under the page's policy, Redoc renders the document:
// the operations appear, and the browser blocks nothing the page needs.
// Redoc's sidebar footer asks for its logo from cdn.redoc.ly; the policy
// blocks it (the footer then shows its text alone), which is the point: the
// page fetches nothing from another origin.
func TestReferencePageRendersInHeadlessChromium(t *testing.T) {
	bin := testkit.MustChromium(t)
	app := testkit.MustApp(t)
	dir := t.TempDir()
	dom, logs := testkit.RunChromium(t, bin, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--no-first-run", "--user-data-dir="+filepath.Join(dir, "profile"), "--window-size=1280,900",
		"--virtual-time-budget=15000", "--enable-logging=stderr", "--v=0", "--dump-dom", app.URL+docsapi.PagePath)
	for _, want := range []string{"Shop commerce service", "Checkout: reserve the cart", "createCheckout"} {
		if !strings.Contains(dom, want) {
			t.Errorf("rendered page lacks %q; dom: %.1500s", want, dom)
		}
	}
	for _, line := range strings.Split(logs, "\n") {
		if strings.Contains(line, "https://cdn.redoc.ly/redoc/logo-mini.svg") {
			continue
		}
		if strings.Contains(line, "Content Security Policy") || strings.Contains(line, "Refused to") {
			t.Errorf("browser: %s", line)
		}
	}
}
