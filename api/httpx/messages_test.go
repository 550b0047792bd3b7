package httpx_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

// A refused body names the field by its full JSON path (with array
// indexes) and says what is wrong with the value: not the text of a
// library's parser ("4" for a UUID of four characters), not a rule meant
// for another kind ("characters" for a list), not one message for every
// bad amount. Each case goes through a real route, as a client sends it.
func TestValidationMessagesNameTheProblem(t *testing.T) {
	app := testkit.MustApp(t)
	_, tok := testkit.MustAdmin(t, app, "admin")
	customer, _ := testkit.MustCustomer(t, app)
	const admin = "/api/v1/admin"
	orderReturns := admin + "/orders/" + uuid.NewString() + "/returns"
	line := func(fields string) string {
		return `{"orderItemId":"` + uuid.NewString() + `","quantity":1,"reason":"damaged"` + fields + `}`
	}
	group := uuid.NewString()
	manyLines := make([]string, 101)
	for i := range manyLines {
		manyLines[i] = line("")
	}
	tests := []struct {
		name, method, path, body string
		field, issue             string
		key                      string // details.key, for a value of an object keyed by the client
	}{
		{name: "UUID too short", method: "POST", path: orderReturns,
			body:  `{"items":[{"orderItemId":"abcd","quantity":1,"reason":"damaged"}]}`,
			field: "items[0].orderItemId", issue: "must be a UUID"},
		{name: "UUID malformed in the second line", method: "POST", path: orderReturns,
			body:  `{"items":[` + line("") + `,{"orderItemId":"zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz","quantity":1,"reason":"damaged"}]}`,
			field: "items[1].orderItemId", issue: "must be a UUID"},
		{name: "UUID given as a number", method: "POST", path: orderReturns,
			body:  `{"items":[{"orderItemId":5,"quantity":1,"reason":"damaged"}]}`,
			field: "items[0].orderItemId", issue: "must be a UUID"},
		{name: "wrong type in the second line", method: "POST", path: orderReturns,
			body:  `{"items":[` + line("") + `,{"orderItemId":"` + uuid.NewString() + `","quantity":"two","reason":"damaged"}]}`,
			field: "items[1].quantity", issue: "must be an integer"},
		{name: "lines not a list", method: "POST", path: orderReturns,
			body: `{"items":{"quantity":1}}`, field: "items", issue: "must be an array"},
		{name: "no lines", method: "POST", path: orderReturns,
			body: `{"items":[]}`, field: "items", issue: "must have at least 1 item"},
		{name: "too many lines", method: "POST", path: orderReturns,
			body: `{"items":[` + strings.Join(manyLines, ",") + `]}`, field: "items", issue: "must have at most 100 items"},
		{name: "zero units", method: "POST", path: orderReturns,
			body:  `{"items":[{"orderItemId":"` + uuid.NewString() + `","quantity":0,"reason":"damaged"}]}`,
			field: "items[0].quantity", issue: "must be at least 1"},
		{name: "note too long", method: "POST", path: orderReturns,
			body:  `{"items":[` + line("") + `],"note":"` + strings.Repeat("n", 1001) + `"}`,
			field: "note", issue: "must be at most 1000 characters"},
		{name: "UUID in a PATCH field", method: "PATCH", path: admin + "/customers/" + customer.ID.String(),
			body: `{"customerGroupId":"abcd"}`, field: "customerGroupId", issue: "must be a UUID"},

		{name: "price negative", method: "POST", path: admin + "/products",
			body: `{"title":"Tee","price":-1}`, field: "price", issue: "must be greater than 0"},
		{name: "price of 13 digits", method: "POST", path: admin + "/products",
			body: `{"title":"Tee","price":1234567890123}`, field: "price", issue: "must be at most 100000000000"},
		{name: "price of 13 digits, negative", method: "POST", path: admin + "/products",
			body: `{"title":"Tee","price":-1234567890123}`, field: "price", issue: "must be at least -100000000000"},
		{name: "price with 3 decimals", method: "POST", path: admin + "/products",
			body: `{"title":"Tee","price":10.005}`, field: "price", issue: "must have at most 2 decimal places"},
		{name: "price with an exponent", method: "POST", path: admin + "/products",
			body: `{"title":"Tee","price":1e3}`, field: "price", issue: "must be written without an exponent (1000, not 1e3)"},
		{name: "price as a string", method: "POST", path: admin + "/products",
			body: `{"title":"Tee","price":"100"}`, field: "price", issue: "must be a JSON number, not a string"},
		{name: "price as a boolean", method: "POST", path: admin + "/products",
			body: `{"title":"Tee","price":true}`, field: "price", issue: "must be a number"},
		{name: "price in a PATCH field", method: "PATCH", path: admin + "/products/" + uuid.NewString(),
			body: `{"price":1234567890123}`, field: "price", issue: "must be at most 100000000000"},
		{name: "price in a PATCH list", method: "PATCH", path: admin + "/price-lists/" + uuid.NewString(),
			body:  `{"rules":[{"variantId":"` + uuid.NewString() + `","price":10},{"variantId":"` + uuid.NewString() + `","price":0.001}]}`,
			field: "rules[1].price", issue: "must have at most 2 decimal places"},
		{name: "price in an object keyed by group", method: "PATCH", path: admin + "/products/" + uuid.NewString() + "/pricing",
			body:  `{"customerGroupOverrides":{"` + group + `":1.001}}`,
			field: "customerGroupOverrides", issue: "must have at most 2 decimal places", key: group},
		{name: "UUID in a PATCH list", method: "PATCH", path: admin + "/price-lists/" + uuid.NewString(),
			body: `{"rules":[{"variantId":"x","price":10}]}`, field: "rules[0].variantId", issue: "must be a UUID"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := app.Do(t, tt.method, tt.path, testkit.Req{Token: tok, Body: tt.body, Invalid: true})
			e := r.ExpectField(t, tt.field)
			if e.Error.Details["issue"] != tt.issue {
				t.Fatalf("issue %q, want %q; body: %s", e.Error.Details["issue"], tt.issue, r.Body)
			}
			if key, _ := e.Error.Details["key"].(string); key != tt.key {
				t.Fatalf("details.key %q, want %q", key, tt.key)
			}
			if want := tt.field + " " + tt.issue; e.Error.Message != want {
				t.Fatalf("message %q, want %q", e.Error.Message, want)
			}
			if r.Status != http.StatusBadRequest {
				t.Fatalf("status %d", r.Status)
			}
		})
	}
}
