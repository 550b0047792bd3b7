package startpage_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/api/docsapi"
	"github.com/gocommerce/shop/api/startpage"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
)

// GET / links to every place, and each place answers: the console and the
// reference pages to anyone, the queue dashboard to a signed-in super_admin.
func TestStartPageLeadsToEachPlace(t *testing.T) {
	app := testkit.MustApp(t)
	r := app.Do(t, "GET", startpage.Path, testkit.Req{}).Expect(t, http.StatusOK)
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
		t.Fatalf("Content-Type %q", ct)
	}
	if csp := r.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
		t.Fatalf("Content-Security-Policy %q", csp)
	}
	_, super := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	for _, p := range startpage.Places {
		if !strings.Contains(string(r.Body), `href="`+p.Path+`"`) {
			t.Errorf("the start page has no link to %s (%s)", p.Name, p.Path)
		}
		// Plain requests: the console is a web app outside docs/openapi.yaml.
		req, _ := http.NewRequest("GET", app.URL+p.Path, nil)
		req.Header.Set("Authorization", "Bearer "+super)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s (%s) answered %d", p.Name, p.Path, resp.StatusCode)
		}
	}
}

func TestDocsLeadsToTheAPIReference(t *testing.T) {
	app := testkit.MustApp(t)
	r := app.Do(t, "GET", startpage.DocsPath, testkit.Req{}).Expect(t, http.StatusOK)
	if !strings.Contains(string(r.Body), docsapi.ScriptPath) {
		t.Fatalf("GET /docs did not end at the reference pages:\n%.300s", r.Body)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Get(app.URL + startpage.DocsPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound || resp.Header.Get("Location") != docsapi.PagePath {
		t.Fatalf("GET /docs: %d Location %q, want 302 to %s", resp.StatusCode, resp.Header.Get("Location"), docsapi.PagePath)
	}
}
