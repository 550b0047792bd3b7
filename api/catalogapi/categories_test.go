package catalogapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
)

func TestCategories(t *testing.T) {
	e := newEnv(t)
	home := e.create(t, "/categories", map[string]any{"name": "Home & Décor", "description": "For the home"})
	if home["slug"] != "home-decor" || home["parentId"] != nil || home["description"] != "For the home" {
		t.Fatalf("got %v", home)
	}
	hid := home["id"].(string)
	kitchen := e.create(t, "/categories", map[string]any{"name": "Kitchen", "parentId": hid, "slug": "kitchen"})
	kid := kitchen["id"].(string)
	if kitchen["parentId"] != hid {
		t.Fatalf("parent %v", kitchen["parentId"])
	}
	pans := e.create(t, "/categories", map[string]any{"name": "Pans", "parentId": kid})
	pid := pans["id"].(string)

	t.Run("generated slugs get a suffix, explicit ones conflict", func(t *testing.T) {
		if c := e.create(t, "/categories", map[string]any{"name": "Home & Decor"}); c["slug"] != "home-decor-2" {
			t.Fatalf("slug %v", c["slug"])
		}
		e.do(t, http.MethodPost, "/categories", map[string]any{"name": "K2", "slug": "kitchen"}).ExpectError(t, http.StatusConflict, "CONFLICT")
		e.do(t, http.MethodPatch, "/categories/"+pid, map[string]any{"slug": "kitchen"}).ExpectError(t, http.StatusConflict, "CONFLICT")
	})
	t.Run("get and list", func(t *testing.T) {
		if g := e.as(t, "viewer").do(t, http.MethodGet, "/categories/"+kid, nil).Expect(t, http.StatusOK).Map(t); g["name"] != "Kitchen" {
			t.Fatalf("got %v", g)
		}
		var l productList
		e.do(t, http.MethodGet, "/categories?parentId="+hid, nil).Expect(t, http.StatusOK).JSON(t, &l)
		if l.Pagination.Total != 1 || l.Data[0].ID != kid {
			t.Fatalf("children %+v", l)
		}
		e.do(t, http.MethodGet, "/categories?limit=2", nil).Expect(t, http.StatusOK).JSON(t, &l)
		if l.Pagination.Total != 4 || len(l.Data) != 2 {
			t.Fatalf("list %+v", l.Pagination)
		}
		e.do(t, http.MethodGet, "/categories/"+uuid.NewString(), nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	})
	t.Run("cycles are refused", func(t *testing.T) {
		e.do(t, http.MethodPatch, "/categories/"+hid, map[string]any{"parentId": pid}).ExpectField(t, "parentId")
		e.do(t, http.MethodPatch, "/categories/"+hid, map[string]any{"parentId": hid}).ExpectField(t, "parentId")
		e.do(t, http.MethodPatch, "/categories/"+kid, map[string]any{"parentId": pid}).ExpectField(t, "parentId")
	})
	t.Run("move and detach", func(t *testing.T) {
		got := e.do(t, http.MethodPatch, "/categories/"+pid, map[string]any{"parentId": hid, "name": "Pots & Pans"}).Expect(t, http.StatusOK).Map(t)
		if got["parentId"] != hid || got["name"] != "Pots & Pans" || got["slug"] != "pans" {
			t.Fatalf("got %v", got)
		}
		got = e.do(t, http.MethodPatch, "/categories/"+pid, map[string]any{"parentId": null}).Expect(t, http.StatusOK).Map(t)
		if got["parentId"] != nil {
			t.Fatalf("got %v", got)
		}
	})
	e.expectFields(t, http.MethodPost, "/categories", []fieldCase{
		{name: "name missing", body: map[string]any{}, field: "name", issue: "is required"},
		{name: "name too long", body: map[string]any{"name": strings.Repeat("n", 256)}, field: "name"},
		{name: "parent unknown", body: map[string]any{"name": "X", "parentId": uuid.NewString()}, field: "parentId", issue: "does not exist"},
		{name: "parent malformed", body: map[string]any{"name": "X", "parentId": "root"}, field: "parentId"},
		{name: "slug malformed", body: map[string]any{"name": "X", "slug": "a--b"}, field: "slug"},
	})
	e.expectFields(t, http.MethodPatch, "/categories/"+kid, []fieldCase{
		{name: "name null", body: map[string]any{"name": null}, field: "name"},
		{name: "name blank", body: map[string]any{"name": " "}, field: "name"},
		{name: "parent unknown", body: map[string]any{"parentId": uuid.NewString()}, field: "parentId"},
		{name: "slug bad", body: map[string]any{"slug": "UPPER"}, field: "slug"},
	})
	t.Run("delete", func(t *testing.T) {
		e.do(t, http.MethodDelete, "/categories/"+hid, nil).ExpectError(t, http.StatusConflict, "CONFLICT") // has Kitchen
		e.product(t, map[string]any{"categoryId": kid})
		e.do(t, http.MethodDelete, "/categories/"+kid, nil).ExpectError(t, http.StatusConflict, "CONFLICT") // has a product
		e.do(t, http.MethodDelete, "/categories/"+pid, nil).Expect(t, http.StatusNoContent)
		e.do(t, http.MethodDelete, "/categories/"+pid, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
		e.do(t, http.MethodPatch, "/categories/"+pid, map[string]any{"name": "x"}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	})
}
