package catalogapi_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/taxrule"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

func TestCreateProduct(t *testing.T) {
	e := newEnv(t)
	cat := e.category(t, nil)
	p := e.create(t, "/products", map[string]any{
		"title": "Café Crew Tee", "description": "Soft cotton", "price": 499.5, "gstRate": 0.25,
		"hsnCode": "61091000", "status": "active", "categoryId": cat["id"],
	})
	// A T-shirt (6109) at ₹499.50 is under the GST 2.0 apparel rule: it
	// answers the rule and the 5 % it sells at, whatever gstRate it carries.
	want := map[string]any{"title": "Café Crew Tee", "slug": "cafe-crew-tee", "description": "Soft cotton", "price": 499.5,
		"gstRate": 5.0, "gstRule": taxrule.GST2Apparel.String(), "hsnCode": "61091000", "status": "active", "categoryId": cat["id"],
		"compareAtPrice": nil}
	for k, v := range want {
		if p[k] != v {
			t.Errorf("%s = %v, want %v", k, p[k], v)
		}
	}
	for _, k := range []string{"id", "createdAt", "updatedAt"} {
		if p[k] == nil || p[k] == "" {
			t.Errorf("%s missing", k)
		}
	}

	t.Run("defaults to draft with a generated, de-duplicated slug", func(t *testing.T) {
		p2 := e.create(t, "/products", map[string]any{"title": "Café Crew Tee", "price": 10})
		p3 := e.create(t, "/products", map[string]any{"title": "Café Crew Tee", "price": 10})
		if p2["status"] != "draft" || p2["slug"] != "cafe-crew-tee-2" || p3["slug"] != "cafe-crew-tee-3" {
			t.Fatalf("got %v %v %v", p2["status"], p2["slug"], p3["slug"])
		}
	})
	t.Run("explicit slug taken is 409", func(t *testing.T) {
		eb := e.do(t, http.MethodPost, "/products", map[string]any{"title": "Other", "price": 10, "slug": "cafe-crew-tee"}).
			ExpectError(t, http.StatusConflict, "CONFLICT")
		if eb.Error.Details["field"] != "slug" {
			t.Fatalf("details %v", eb.Error.Details)
		}
	})
	t.Run("product.created is in the outbox", func(t *testing.T) {
		var ev models.Event
		if err := e.app.DB.Where("type = ? AND data->>'id' = ?", "product.created", p["id"]).Take(&ev).Error; err != nil {
			t.Fatalf("event: %v", err)
		}
		var data map[string]any
		if err := json.Unmarshal(ev.Data, &data); err != nil || data["price"] != 499.5 || data["slug"] != "cafe-crew-tee" {
			t.Fatalf("event data %s", ev.Data)
		}
	})
	t.Run("staff may create, viewer may not", func(t *testing.T) {
		e.as(t, "staff").product(t, nil)
		e.as(t, "viewer").do(t, http.MethodPost, "/products", map[string]any{"title": "X", "price": 1}).
			ExpectError(t, http.StatusForbidden, "FORBIDDEN")
	})
}

func TestCreateProductValidation(t *testing.T) {
	e := newEnv(t)
	ok := map[string]any{"title": "Tee", "price": 100, "gstRate": 18, "hsnCode": "6109"}
	e.expectFields(t, http.MethodPost, "/products", []fieldCase{
		{name: "price zero", body: with(ok, map[string]any{"price": 0}), field: "price", issue: "must be greater than 0"},
		{name: "price missing", body: with(ok, map[string]any{"price": nil}), field: "price", issue: "must be greater than 0"},
		{name: "price negative", body: with(ok, map[string]any{"price": -5}), field: "price", issue: "must be greater than 0"},
		{name: "price three decimals", body: with(ok, map[string]any{"price": 1.005}), field: "price"},
		{name: "price as string", body: with(ok, map[string]any{"price": "100"}), field: "price"},
		{name: "gst not a slab", body: with(ok, map[string]any{"gstRate": 7}), field: "gstRate"},
		{name: "gst 0.5", body: with(ok, map[string]any{"gstRate": 0.5}), field: "gstRate"},
		{name: "hsn 5 digits", body: with(ok, map[string]any{"hsnCode": "61091"}), field: "hsnCode"},
		{name: "hsn letters", body: with(ok, map[string]any{"hsnCode": "61AB"}), field: "hsnCode"},
		{name: "status unknown", body: with(ok, map[string]any{"status": "live"}), field: "status"},
		{name: "status archived on create", body: with(ok, map[string]any{"status": "archived"}), field: "status"},
		{name: "category unknown", body: with(ok, map[string]any{"categoryId": uuid.NewString()}), field: "categoryId", issue: "does not exist"},
		{name: "category not a uuid", body: with(ok, map[string]any{"categoryId": "abc"}), field: "categoryId", issue: "must be a UUID"},
		{name: "title missing", body: with(ok, map[string]any{"title": nil}), field: "title", issue: "is required"},
		{name: "title blank", body: with(ok, map[string]any{"title": "   "}), field: "title"},
		{name: "title too long", body: with(ok, map[string]any{"title": strings.Repeat("é", 256)}), field: "title"},
		{name: "title wrong type", body: with(ok, map[string]any{"title": 5}), field: "title", issue: "must be a string"},
		{name: "slug malformed", body: with(ok, map[string]any{"slug": "Not A Slug"}), field: "slug"},
	})
	t.Run("title of 255 characters is fine", func(t *testing.T) {
		e.create(t, "/products", with(ok, map[string]any{"title": strings.Repeat("é", 255)}))
	})
	t.Run("every GST slab is accepted", func(t *testing.T) {
		for _, r := range []any{0, 0.25, 3, 5, 12, 18, 28} {
			e.create(t, "/products", with(ok, map[string]any{"gstRate": r}))
		}
	})
	t.Run("malformed JSON", func(t *testing.T) {
		e.invalid(t, http.MethodPost, "/products", `{"title":`).ExpectError(t, http.StatusBadRequest, "VALIDATION_ERROR")
	})
}

