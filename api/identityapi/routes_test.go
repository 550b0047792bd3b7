package identityapi_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/identity"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// These tests walk every admin route registered by any module, so they keep
// covering routes added later.

var actionName = regexp.MustCompile(`^[a-z][a-z0-9_]*\.[a-z0-9_]+$`)

// unroutedAdminPaths lists Fiber routes under /api/v1/admin that are allowed
// to bypass the admin router, and why. Empty today.
var unroutedAdminPaths = map[string]string{}

func TestAdminRoutesDeclarePermissionAndAction(t *testing.T) {
	app := testkit.MustApp(t)
	routes := app.Server.Admin.Routes()
	if len(routes) == 0 {
		t.Fatal("no admin routes registered")
	}
	declared := map[string]bool{}
	for _, rt := range routes {
		declared[rt.Method+" "+rt.Path] = true
		if !rt.Public && (rt.Permission.Name == "" || !rt.Permission.MinRole.Valid()) {
			t.Errorf("%s %s declares no permission", rt.Method, rt.Path)
		}
		if rt.Mutating() && !actionName.MatchString(rt.Action) {
			t.Errorf("%s %s: mutating route with audit action %q, want <entity>.<verb>", rt.Method, rt.Path, rt.Action)
		}
		if rt.EntityParam != "" && !strings.Contains(rt.Path, ":"+rt.EntityParam) {
			t.Errorf("%s %s: audit entity parameter %q is not in the path", rt.Method, rt.Path, rt.EntityParam)
		}
	}
	// Nothing under /api/v1/admin may skip the router (and so its guard).
	for _, r := range app.Server.App.GetRoutes(true) {
		if !strings.HasPrefix(r.Path, "/api/v1/admin") || r.Method == http.MethodHead || declared[r.Method+" "+r.Path] {
			continue
		}
		if why, ok := unroutedAdminPaths[r.Path]; ok {
			t.Logf("%s %s bypasses the admin router: %s", r.Method, r.Path, why)
			continue
		}
		t.Errorf("%s %s is registered on Fiber directly, not through the admin router", r.Method, r.Path)
	}
}

// roleTokens holds one admin per role and a live access token for each; a
// route that ends the session (logout, revoke) gets a fresh one next time.
type roleTokens struct {
	app    *testkit.App
	admins map[rbac.Role]*models.Admin
	tokens map[rbac.Role]string
	sids   map[rbac.Role]uuid.UUID
}

func newRoleTokens(t *testing.T, app *testkit.App) *roleTokens {
	rt := &roleTokens{app: app, admins: map[rbac.Role]*models.Admin{}, tokens: map[rbac.Role]string{}, sids: map[rbac.Role]uuid.UUID{}}
	for _, role := range rbac.Roles {
		rt.admins[role] = mustAccount(t, app, string(role))
	}
	return rt
}

func (r *roleTokens) get(t *testing.T, role rbac.Role) string {
	t.Helper()
	if sid, ok := r.sids[role]; ok && sessionExists(t, r.app, sid.String()) {
		return r.tokens[role]
	}
	tok, err := r.app.AdminAuth.OpenSession(context.Background(), r.admins[role], identity.ClientInfo{DeviceID: "route-walk"})
	if err != nil {
		t.Fatal(err)
	}
	r.tokens[role], r.sids[role] = tok.AccessToken, tok.SessionID
	return tok.AccessToken
}

var pathParam = regexp.MustCompile(`:[A-Za-z0-9_]+[?]?(<[^>]*>)?`)

// concretePath fills every path parameter with a random UUID and a trailing
// wildcard with a plain segment.
func concretePath(p string) string {
	p = pathParam.ReplaceAllStringFunc(p, func(string) string { return uuid.NewString() })
	return strings.ReplaceAll(p, "*", "probe")
}

// noRedirect is a client that reports a redirect instead of following it:
// whether a route lets a role in is a property of the route, not of where
// it redirects. Its answers are checked against docs/openapi.yaml like
// every test's.
var noRedirect = &http.Client{
	Timeout:       30 * time.Second,
	Transport:     testkit.ContractTransport{},
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// doOnce sends one request (JSON body unless nil) without following redirects.
func doOnce(t *testing.T, app *testkit.App, method, path, token string, body any) *testkit.Response {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, ok := body.(string)
		if !ok {
			b, err := json.Marshal(body)
			if err != nil {
				t.Fatal(err)
			}
			raw = string(b)
		}
		rd = strings.NewReader(raw)
	}
	req, err := http.NewRequest(method, app.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Authorization", "Bearer "+token)
	// Placeholder ids and bodies: the request is not meant to match.
	req.Header.Set(testkit.InvalidRequestHeader, "1")
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	return &testkit.Response{Status: resp.StatusCode, Header: resp.Header, Body: raw}
}

func requestBody(method string, body any) any {
	if method == http.MethodGet || method == http.MethodHead {
		return nil
	}
	return body
}

// TestRoleRouteMatrix calls every protected admin route as every role: 403
// FORBIDDEN exactly when the role lacks the route's permission. Public
// routes (login, 2FA verify, refresh) have no permission to check; their
// own tests cover them.
func TestRoleRouteMatrix(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithConfig(highLimits))
	tokens := newRoleTokens(t, app)
	for _, rt := range app.Server.Admin.Routes() {
		if rt.Public {
			continue
		}
		for _, role := range rbac.Roles {
			t.Run(rt.Method+" "+rt.Path+" as "+string(role), func(t *testing.T) {
				r := doOnce(t, app, rt.Method, concretePath(rt.Path), tokens.get(t, role), requestBody(rt.Method, "{}"))
				if !rbac.Allows(role, rt.Permission) {
					if r.Status != http.StatusForbidden || !strings.Contains(string(r.Body), `"FORBIDDEN"`) {
						t.Fatalf("%s lacks %s but got %d: %s", role, rt.Permission.Name, r.Status, r.Body)
					}
					return
				}
				switch {
				case r.Status == http.StatusForbidden, r.Status == http.StatusUnauthorized:
					t.Fatalf("%s holds %s but got %d: %s", role, rt.Permission.Name, r.Status, r.Body)
				case r.Status == http.StatusInternalServerError:
					t.Fatalf("a body of {} and random ids caused a server error: %s", r.Body)
				}
			})
		}
	}
}

