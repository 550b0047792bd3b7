package catalogapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
)

func TestBundles(t *testing.T) {
	e := newEnv(t)
	b := e.create(t, "/bundles", map[string]any{"title": "Starter kit", "description": "Tee and socks", "discountPercent": 12.5})
	if b["isActive"] != true || b["allowMixAndMatch"] != false || b["discountPercent"] != 12.5 || len(b["sets"].([]any)) != 0 {
		t.Fatalf("got %v", b)
	}
	bid := b["id"].(string)
	path := "/bundles/" + bid

	got := e.do(t, http.MethodPatch, path, map[string]any{"allowMixAndMatch": true, "title": "Kit"}).Expect(t, http.StatusOK).Map(t)
	if got["allowMixAndMatch"] != true || got["title"] != "Kit" || got["description"] != "Tee and socks" {
		t.Fatalf("got %v", got)
	}
	e.expectFields(t, http.MethodPost, "/bundles", []fieldCase{
		{name: "title missing", body: map[string]any{}, field: "title"},
		{name: "title too long", body: map[string]any{"title": strings.Repeat("t", 256)}, field: "title"},
		{name: "discount over 100", body: map[string]any{"title": "T", "discountPercent": 101}, field: "discountPercent"},
		{name: "discount negative", body: map[string]any{"title": "T", "discountPercent": -1}, field: "discountPercent"},
		{name: "active not a bool", body: map[string]any{"title": "T", "isActive": "yes"}, field: "isActive"},
	})
	e.expectFields(t, http.MethodPatch, path, []fieldCase{
		{name: "title null", body: map[string]any{"title": null}, field: "title"},
		{name: "title empty", body: map[string]any{"title": ""}, field: "title"},
		{name: "discount", body: map[string]any{"discountPercent": 100.5}, field: "discountPercent"},
	})
	t.Run("list and get", func(t *testing.T) {
		e.create(t, "/bundles", map[string]any{"title": "Off", "isActive": false})
		var l productList
		e.as(t, "viewer").do(t, http.MethodGet, "/bundles", nil).Expect(t, http.StatusOK).JSON(t, &l)
		if l.Pagination.Total != 2 {
			t.Fatalf("list %+v", l.Pagination)
		}
		e.do(t, http.MethodGet, "/bundles?isActive=false", nil).Expect(t, http.StatusOK).JSON(t, &l)
		if l.Pagination.Total != 1 || l.Data[0].Title != "Off" {
			t.Fatalf("list %+v", l)
		}
		e.invalid(t, http.MethodGet, "/bundles?isActive=x", nil).ExpectField(t, "isActive")
		e.do(t, http.MethodGet, "/bundles/"+uuid.NewString(), nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	})
	e.as(t, "staff").do(t, http.MethodPost, "/bundles", map[string]any{"title": "T"}).ExpectError(t, http.StatusForbidden, "FORBIDDEN")
	e.do(t, http.MethodPatch, "/bundles/"+uuid.NewString(), map[string]any{"title": "x"}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
}

func TestBundleSetsAndItems(t *testing.T) {
	e := newEnv(t)
	bid := e.create(t, "/bundles", map[string]any{"title": "Kit"})["id"].(string)
	sets := "/bundles/" + bid + "/sets"
	s := e.create(t, sets, map[string]any{"title": "Tee", "minQuantity": 1, "maxQuantity": 2})
	if s["minQuantity"] != 1.0 || s["maxQuantity"] != 2.0 || s["bundleId"] != bid {
		t.Fatalf("got %v", s)
	}
	if d := e.create(t, sets, map[string]any{"title": "Defaults"}); d["minQuantity"] != 1.0 || d["maxQuantity"] != 1.0 {
		t.Fatalf("defaults %v", d)
	}
	if d := e.create(t, sets, map[string]any{"title": "Three", "minQuantity": 3}); d["maxQuantity"] != 3.0 {
		t.Fatalf("max follows min: %v", d)
	}
	setPath := sets + "/" + s["id"].(string)
	e.expectFields(t, http.MethodPost, sets, []fieldCase{
		{name: "title missing", body: map[string]any{"minQuantity": 1}, field: "title"},
		{name: "min above max", body: map[string]any{"title": "S", "minQuantity": 3, "maxQuantity": 2}, field: "maxQuantity"},
		{name: "min negative", body: map[string]any{"title": "S", "minQuantity": -1}, field: "minQuantity"},
		{name: "max zero", body: map[string]any{"title": "S", "minQuantity": 0, "maxQuantity": 0}, field: "maxQuantity"},
	})
	e.expectFields(t, http.MethodPatch, setPath, []fieldCase{
		{name: "min above stored max", body: map[string]any{"minQuantity": 5}, field: "maxQuantity"},
		{name: "max below stored min", body: map[string]any{"minQuantity": 2, "maxQuantity": 1}, field: "maxQuantity"},
		{name: "title null", body: map[string]any{"title": null}, field: "title"},
	})
	if got := e.do(t, http.MethodPatch, setPath, map[string]any{"maxQuantity": 3, "sortOrder": 5}).Expect(t, http.StatusOK).Map(t); got["maxQuantity"] != 3.0 || got["sortOrder"] != 5.0 {
		t.Fatalf("got %v", got)
	}

	p := e.product(t, map[string]any{"status": "active"})
	v1, v2 := e.variant(t, p["id"].(string), nil)["id"].(string), e.variant(t, p["id"].(string), nil)["id"].(string)
	items := setPath + "/items"
	it := e.create(t, items, map[string]any{"variantId": v1, "isDefault": true})
	if it["quantity"] != 1.0 || it["isDefault"] != true || it["setId"] != s["id"] {
		t.Fatalf("item %v", it)
	}
	itemPath := items + "/" + it["id"].(string)
	e.expectFields(t, http.MethodPost, items, []fieldCase{
		{name: "variant missing", body: map[string]any{}, field: "variantId", issue: "is required"},
		{name: "variant unknown", body: map[string]any{"variantId": uuid.NewString()}, field: "variantId", issue: "does not exist"},
		{name: "variant malformed", body: map[string]any{"variantId": "v"}, field: "variantId"},
		{name: "quantity zero", body: map[string]any{"variantId": v2, "quantity": 0}, field: "quantity"},
	})
	t.Run("a variant appears once per bundle", func(t *testing.T) {
		other := e.create(t, sets, map[string]any{"title": "Other", "minQuantity": 0})
		e.do(t, http.MethodPost, sets+"/"+other["id"].(string)+"/items", map[string]any{"variantId": v1}).ExpectError(t, http.StatusConflict, "CONFLICT")
		e.do(t, http.MethodPost, items, map[string]any{"variantId": v1}).ExpectError(t, http.StatusConflict, "CONFLICT")
	})
	it2 := e.create(t, items, map[string]any{"variantId": v2, "quantity": 2, "sortOrder": 1})
	e.do(t, http.MethodPatch, items+"/"+it2["id"].(string), map[string]any{"variantId": v1}).ExpectError(t, http.StatusConflict, "CONFLICT")
	if got := e.do(t, http.MethodPatch, itemPath, map[string]any{"quantity": 3, "isDefault": false}).Expect(t, http.StatusOK).Map(t); got["quantity"] != 3.0 || got["isDefault"] != false {
		t.Fatalf("got %v", got)
	}
	e.invalid(t, http.MethodPatch, itemPath, map[string]any{"quantity": null}).ExpectField(t, "quantity")

	t.Run("the bundle shows sets, items and the default selection", func(t *testing.T) {
		e.do(t, http.MethodPatch, itemPath, map[string]any{"isDefault": true}).Expect(t, http.StatusOK)
		b := e.do(t, http.MethodGet, "/bundles/"+bid, nil).Expect(t, http.StatusOK).Map(t)
		if len(b["sets"].([]any)) != 4 {
			t.Fatalf("sets %v", b["sets"])
		}
		def := b["defaultSelection"].([]any)
		if len(def) != 1 || def[0].(map[string]any)["variantId"] != v1 || def[0].(map[string]any)["quantity"] != 3.0 {
			t.Fatalf("default selection %v", def)
		}
		set := e.do(t, http.MethodGet, setPath, nil).Expect(t, http.StatusOK).Map(t)
		if len(set["items"].([]any)) != 2 {
			t.Fatalf("items %v", set["items"])
		}
		var l struct{ Data []any }
		e.do(t, http.MethodGet, sets, nil).Expect(t, http.StatusOK).JSON(t, &l)
		if len(l.Data) != 4 {
			t.Fatalf("sets %v", l.Data)
		}
	})
	t.Run("not found", func(t *testing.T) {
		otherBundle := e.create(t, "/bundles", map[string]any{"title": "Other"})["id"].(string)
		e.do(t, http.MethodGet, "/bundles/"+otherBundle+"/sets/"+s["id"].(string), nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
		e.do(t, http.MethodPost, "/bundles/"+otherBundle+"/sets/"+s["id"].(string)+"/items", map[string]any{"variantId": v2}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
		e.do(t, http.MethodPost, "/bundles/"+uuid.NewString()+"/sets", map[string]any{"title": "S"}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
		e.do(t, http.MethodGet, "/bundles/"+uuid.NewString()+"/sets", nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
		e.do(t, http.MethodPatch, items+"/"+uuid.NewString(), map[string]any{"quantity": 1}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
		e.do(t, http.MethodPatch, sets+"/"+uuid.NewString(), map[string]any{"title": "x"}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	})
	t.Run("delete item, set, bundle", func(t *testing.T) {
		e.do(t, http.MethodDelete, itemPath, nil).Expect(t, http.StatusNoContent)
		e.do(t, http.MethodDelete, itemPath, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
		e.do(t, http.MethodDelete, setPath, nil).Expect(t, http.StatusNoContent)
		e.do(t, http.MethodGet, setPath, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
		e.do(t, http.MethodDelete, setPath, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
		e.do(t, http.MethodDelete, "/bundles/"+bid, nil).Expect(t, http.StatusNoContent)
		e.do(t, http.MethodGet, "/bundles/"+bid, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
		e.do(t, http.MethodDelete, "/bundles/"+bid, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	})
	e.as(t, "staff").do(t, http.MethodPost, sets, map[string]any{"title": "S"}).ExpectError(t, http.StatusForbidden, "FORBIDDEN")
}
