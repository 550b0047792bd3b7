package console_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/internal/uqc"
)

const wantCSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; object-src 'none'"

var mainScript = regexp.MustCompile(`<script type="module" src="(/admin/assets/([0-9a-f]{16})/js/main\.js)"></script>`)

// consoleGet fetches a console URL with a plain client: the console is a
// web app served beside the API, not part of docs/openapi.yaml, so its
// exchanges are not checked against the API's contract.
func consoleGet(t *testing.T, url string, headers map[string]string) *testkit.Response {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return &testkit.Response{Status: res.StatusCode, Header: res.Header, Body: body}
}

func expectSecured(t *testing.T, r *testkit.Response) {
	t.Helper()
	for h, want := range map[string]string{
		"Content-Security-Policy": wantCSP, "X-Content-Type-Options": "nosniff",
		"Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
	} {
		if got := r.Header.Get(h); got != want {
			t.Fatalf("%s = %q, want %q", h, got, want)
		}
	}
}

// The console's page is served for every client-side route with a strict
// CSP and no caching; it loads its code from versioned URLs that are
// cached for a year and gzipped; an old release's URL still answers (not
// cached), an unknown file is 404.
func TestConsoleServesPageAndAssets(t *testing.T) {
	app := testkit.MustApp(t)
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := noFollow.Get(app.URL + "/admin")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 301 || res.Header.Get("Location") != "/admin/" {
		t.Fatalf("GET /admin: %d %q", res.StatusCode, res.Header.Get("Location"))
	}
	var index []byte
	for _, p := range []string{"/admin/", "/admin/orders", "/admin/orders/2f1a0c2e-0000-4000-8000-000000000000?x=1", "/admin/signin"} {
		r := consoleGet(t, app.URL+p, nil).Expect(t, 200)
		expectSecured(t, r)
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Fatalf("%s Content-Type %q", p, ct)
		}
		if cc := r.Header.Get("Cache-Control"); cc != "no-cache" {
			t.Fatalf("%s Cache-Control %q", p, cc)
		}
		if index != nil && !bytes.Equal(index, r.Body) {
			t.Fatalf("%s is not the app page", p)
		}
		index = r.Body
	}
	m := mainScript.FindSubmatch(index)
	if m == nil {
		t.Fatalf("no versioned main.js in %s", index)
	}
	if regexp.MustCompile(`<script(?:\s[^>]*)?>[^<]+</script>|\sstyle=|\son[a-z]+=`).Match(index) {
		t.Fatalf("index.html has inline script, style or handler: %s", index)
	}
	mainURL, version := string(m[1]), string(m[2])

	js := consoleGet(t, app.URL+mainURL, nil).Expect(t, 200)
	expectSecured(t, js)
	if ct := js.Header.Get("Content-Type"); ct != "text/javascript; charset=utf-8" {
		t.Fatalf("main.js Content-Type %q", ct)
	}
	if cc := js.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
		t.Fatalf("main.js Cache-Control %q", cc)
	}
	if len(js.Body) < 1000 {
		t.Fatalf("main.js is %d bytes", len(js.Body))
	}
	consoleGet(t, app.URL+mainURL, map[string]string{"If-None-Match": `"` + version + `"`}).Expect(t, 304)

	gz := consoleGet(t, app.URL+"/admin/assets/"+version+"/app.css", map[string]string{"Accept-Encoding": "gzip"}).Expect(t, 200)
	if gz.Header.Get("Content-Encoding") != "gzip" || !strings.Contains(gz.Header.Get("Vary"), "Accept-Encoding") {
		t.Fatalf("app.css not gzipped: %v", gz.Header)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz.Body))
	if err != nil {
		t.Fatal(err)
	}
	css, _ := io.ReadAll(zr)
	plain, err := os.ReadFile("static/app.css")
	if err != nil || !bytes.Equal(css, plain) {
		t.Fatalf("gzipped app.css differs from the file (%v)", err)
	}

	stale := consoleGet(t, app.URL+"/admin/assets/0000000000000000/js/main.js", nil).Expect(t, 200)
	if stale.Header.Get("Cache-Control") != "no-store" || !bytes.Equal(stale.Body, js.Body) {
		t.Fatalf("old-release URL: Cache-Control %q", stale.Header.Get("Cache-Control"))
	}
	for _, p := range []string{"/admin/assets/" + version + "/js/nope.js", "/admin/assets/" + version, "/admin/assets/" + version + "/index.html"} {
		consoleGet(t, app.URL+p, nil).ExpectError(t, 404, "NOT_FOUND")
	}
}