// TestRoleFieldMatrix extends the role × route matrix to the body fields a
// route guards with more than its own permission (adminroute.FieldPermission):
// every protected route × role × declared field, the key as declared and in
// another case (encoding/json matches keys case-insensitively, so the guard
// must too). A role without the route's permission gets the route's 403; one
// with it but without the field's gets 403 naming the field; one with both
// gets through the guard.
func TestRoleFieldMatrix(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithConfig(highLimits))
	tokens := newRoleTokens(t, app)
	fields := 0
	for _, rt := range app.Server.Admin.Routes() {
		if rt.Public {
			continue
		}
		for _, fr := range rt.Fields {
			fields++
			for _, key := range []string{fr.Field, strings.ToUpper(fr.Field)} {
				for _, role := range rbac.Roles {
					t.Run(rt.Method+" "+rt.Path+" "+key+" as "+string(role), func(t *testing.T) {
						r := doOnce(t, app, rt.Method, concretePath(rt.Path), tokens.get(t, role), map[string]any{key: nil})
						var env struct {
							Error struct {
								Code    string         `json:"code"`
								Details map[string]any `json:"details"`
							} `json:"error"`
						}
						_ = json.Unmarshal(r.Body, &env)
						switch {
						case !rbac.Allows(role, rt.Permission):
							if r.Status != http.StatusForbidden || env.Error.Code != "FORBIDDEN" {
								t.Fatalf("%s lacks %s but got %d: %s", role, rt.Permission.Name, r.Status, r.Body)
							}
						case !rbac.Allows(role, fr.Permission):
							if r.Status != http.StatusForbidden || env.Error.Code != "FORBIDDEN" || env.Error.Details["field"] != fr.Field {
								t.Fatalf("%s lacks %s for %s but got %d: %s", role, fr.Permission.Name, key, r.Status, r.Body)
							}
						case r.Status == http.StatusForbidden, r.Status == http.StatusUnauthorized, r.Status >= 500:
							t.Fatalf("%s holds %s and %s but got %d: %s", role, rt.Permission.Name, fr.Permission.Name, r.Status, r.Body)
						}
					})
				}
			}
		}
	}
	if fields == 0 {
		t.Fatal("no route declares a field permission; the matrix checked nothing")
	}
}

// TestMutatingRoutesAuditOnceWithoutSecrets calls every protected mutating
// route as a super_admin with a body full of credential-named fields: a
// success leaves exactly one entry, with the route's action and none of the
// credentials; a refusal leaves none.
func TestMutatingRoutesAuditOnceWithoutSecrets(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithConfig(highLimits))
	tokens := newRoleTokens(t, app)
	canary := "canary-" + uuid.NewString()
	body := map[string]any{
		"password": canary, "newPassword": canary, "token": canary, "secret": canary, "code": canary,
		"backupCodes": []string{canary}, "nested": map[string]any{"refresh_token": canary, "apiKey": canary, "list": []any{map[string]any{"otp": canary}}},
	}
	succeeded := 0
	for _, rt := range app.Server.Admin.Routes() {
		if rt.Public || !rt.Mutating() {
			continue
		}
		t.Run(rt.Method+" "+rt.Path, func(t *testing.T) {
			token := tokens.get(t, rbac.SuperAdmin)
			before := len(auditEntries(t, app, ""))
			r := doOnce(t, app, rt.Method, concretePath(rt.Path), token, body)
			entries := auditEntries(t, app, "")[before:]
			if r.Status >= 400 {
				if len(entries) != 0 {
					t.Fatalf("refused with %d but audited %+v", r.Status, entries)
				}
				return
			}
			succeeded++
			if len(entries) != 1 || entries[0].Action != rt.Action || entries[0].AdminID == nil || *entries[0].AdminID != tokens.admins[rbac.SuperAdmin].ID {
				t.Fatalf("status %d: want one %s entry by the caller, got %+v", r.Status, rt.Action, entries)
			}
			if strings.Contains(string(entries[0].Metadata), canary) {
				t.Fatalf("audit metadata holds a credential: %s", entries[0].Metadata)
			}
		})
	}
	if succeeded == 0 {
		t.Fatal("no mutating route succeeded; the test checked nothing")
	}
}
