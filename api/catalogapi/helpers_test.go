package catalogapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

const admin = "/api/v1/admin"

// env is an app with an admin token; rate limits are lifted so that a test
// can make as many requests as it needs.
type env struct {
	app *testkit.App
	tok string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) {
		c.AdminGeneralRateLimit = 100000
	}))
	_, tok := testkit.MustAdmin(t, app, "admin")
	return &env{app: app, tok: tok}
}

// as returns a copy of e acting as a new admin with role.
func (e *env) as(t *testing.T, role string) *env {
	t.Helper()
	_, tok := testkit.MustAdmin(t, e.app, role)
	return &env{app: e.app, tok: tok}
}

func (e *env) do(t *testing.T, method, path string, body any) *testkit.Response {
	t.Helper()
	return e.app.Do(t, method, admin+path, testkit.Req{Token: e.tok, Body: body})
}

// invalid sends a request that deliberately breaks docs/openapi.yaml (its
// response is still checked against the document).
func (e *env) invalid(t *testing.T, method, path string, body any) *testkit.Response {
	t.Helper()
	return e.app.Do(t, method, admin+path, testkit.Req{Token: e.tok, Body: body, Invalid: true})
}

// create POSTs body to path, expects 201 and returns the object.
func (e *env) create(t *testing.T, path string, body map[string]any) map[string]any {
	t.Helper()
	return e.do(t, http.MethodPost, path, body).Expect(t, http.StatusCreated).Map(t)
}

func (e *env) product(t *testing.T, fields map[string]any) map[string]any {
	t.Helper()
	body := map[string]any{"title": "Tee " + uuid.NewString()[:6], "price": 499.5, "gstRate": 5, "hsnCode": "6109"}
	for k, v := range fields {
		body[k] = v
	}
	return e.create(t, "/products", body)
}

func (e *env) variant(t *testing.T, productID string, fields map[string]any) map[string]any {
	t.Helper()
	body := map[string]any{"sku": "SKU-" + strings.ToUpper(uuid.NewString()[:8]), "inventory": 10}
	for k, v := range fields {
		body[k] = v
	}
	return e.create(t, "/products/"+productID+"/variants", body)
}

func (e *env) category(t *testing.T, fields map[string]any) map[string]any {
	t.Helper()
	body := map[string]any{"name": "Category " + uuid.NewString()[:6]}
	for k, v := range fields {
		body[k] = v
	}
	return e.create(t, "/categories", body)
}

func (e *env) group(t *testing.T) map[string]any {
	t.Helper()
	return e.create(t, "/customer-groups", map[string]any{"name": "Group " + uuid.NewString()[:6]})
}

// exec runs SQL on the app's database.
func (e *env) exec(t *testing.T, sql string, args ...any) {
	t.Helper()
	if err := e.app.DB.Exec(sql, args...).Error; err != nil {
		t.Fatalf("exec %s: %v", sql, err)
	}
}

// orderProduct records an order line for productID, as checkout would.
func (e *env) orderProduct(t *testing.T, productID string) {
	t.Helper()
	e.exec(t, `WITH c AS (INSERT INTO customers (email) VALUES (?) RETURNING id),
		o AS (INSERT INTO orders (customer_id, email, shipping_address, billing_address, subtotal, total, currency, payment_provider, payment_intent_id)
		      SELECT id, 'buyer@example.com', '{}', '{}', 100, 100, 'INR', 'simulator', gen_random_uuid()::text FROM c RETURNING id)
		INSERT INTO order_items (order_id, product_id, title, sku, quantity, unit_price, line_total)
		SELECT id, ?, 'Tee', 'SKU', 1, 100, 100 FROM o`, fmt.Sprintf("buyer-%s@example.com", uuid.NewString()[:8]), productID)
}

// fieldCase is a request that must fail validation naming field.
type fieldCase struct {
	name  string
	body  any
	field string
	issue string
}

func (e *env) expectFields(t *testing.T, method, path string, cases []fieldCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			eb := e.invalid(t, method, path, tc.body).ExpectField(t, tc.field)
			if tc.issue != "" && eb.Error.Details["issue"] != tc.issue {
				t.Fatalf("issue %q, want %q", eb.Error.Details["issue"], tc.issue)
			}
		})
	}
}

// with returns base with fields replaced (nil values delete the key).
func with(base map[string]any, fields map[string]any) map[string]any {
	out := make(map[string]any, len(base)+len(fields))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range fields {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = v
	}
	return out
}

// null is a JSON null in a body built by with (a nil value deletes the key).
type jsonNull struct{}

func (jsonNull) MarshalJSON() ([]byte, error) { return []byte("null"), nil }

var null = jsonNull{}