// permissions.json is the server's own route table: every protected admin
// route with its permission, every permission with its least role.
func TestConsolePermissionsMatchRoutes(t *testing.T) {
	app := testkit.MustApp(t)
	var doc struct {
		Roles       []rbac.Role          `json:"roles"`
		Permissions map[string]rbac.Role `json:"permissions"`
		Routes      map[string]string    `json:"routes"`
	}
	r := consoleGet(t, app.URL+"/admin/permissions.json", nil).Expect(t, 200)
	expectSecured(t, r)
	r.JSON(t, &doc)
	if !slices.Equal(doc.Roles, rbac.Roles) {
		t.Fatalf("roles %v", doc.Roles)
	}
	param := regexp.MustCompile(`:[A-Za-z0-9_]+`)
	n := 0
	for _, rt := range app.Server.Admin.Routes() {
		if rt.Public {
			continue
		}
		n++
		key := rt.Method + " " + param.ReplaceAllString(strings.TrimPrefix(rt.Path, "/api/v1/admin"), "{}")
		if doc.Routes[key] != rt.Permission.Name {
			t.Fatalf("%s: permission %q, want %q", key, doc.Routes[key], rt.Permission.Name)
		}
		if doc.Permissions[rt.Permission.Name] != rt.Permission.MinRole {
			t.Fatalf("%s: %s least role %q, want %q", key, rt.Permission.Name, doc.Permissions[rt.Permission.Name], rt.Permission.MinRole)
		}
		for _, f := range rt.Fields {
			if doc.Permissions[f.Permission.Name] != f.Permission.MinRole {
				t.Fatalf("field %s of %s: %q", f.Field, key, doc.Permissions[f.Permission.Name])
			}
		}
	}
	if len(doc.Routes) != n || doc.Routes["PATCH /orders/{}/status"] != rbac.OrdersWrite.Name ||
		doc.Routes["POST /orders/{}/refund"] != rbac.RefundsWrite.Name || doc.Permissions["pricing.write"] != rbac.Admin {
		t.Fatalf("routes %d (want %d): %v", len(doc.Routes), n, doc.Routes)
	}
	if _, ok := doc.Routes["POST /auth/login"]; ok {
		t.Fatal("public route listed")
	}

	var settings struct {
		Currency       string              `json:"currency"`
		EventTypes     []string            `json:"eventTypes"`
		OrderMoves     map[string][]string `json:"orderMoves"`
		QueueDashboard string              `json:"queueDashboard"`
		GSTRates       []money.Rate        `json:"gstRates"`
		Units          []uqc.Unit          `json:"units"`
	}
	consoleGet(t, app.URL+"/admin/settings.json", nil).Expect(t, 200).JSON(t, &settings)
	if settings.Currency != "INR" || !slices.Equal(settings.EventTypes, outbox.EventTypes) || settings.QueueDashboard != "/api/v1/admin/queues/" ||
		!slices.Equal(settings.OrderMoves["pending"], []string{"confirmed", "cancelled"}) || len(settings.OrderMoves["delivered"]) != 0 ||
		!slices.Equal(settings.GSTRates, catalog.GSTRates) || !slices.Equal(settings.Units, uqc.Units()) ||
		!slices.Contains(settings.Units, uqc.Unit{Code: "NOS", Name: "NUMBERS"}) {
		t.Fatalf("settings %+v", settings)
	}
}

// The console's files keep to what the CSP and the no-internet rule allow,
// and every module they import exists: no inline handlers or styles, no
// innerHTML, no eval, no URL of another host.
func TestConsoleFilesAreSelfContained(t *testing.T) {
	root := os.DirFS("static")
	importRe := regexp.MustCompile(`(?:from\s+|import\()\s*['"](\.[^'"]+)['"]`)
	forbidden := map[string]*regexp.Regexp{
		"innerHTML/outerHTML/insertAdjacentHTML": regexp.MustCompile(`\.(inner|outer)HTML\b|insertAdjacentHTML|document\.write`),
		"eval or new Function":                   regexp.MustCompile(`\beval\(|new Function\(`),
		"a URL of another host":                  regexp.MustCompile(`["'(]https?://`),
		"an inline style attribute":              regexp.MustCompile(`setAttribute\(\s*['"]style['"]|\sstyle=`),
	}
	files := 0
	err := fs.WalkDir(root, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		files++
		b, err := fs.ReadFile(root, p)
		if err != nil {
			return err
		}
		// The SVG namespace is a name, not a fetch.
		text := bytes.ReplaceAll(b, []byte("http://www.w3.org/2000/svg"), nil)
		for what, re := range forbidden {
			if loc := re.FindIndex(text); loc != nil {
				t.Errorf("%s uses %s: %q", p, what, text[max(0, loc[0]-40):min(len(text), loc[1]+40)])
			}
		}
		if path.Ext(p) == ".js" {
			for _, m := range importRe.FindAllSubmatch(b, -1) {
				target := path.Join(path.Dir(p), string(m[1]))
				if _, err := fs.Stat(root, target); err != nil {
					t.Errorf("%s imports %s, which does not exist", p, m[1])
				}
			}
		}
		return nil
	})
	if err != nil || files < 20 {
		t.Fatalf("walked %d files: %v", files, err)
	}
	// Each page main.js loads on demand exists and exports its function.
	mainJS, _ := fs.ReadFile(root, "js/main.js")
	pages := regexp.MustCompile(`\['[^']*', '([a-z]+)', '([A-Za-z]+)', `).FindAllSubmatch(mainJS, -1)
	if len(pages) < 20 {
		t.Fatalf("found %d pages in main.js", len(pages))
	}
	for _, m := range pages {
		b, err := fs.ReadFile(root, "js/pages/"+string(m[1])+".js")
		if err != nil || !bytes.Contains(b, []byte("export async function "+string(m[2])+"(")) {
			t.Errorf("page %s.js does not export %s (%v)", m[1], m[2], err)
		}
	}
}
