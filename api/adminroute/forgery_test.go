package adminroute_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

const evil = "https://evil.example"

// headers builds a request's headers: the admin cookie, the browser's
// provenance headers and a content type.
func headers(cookie, secFetchSite, origin, contentType string) map[string]string {
	h := map[string]string{"Content-Type": contentType}
	if cookie != "" {
		h["Cookie"] = cookie
	}
	if secFetchSite != "" {
		h["Sec-Fetch-Site"] = secFetchSite
	}
	if origin != "" {
		h["Origin"] = origin
	}
	return h
}

func countCategories(t *testing.T, app *testkit.App) int64 {
	t.Helper()
	var n int64
	if err := app.DB.Model(&models.Category{}).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// A page on another site cannot make an admin's browser change anything:
// a cross-site form post or fetch carrying the admin's cookie is refused
// with 403 and the database is unchanged, while the console's own
// same-origin JSON calls, scripts without browser headers and bearer
// clients keep working.
func TestCookieWritesRefuseForgery(t *testing.T) {
	app := testkit.MustApp(t)
	_, tok := testkit.MustAdmin(t, app, string(rbac.Admin))
	cookie := adminroute.AccessCookie + "=" + tok
	const form = "application/x-www-form-urlencoded"
	const json = "application/json"
	self := app.URL // the Origin of the console, served by the same host

	refused := []struct {
		name, method, path string
		hdr                map[string]string
		body               string
	}{
		{"cross-site form post", "POST", "/api/v1/admin/categories",
			headers(cookie, "cross-site", evil, form), "name=Forged&slug=forged"},
		{"cross-site form post, old browser (Origin only)", "POST", "/api/v1/admin/categories",
			headers(cookie, "", evil, form), "name=Forged&slug=forged"},
		{"cross-site JSON (no-cors fetch)", "POST", "/api/v1/admin/categories",
			headers(cookie, "cross-site", evil, json), `{"name":"Forged","slug":"forged"}`},
		{"same-site sibling origin", "POST", "/api/v1/admin/categories",
			headers(cookie, "same-site", "https://blog.shop.example", json), `{"name":"Forged","slug":"forged"}`},
		{"text/plain body without browser headers", "POST", "/api/v1/admin/categories",
			headers(cookie, "", "", "text/plain"), `{"name":"Forged","slug":"forged"}`},
		{"multipart body from the same origin", "POST", "/api/v1/admin/categories",
			headers(cookie, "same-origin", self, "multipart/form-data; boundary=x"), "--x--"},
		{"cross-site logout", "DELETE", "/api/v1/admin/auth/logout", headers(cookie, "cross-site", evil, form), ""},
	}
	before := countCategories(t, app)
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			e := forge(t, tt.method, app.URL+tt.path, tt.hdr, tt.body).ExpectError(t, 403, "FORBIDDEN")
			if e.Error.Message == "" {
				t.Fatal("no message")
			}
		})
	}
	if after := countCategories(t, app); after != before {
		t.Fatalf("categories %d -> %d: a forged request changed the database", before, after)
	}
	// The session survived the forged logout.
	app.Do(t, "GET", "/api/v1/admin/auth/me", testkit.Req{Headers: map[string]string{"Cookie": cookie}}).Expect(t, 200)
	// Reads are never refused, whatever their origin.
	app.Do(t, "GET", "/api/v1/admin/categories", testkit.Req{Headers: headers(cookie, "cross-site", evil, "")}).Expect(t, 200)

	allowed := []struct {
		name string
		req  testkit.Req
	}{
		{"same-origin JSON with the cookie", testkit.Req{Headers: headers(cookie, "same-origin", self, json)}},
		{"Origin equal to Host, no Sec-Fetch-Site", testkit.Req{Headers: headers(cookie, "", self, json)}},
		{"cookie without browser headers (a script)", testkit.Req{Headers: headers(cookie, "", "", "application/json; charset=utf-8")}},
		{"bearer without Origin", testkit.Req{Token: tok}},
		{"bearer with cross-site headers and a form type", testkit.Req{Token: tok, Headers: headers("", "cross-site", evil, form), Invalid: true}},
	}
	for i, tt := range allowed {
		t.Run(tt.name, func(t *testing.T) {
			slug := "allowed-" + string(rune('a'+i))
			tt.req.Body = `{"name":"Allowed","slug":"` + slug + `"}`
			app.Do(t, "POST", "/api/v1/admin/categories", tt.req).Expect(t, 201)
		})
	}
	if after := countCategories(t, app); after != before+int64(len(allowed)) {
		t.Fatalf("categories %d -> %d, want %d more", before, after, len(allowed))
	}
}

// The auth routes that need no session are protected too: a forged login
// sets no cookies (it would sign the victim into the attacker's account),
// and a forged refresh does not spend the refresh token.
func TestPublicAuthRoutesRefuseForgery(t *testing.T) {
	app := testkit.MustApp(t)
	adm, _ := testkit.MustAdmin(t, app, string(rbac.Staff))
	creds := `{"email":"` + adm.Email + `","password":"` + testkit.AdminPassword + `"}`

	login := app.URL + "/api/v1/admin/auth/login"
	r := forge(t, "POST", login, headers("", "cross-site", evil, "application/x-www-form-urlencoded"),
		"email="+adm.Email+"&password="+testkit.AdminPassword)
	r.ExpectError(t, 403, "FORBIDDEN")
	if len(r.Header.Values("Set-Cookie")) != 0 {
		t.Fatalf("forged login set cookies: %v", r.Header.Values("Set-Cookie"))
	}
	forge(t, "POST", login, headers("", "cross-site", evil, "application/json"), creds).ExpectError(t, 403, "FORBIDDEN")

	signedIn := app.Do(t, "POST", "/api/v1/admin/auth/login", testkit.Req{Body: creds,
		Headers: headers("", "same-origin", app.URL, "application/json")}).Expect(t, 200)
	refreshCookie := adminroute.RefreshCookie + "=" + cookieValue(t, signedIn, adminroute.RefreshCookie)
	forge(t, "POST", app.URL+"/api/v1/admin/auth/refresh", headers(refreshCookie, "cross-site", evil, ""), "").
		ExpectError(t, 403, "FORBIDDEN")
	// Not spent: the same token still refreshes once, from the console.
	app.Do(t, "POST", "/api/v1/admin/auth/refresh", testkit.Req{Headers: headers(refreshCookie, "same-origin", app.URL, "")}).Expect(t, 200)
}

// forge sends a forged request with a plain client: it breaks
// docs/openapi.yaml on purpose (Req.Invalid would exempt only the request),
// and the 403 it earns is listed by the document only on routes a role can
// be refused.
func forge(t *testing.T, method, url string, hdr map[string]string, body string) *testkit.Response {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return &testkit.Response{Status: res.StatusCode, Header: res.Header, Body: raw}
}

func cookieValue(t *testing.T, r *testkit.Response, name string) string {
	t.Helper()
	for _, c := range (&http.Response{Header: r.Header}).Cookies() {
		if c.Name == name && c.Value != "" {
			return c.Value
		}
	}
	t.Fatalf("no %s cookie in %v", name, r.Header.Values("Set-Cookie"))
	return ""
}
