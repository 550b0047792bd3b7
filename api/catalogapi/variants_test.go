package catalogapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/uuid"
)

func TestCreateVariant(t *testing.T) {
	e := newEnv(t)
	p := e.product(t, nil)
	path := "/products/" + p["id"].(string) + "/variants"
	v := e.create(t, path, map[string]any{"sku": "TEE-M-BLK", "price": 520, "inventory": 7, "size": "M", "color": "Black", "weight": 0.2})
	for k, want := range map[string]any{"productId": p["id"], "sku": "TEE-M-BLK", "price": 520.0, "inventory": 7.0, "available": 7.0,
		"reserved": 0.0, "committed": 0.0, "lowStockThreshold": nil, "size": "M", "color": "Black", "weight": 0.2} {
		if v[k] != want {
			t.Errorf("%s = %v, want %v", k, v[k], want)
		}
	}
	t.Run("without a price the product price applies", func(t *testing.T) {
		v := e.create(t, path, map[string]any{"sku": "TEE-L"})
		if v["price"] != nil || v["inventory"] != 0.0 {
			t.Fatalf("got %v", v)
		}
	})
	t.Run("duplicate SKU is 409", func(t *testing.T) {
		other := e.product(t, nil)
		eb := e.do(t, http.MethodPost, "/products/"+other["id"].(string)+"/variants", map[string]any{"sku": "TEE-M-BLK"}).
			ExpectError(t, http.StatusConflict, "CONFLICT")
		if eb.Error.Details["field"] != "sku" {
			t.Fatalf("details %v", eb.Error.Details)
		}
	})
	t.Run("unknown product is 404", func(t *testing.T) {
		e.do(t, http.MethodPost, "/products/"+uuid.NewString()+"/variants", map[string]any{"sku": "X-1"}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	})
	e.expectFields(t, http.MethodPost, path, []fieldCase{
		{name: "sku missing", body: map[string]any{}, field: "sku", issue: "is required"},
		{name: "sku too long", body: map[string]any{"sku": strings.Repeat("A", 65)}, field: "sku"},
		{name: "sku padded", body: map[string]any{"sku": " A1 "}, field: "sku"},
		{name: "price zero", body: map[string]any{"sku": "A1", "price": 0}, field: "price", issue: "must be greater than 0"},
		{name: "inventory negative", body: map[string]any{"sku": "A1", "inventory": -1}, field: "inventory"},
		{name: "inventory fractional", body: map[string]any{"sku": "A1", "inventory": 1.5}, field: "inventory"},
		{name: "threshold negative", body: map[string]any{"sku": "A1", "lowStockThreshold": -1}, field: "lowStockThreshold"},
		{name: "weight negative", body: map[string]any{"sku": "A1", "weight": -1}, field: "weight"},
		{name: "weight four decimals", body: map[string]any{"sku": "A1", "weight": 0.1234}, field: "weight"},
		{name: "weight string", body: map[string]any{"sku": "A1", "weight": "1"}, field: "weight"},
		{name: "size too long", body: map[string]any{"sku": "A1", "size": strings.Repeat("s", 101)}, field: "size"},
	})
}

func TestUpdateAndDeleteVariant(t *testing.T) {
	e := newEnv(t)
	p := e.product(t, nil)
	v := e.variant(t, p["id"].(string), map[string]any{"price": 300, "weight": 1.5, "lowStockThreshold": 2, "color": "Red"})
	path := "/variants/" + v["id"].(string)

	got := e.do(t, http.MethodPatch, path, map[string]any{"price": null, "weight": null, "lowStockThreshold": null, "size": "XL"}).
		Expect(t, http.StatusOK).Map(t)
	if got["price"] != nil || got["weight"] != nil || got["lowStockThreshold"] != nil || got["size"] != "XL" || got["color"] != "Red" {
		t.Fatalf("got %v", got)
	}
	got = e.do(t, http.MethodPatch, path, map[string]any{"inventory": 4, "sku": "NEW-SKU"}).Expect(t, http.StatusOK).Map(t)
	if got["inventory"] != 4.0 || got["sku"] != "NEW-SKU" {
		t.Fatalf("got %v", got)
	}
	if g := e.do(t, http.MethodGet, path, nil).Expect(t, http.StatusOK).Map(t); g["sku"] != "NEW-SKU" {
		t.Fatalf("get %v", g)
	}
	e.expectFields(t, http.MethodPatch, path, []fieldCase{
		{name: "sku null", body: map[string]any{"sku": null}, field: "sku"},
		{name: "sku empty", body: map[string]any{"sku": ""}, field: "sku"},
		{name: "price zero", body: map[string]any{"price": 0}, field: "price"},
		{name: "inventory null", body: map[string]any{"inventory": null}, field: "inventory"},
		{name: "inventory negative", body: map[string]any{"inventory": -2}, field: "inventory"},
		{name: "weight bad", body: map[string]any{"weight": -0.5}, field: "weight"},
	})
	t.Run("SKU taken", func(t *testing.T) {
		other := e.variant(t, p["id"].(string), nil)
		e.do(t, http.MethodPatch, path, map[string]any{"sku": other["sku"]}).ExpectError(t, http.StatusConflict, "CONFLICT")
	})
	t.Run("inventory below committed", func(t *testing.T) {
		e.exec(t, `UPDATE variants SET committed = 3 WHERE id = ?`, v["id"])
		e.do(t, http.MethodPatch, path, map[string]any{"inventory": 2}).ExpectError(t, http.StatusConflict, "CONFLICT")
	})
	t.Run("delete refuses committed units", func(t *testing.T) {
		e.do(t, http.MethodDelete, path, nil).ExpectError(t, http.StatusConflict, "CONFLICT")
		e.exec(t, `UPDATE variants SET committed = 0 WHERE id = ?`, v["id"])
		e.do(t, http.MethodDelete, path, nil).Expect(t, http.StatusNoContent)
		e.do(t, http.MethodGet, path, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	})
	t.Run("unknown variant", func(t *testing.T) {
		unknown := "/variants/" + uuid.NewString()
		e.do(t, http.MethodPatch, unknown, map[string]any{"size": "S"}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
		e.do(t, http.MethodDelete, unknown, nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
		e.invalid(t, http.MethodGet, "/variants/nope", nil).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	})
}
