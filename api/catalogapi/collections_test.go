package catalogapi_test

import (
	"net/http"
	"testing"

	"github.com/google/uuid"
)

func TestCollections(t *testing.T) {
	e := newEnv(t)
	c := e.create(t, "/collections", map[string]any{"name": "Summer Sale", "description": "Hot", "imageUrl": "https://cdn.example.com/s.jpg"})
	if c["slug"] != "summer-sale" || c["imageUrl"] != "https://cdn.example.com/s.jpg" {
		t.Fatalf("got %v", c)
	}
	cid := c["id"].(string)
	path := "/collections/" + cid

	t.Run("update", func(t *testing.T) {
		got := e.do(t, http.MethodPatch, path, map[string]any{"name": "Summer", "imageUrl": ""}).Expect(t, http.StatusOK).Map(t)
		if got["name"] != "Summer" || got["imageUrl"] != "" || got["description"] != "Hot" {
			t.Fatalf("got %v", got)
		}
	})
	t.Run("add and remove products idempotently", func(t *testing.T) {
		p1, p2 := e.product(t, nil)["id"].(string), e.product(t, nil)["id"].(string)
		for i := 0; i < 2; i++ {
			e.do(t, http.MethodPost, path+"/products/"+p1, nil).Expect(t, http.StatusNoContent)
		}
		e.do(t, http.MethodPost, path+"/products/"+p2, nil).Expect(t, http.StatusNoContent)
		var l productList
		e.do(t, http.MethodGet, path+"/products", nil).Expect(t, http.StatusOK).JSON(t, &l)
		if l.Pagination.Total != 2 || l.Data[0].ID != p2 {
			t.Fatalf("products %+v", l)
		}
		if d := e.do(t, http.MethodGet, path, nil).Expect(t, http.StatusOK).Map(t); d["productCount"] != 2.0 {
			t.Fatalf("detail %v", d)
		}
		for i := 0; i < 2; i++ {
			e.do(t, http.MethodDelete, path+"/products/"+p1, nil).Expect(t, http.StatusNoContent)
		}
		e.do(t, http.MethodGet, path+"/products", nil).Expect(t, http.StatusOK).JSON(t, &l)
		if l.Pagination.Total != 1 || l.Data[0].ID != p2 {
			t.Fatalf("products %+v", l)
		}
		e.do(t, http.MethodPost, path+"/products/"+uuid.NewString(), nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
		e.do(t, http.MethodPost, "/collections/"+uuid.NewString()+"/products/"+p1, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
		e.do(t, http.MethodGet, "/collections/"+uuid.NewString()+"/products", nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	})
	t.Run("list", func(t *testing.T) {
		e.create(t, "/collections", map[string]any{"name": "Winter", "slug": "winter"})
		var l productList
		e.do(t, http.MethodGet, "/collections", nil).Expect(t, http.StatusOK).JSON(t, &l)
		if l.Pagination.Total != 2 {
			t.Fatalf("list %+v", l.Pagination)
		}
	})
	e.expectFields(t, http.MethodPost, "/collections", []fieldCase{
		{name: "name missing", body: map[string]any{}, field: "name"},
		{name: "image not a URL", body: map[string]any{"name": "X", "imageUrl": "not a url"}, field: "imageUrl"},
		{name: "image not http", body: map[string]any{"name": "X", "imageUrl": "ftp://x/y.png"}, field: "imageUrl"},
		{name: "slug bad", body: map[string]any{"name": "X", "slug": "-x"}, field: "slug"},
	})
	e.expectFields(t, http.MethodPatch, path, []fieldCase{
		{name: "name null", body: map[string]any{"name": null}, field: "name"},
		{name: "image bad", body: map[string]any{"imageUrl": "javascript:alert(1)"}, field: "imageUrl"},
	})
	e.do(t, http.MethodPost, "/collections", map[string]any{"name": "W", "slug": "winter"}).ExpectError(t, http.StatusConflict, "CONFLICT")
	e.do(t, http.MethodPatch, path, map[string]any{"slug": "winter"}).ExpectError(t, http.StatusConflict, "CONFLICT")
	e.do(t, http.MethodDelete, path, nil).Expect(t, http.StatusNoContent)
	e.do(t, http.MethodGet, path, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	e.do(t, http.MethodPatch, path, map[string]any{"name": "x"}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	e.do(t, http.MethodDelete, path, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
}