func TestGetProduct(t *testing.T) {
	e := newEnv(t)
	p := e.product(t, nil)
	id := p["id"].(string)
	v := e.variant(t, id, map[string]any{"price": 550, "weight": 0.25, "lowStockThreshold": 3, "size": "M", "color": "Black"})
	col := e.create(t, "/collections", map[string]any{"name": "Summer"})
	e.do(t, http.MethodPost, "/collections/"+col["id"].(string)+"/products/"+id, nil).Expect(t, http.StatusNoContent)
	g := e.group(t)
	e.do(t, http.MethodPatch, "/products/"+id+"/pricing", map[string]any{
		"compareAtPrice": 600, "customerGroupOverrides": map[string]any{g["id"].(string): 450},
	}).Expect(t, http.StatusOK)

	got := e.as(t, "viewer").do(t, http.MethodGet, "/products/"+id, nil).Expect(t, http.StatusOK).Map(t)
	if got["compareAtPrice"] != 600.0 {
		t.Errorf("compareAtPrice %v", got["compareAtPrice"])
	}
	vs := got["variants"].([]any)
	if len(vs) != 1 {
		t.Fatalf("variants %v", vs)
	}
	gv := vs[0].(map[string]any)
	for k, want := range map[string]any{"id": v["id"], "productId": id, "price": 550.0, "inventory": 10.0, "reserved": 0.0,
		"committed": 0.0, "available": 10.0, "lowStockThreshold": 3.0, "size": "M", "color": "Black", "weight": 0.25} {
		if gv[k] != want {
			t.Errorf("variant %s = %v, want %v", k, gv[k], want)
		}
	}
	cols := got["collections"].([]any)
	if len(cols) != 1 || cols[0].(map[string]any)["id"] != col["id"] {
		t.Errorf("collections %v", cols)
	}
	if o := got["customerGroupOverrides"].(map[string]any); o[g["id"].(string)] != 450.0 || len(o) != 1 {
		t.Errorf("overrides %v", o)
	}

	e.do(t, http.MethodGet, "/products/"+uuid.NewString(), nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	e.invalid(t, http.MethodGet, "/products/not-a-uuid", nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
}

func TestUpdateProduct(t *testing.T) {
	e := newEnv(t)
	cat := e.category(t, nil)
	p := e.product(t, map[string]any{"categoryId": cat["id"], "description": "old"})
	path := "/products/" + p["id"].(string)

	got := e.do(t, http.MethodPatch, path, map[string]any{"title": "New title", "price": 12.34}).Expect(t, http.StatusOK).Map(t)
	if got["title"] != "New title" || got["price"] != 12.34 || got["description"] != "old" || got["categoryId"] != cat["id"] || got["slug"] != p["slug"] {
		t.Fatalf("partial update: %v", got)
	}
	t.Run("explicit null clears the category; absent leaves it", func(t *testing.T) {
		got := e.do(t, http.MethodPatch, path, map[string]any{"categoryId": null}).Expect(t, http.StatusOK).Map(t)
		if got["categoryId"] != nil {
			t.Fatalf("categoryId %v", got["categoryId"])
		}
		got = e.do(t, http.MethodPatch, path, map[string]any{"categoryId": cat["id"]}).Expect(t, http.StatusOK).Map(t)
		got = e.do(t, http.MethodPatch, path, map[string]any{"description": ""}).Expect(t, http.StatusOK).Map(t)
		if got["categoryId"] != cat["id"] || got["description"] != "" {
			t.Fatalf("got %v", got)
		}
	})
	e.expectFields(t, http.MethodPatch, path, []fieldCase{
		{name: "null title", body: map[string]any{"title": null}, field: "title", issue: "must not be null"},
		{name: "empty title", body: map[string]any{"title": ""}, field: "title"},
		{name: "price zero", body: map[string]any{"price": 0}, field: "price", issue: "must be greater than 0"},
		{name: "null price", body: map[string]any{"price": null}, field: "price"},
		{name: "bad money", body: map[string]any{"price": 1.234}, field: "price"},
		{name: "gst", body: map[string]any{"gstRate": 10}, field: "gstRate"},
		{name: "hsn", body: map[string]any{"hsnCode": "1"}, field: "hsnCode"},
		{name: "status", body: map[string]any{"status": "gone"}, field: "status"},
		{name: "category unknown", body: map[string]any{"categoryId": uuid.NewString()}, field: "categoryId"},
		{name: "category malformed", body: map[string]any{"categoryId": "x"}, field: "categoryId"},
	})
	t.Run("price above compare-at price", func(t *testing.T) {
		e.do(t, http.MethodPatch, path+"/pricing", map[string]any{"price": 10, "compareAtPrice": 20}).Expect(t, http.StatusOK)
		e.do(t, http.MethodPatch, path, map[string]any{"price": 25}).ExpectField(t, "price")
	})
	t.Run("unknown and malformed ids", func(t *testing.T) {
		e.do(t, http.MethodPatch, "/products/"+uuid.NewString(), map[string]any{"title": "x"}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
		e.invalid(t, http.MethodPatch, "/products/123", map[string]any{"title": "x"}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	})
	t.Run("slug taken", func(t *testing.T) {
		other := e.product(t, nil)
		e.do(t, http.MethodPatch, path, map[string]any{"slug": other["slug"]}).ExpectError(t, http.StatusConflict, "CONFLICT")
	})
}

func TestProductStatusTransitions(t *testing.T) {
	e := newEnv(t)
	tests := []struct {
		from, to string
		status   int
	}{
		{"draft", "active", 200},
		{"draft", "archived", 200},
		{"draft", "draft", 200},
		{"active", "draft", 200},
		{"active", "archived", 200},
		{"archived", "draft", 200},
		{"archived", "active", 409},
		{"archived", "archived", 200},
	}
	for _, tt := range tests {
		t.Run(tt.from+" to "+tt.to, func(t *testing.T) {
			p := e.product(t, nil)
			path := "/products/" + p["id"].(string)
			if tt.from != "draft" {
				e.do(t, http.MethodPatch, path, map[string]any{"status": tt.from}).Expect(t, http.StatusOK)
			}
			r := e.do(t, http.MethodPatch, path, map[string]any{"status": tt.to})
			if tt.status == 409 {
				r.ExpectError(t, http.StatusConflict, "CONFLICT")
				return
			}
			if got := r.Expect(t, http.StatusOK).Map(t)["status"]; got != tt.to {
				t.Fatalf("status %v", got)
			}
		})
	}
}

func TestDeleteProduct(t *testing.T) {
	e := newEnv(t)
	t.Run("without orders it is deleted", func(t *testing.T) {
		p := e.product(t, nil)
		e.variant(t, p["id"].(string), nil)
		e.do(t, http.MethodDelete, "/products/"+p["id"].(string), nil).Expect(t, http.StatusNoContent)
		e.do(t, http.MethodGet, "/products/"+p["id"].(string), nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
		e.do(t, http.MethodDelete, "/products/"+p["id"].(string), nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	})
	t.Run("with orders it is archived", func(t *testing.T) {
		p := e.product(t, map[string]any{"status": "active"})
		e.orderProduct(t, p["id"].(string))
		e.do(t, http.MethodDelete, "/products/"+p["id"].(string), nil).Expect(t, http.StatusNoContent)
		got := e.do(t, http.MethodGet, "/products/"+p["id"].(string), nil).Expect(t, http.StatusOK).Map(t)
		if got["status"] != "archived" {
			t.Fatalf("status %v", got["status"])
		}
	})
	t.Run("with units committed it is archived", func(t *testing.T) {
		p := e.product(t, nil)
		v := e.variant(t, p["id"].(string), nil)
		e.exec(t, `UPDATE variants SET committed = 2 WHERE id = ?`, v["id"])
		e.do(t, http.MethodDelete, "/products/"+p["id"].(string), nil).Expect(t, http.StatusNoContent)
		got := e.do(t, http.MethodGet, "/products/"+p["id"].(string), nil).Expect(t, http.StatusOK).Map(t)
		if got["status"] != "archived" {
			t.Fatalf("status %v", got["status"])
		}
	})
}
