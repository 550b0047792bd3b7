package api_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/gocommerce/shop/api/courierapi"
	"github.com/gocommerce/shop/api/gatewayapi"
	"github.com/gocommerce/shop/api/messageapi"
	"github.com/gocommerce/shop/docs"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
	"gopkg.in/yaml.v3"
)

// unkeyedWrites are the writes the Idempotency-Key rule exempts from
// Idempotency-Key, and why.
var unkeyedWrites = map[string]string{
	"POST " + gatewayapi.Path:            "the gateway webhook deduplicates by event id",
	"POST " + courierapi.WebhookPath:     "the courier webhook deduplicates by AWB, status and time",
	"POST /customers/login":              "auth endpoint",
	"POST /api/v1/admin/auth/login":      "auth endpoint",
	"POST /api/v1/admin/auth/refresh":    "auth endpoint",
	"POST /api/v1/admin/auth/2fa/verify": "auth endpoint",
	// Customer messages (api/messageapi): a receipt or reply applied twice
	// changes nothing (statuses only move forward; a STOP is kept once).
	"POST " + messageapi.SMSReceiptsPath: "provider webhook: applying it twice changes nothing",
	"POST " + messageapi.SMSInboundPath:  "provider webhook: applying it twice changes nothing",
	"POST " + messageapi.WhatsAppPath:    "provider webhook: applying it twice changes nothing",
}

var routeParam = regexp.MustCompile(`:[A-Za-z0-9_]+`)

// concretePath fills a route pattern's parameters with ids that name
// nothing: the key is checked before the handler looks them up.
func concretePath(pattern string) string {
	p := routeParam.ReplaceAllStringFunc(pattern, func(string) string { return uuid.NewString() })
	return strings.ReplaceAll(p, "*", "api/probe")
}

// mutatingRoutes returns every POST, PATCH and DELETE of the Fiber route
// stack (the storefront, the admin API and whatever else is mounted), as
// "METHOD /pattern".
func mutatingRoutes(app *testkit.App) []string {
	var out []string
	for _, r := range app.Server.App.GetRoutes(true) {
		switch r.Method {
		case http.MethodPost, http.MethodPatch, http.MethodDelete, http.MethodPut:
			out = append(out, r.Method+" "+r.Path)
		}
	}
	return out
}

// Every write of the route table, admin and storefront alike, passes
// through the Idempotency-Key middleware (docs/DECISIONS.md "Idempotency-Key"), except the
// listed exemptions; a storefront write runs it after the customer is
// known, so a customer's key is scoped by the customer. The table is the
// Fiber route stack, so a route added later is walked too.
func TestEveryWriteHonoursIdempotencyKey(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) {
		c.AdminGeneralRateLimit, c.AdminBulkRateLimit, c.AdminAnalyticsRateLimit = 100000, 100000, 100000
	}))
	_, admin := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	shopper, token := testkit.MustCustomer(t, app)
	malformed := strings.Repeat("k", 256)

	routes := mutatingRoutes(app)
	if len(routes) < 20 {
		t.Fatalf("only %d writes in the route table: %q", len(routes), routes)
	}
	documented := keyedOperations(t)
	seen := map[string]bool{}
	for _, rt := range routes {
		seen[rt] = true
		if _, exempt := unkeyedWrites[rt]; exempt {
			continue
		}
		method, pattern, _ := strings.Cut(rt, " ")
		path := concretePath(pattern)
		t.Run(rt, func(t *testing.T) {
			if doc := openAPIPath(pattern); !documented[method+" "+doc] {
				t.Errorf("docs/openapi.yaml: %s %s does not declare the IdempotencyKey parameter with its 400 and 409", method, doc)
			}
			// Any caller's credentials: the middleware must answer before the handler.
			r := testkit.Req{Token: token, Headers: map[string]string{"Idempotency-Key": malformed,
				"X-Session-Id": "probe-" + uuid.NewString()}, Invalid: true}
			if strings.HasPrefix(pattern, "/api/v1/admin/") {
				r.Token = admin
			}
			e := app.Do(t, method, path, r)
			if e.Status != http.StatusBadRequest || !strings.Contains(string(e.Body), `"field":"Idempotency-Key"`) {
				t.Fatalf("a malformed Idempotency-Key got %d %s: the route does not run the middleware", e.Status, e.Body)
			}
			if strings.HasPrefix(pattern, "/api/v1/admin/") {
				return // adminroute runs the middleware after its guard
			}
			// A storefront customer's key is the customer's, not the session's.
			r.Headers["Idempotency-Key"], r.Body = "probe-"+uuid.NewString(), map[string]any{}
			if a := app.Do(t, method, path, r); a.Status >= 500 || a.Status == http.StatusTooManyRequests {
				t.Fatalf("probe answered %d %s", a.Status, a.Body)
			}
			var callers []string
			app.DB.Raw(`SELECT caller FROM idempotency_keys WHERE method = ? AND route = ? AND key = ?`,
				method, pattern, r.Headers["Idempotency-Key"]).Scan(&callers)
			if len(callers) != 1 {
				t.Fatalf("no key kept for the probe: %q", callers)
			}
			if requiresCustomer(t, app, method, path) && callers[0] != "customer:"+shopper.ID.String() {
				t.Fatalf("the key of a signed-in customer's write is scoped by %q: the middleware runs before the customer is known", callers[0])
			}
		})
	}
	for rt, why := range unkeyedWrites {
		if !seen[rt] {
			t.Errorf("exemption %s (%s) names no route", rt, why)
		}
	}
}

// requiresCustomer reports whether method path answers 401 without a token.
func requiresCustomer(t *testing.T, app *testkit.App, method, path string) bool {
	t.Helper()
	r := app.Do(t, method, path, testkit.Req{Body: map[string]any{}, Invalid: true,
		Headers: map[string]string{"X-Session-Id": "probe-" + uuid.NewString()}})
	return r.Status == http.StatusUnauthorized
}

// keyedOperations returns the operations of docs/openapi.yaml ("METHOD
// /path") that declare the IdempotencyKey parameter (on the operation or
// its path) and document the 400 of a malformed key and the 409 of a
// reused one.
func keyedOperations(t *testing.T) map[string]bool {
	t.Helper()
	type parameter struct {
		Ref string `yaml:"$ref"`
	}
	type operation struct {
		Parameters []parameter    `yaml:"parameters"`
		Responses  map[string]any `yaml:"responses"`
	}
	var raw struct {
		Paths map[string]map[string]yaml.Node `yaml:"paths"`
	}
	if err := yaml.Unmarshal(docs.OpenAPI, &raw); err != nil {
		t.Fatalf("docs/openapi.yaml: %v", err)
	}
	const keyRef = "#/components/parameters/IdempotencyKey"
	out := map[string]bool{}
	for path, item := range raw.Paths {
		var shared []parameter
		if n, ok := item["parameters"]; ok {
			if err := n.Decode(&shared); err != nil {
				t.Fatalf("docs/openapi.yaml %s parameters: %v", path, err)
			}
		}
		for _, method := range []string{"post", "put", "patch", "delete"} {
			n, ok := item[method]
			if !ok {
				continue
			}
			var op operation
			if err := n.Decode(&op); err != nil {
				t.Fatalf("docs/openapi.yaml %s %s: %v", method, path, err)
			}
			keyed := false
			for _, p := range append(shared, op.Parameters...) {
				keyed = keyed || p.Ref == keyRef
			}
			_, bad := op.Responses["400"]
			_, conflict := op.Responses["409"]
			out[strings.ToUpper(method)+" "+path] = keyed && bad && conflict
		}
	}
	return out
}
