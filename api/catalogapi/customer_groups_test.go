package catalogapi_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
)

func TestCustomerGroups(t *testing.T) {
	e := newEnv(t)
	g := e.create(t, "/customer-groups", map[string]any{"name": "Wholesale", "description": "Trade"})
	path := "/customer-groups/" + g["id"].(string)
	e.exec(t, `INSERT INTO customers (email, customer_group_id) VALUES ('trade@example.com', ?)`, g["id"])

	if d := e.as(t, "viewer").do(t, http.MethodGet, path, nil).Expect(t, http.StatusOK).Map(t); d["customerCount"] != 1.0 || d["name"] != "Wholesale" {
		t.Fatalf("got %v", d)
	}
	got := e.do(t, http.MethodPatch, path, map[string]any{"description": "Trade buyers"}).Expect(t, http.StatusOK).Map(t)
	if got["description"] != "Trade buyers" || got["name"] != "Wholesale" {
		t.Fatalf("got %v", got)
	}
	e.create(t, "/customer-groups", map[string]any{"name": "VIP"})
	var l productList
	e.do(t, http.MethodGet, "/customer-groups", nil).Expect(t, http.StatusOK).JSON(t, &l)
	if l.Pagination.Total != 2 {
		t.Fatalf("list %+v", l.Pagination)
	}
	e.do(t, http.MethodPost, "/customer-groups", map[string]any{"name": "VIP"}).ExpectError(t, http.StatusConflict, "CONFLICT")
	e.do(t, http.MethodPatch, path, map[string]any{"name": "VIP"}).ExpectError(t, http.StatusConflict, "CONFLICT")
	e.expectFields(t, http.MethodPost, "/customer-groups", []fieldCase{
		{name: "name missing", body: map[string]any{"description": "x"}, field: "name", issue: "is required"},
		{name: "name wrong type", body: map[string]any{"name": true}, field: "name"},
	})
	e.expectFields(t, http.MethodPatch, path, []fieldCase{{name: "name null", body: map[string]any{"name": null}, field: "name"}})
	e.as(t, "staff").do(t, http.MethodPost, "/customer-groups", map[string]any{"name": "S"}).ExpectError(t, http.StatusForbidden, "FORBIDDEN")

	t.Run("delete keeps customers, ungrouped", func(t *testing.T) {
		e.do(t, http.MethodDelete, path, nil).Expect(t, http.StatusNoContent)
		var n int64
		e.app.DB.Raw(`SELECT count(*) FROM customers WHERE email = 'trade@example.com' AND customer_group_id IS NULL`).Scan(&n)
		if n != 1 {
			t.Fatal("customer was not kept without a group")
		}
	})
	e.do(t, http.MethodGet, path, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	e.do(t, http.MethodDelete, path, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	e.do(t, http.MethodPatch, "/customer-groups/"+uuid.NewString(), map[string]any{"name": "x"}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
}
