package catalogapi_test

import (
	"net/http"
	"testing"
)

// Staff edit products and variants but not what they sell for: a price in a
// PATCH body, or in a new variant's body, needs pricing.write (403 naming
// the field), and nothing changes. The same bodies without the price work
// for staff; admins change prices as before.
func TestStaffCannotChangePrices(t *testing.T) {
	e := newEnv(t)
	staff := e.as(t, "staff")
	p := e.product(t, nil)
	v := e.variant(t, p["id"].(string), map[string]any{"price": 300})
	productPath, variantPath := "/products/"+p["id"].(string), "/variants/"+v["id"].(string)
	price := func(path string) any {
		return e.do(t, http.MethodGet, path, nil).Expect(t, http.StatusOK).Map(t)["price"]
	}

	refused := []struct {
		name, method, path string
		body               map[string]any
		// invalid marks a body docs/openapi.yaml refuses (a product's
		// price is never null): the field check still comes first.
		invalid bool
	}{
		{"product price", http.MethodPatch, productPath, map[string]any{"price": 1}, false},
		{"product price with other fields", http.MethodPatch, productPath, map[string]any{"title": "Sale", "price": 1}, false},
		{"product price in another case", http.MethodPatch, productPath, map[string]any{"PRICE": 1}, false},
		{"product price null", http.MethodPatch, productPath, map[string]any{"price": null}, true},
		{"variant price", http.MethodPatch, variantPath, map[string]any{"price": 1}, false},
		{"variant price null", http.MethodPatch, variantPath, map[string]any{"price": null}, false},
		{"new variant with a price", http.MethodPost, productPath + "/variants", map[string]any{"sku": "CHEAP-1", "price": 1}, false},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			send := staff.do
			if tc.invalid {
				send = staff.invalid
			}
			eb := send(t, tc.method, tc.path, tc.body).ExpectError(t, http.StatusForbidden, "FORBIDDEN")
			if eb.Error.Details["field"] != "price" {
				t.Fatalf("details %v, want field price", eb.Error.Details)
			}
		})
	}
	if got := price(productPath); got != 499.5 {
		t.Fatalf("product price %v after staff requests, want 499.5", got)
	}
	if got := price(variantPath); got != 300.0 {
		t.Fatalf("variant price %v after staff requests, want 300", got)
	}
	var cheap int64
	e.app.DB.Table("variants").Where("sku = ?", "CHEAP-1").Count(&cheap)
	if cheap != 0 {
		t.Fatal("staff created a variant with its own price")
	}

	t.Run("staff edit everything else", func(t *testing.T) {
		got := staff.do(t, http.MethodPatch, productPath, map[string]any{"title": "Renamed"}).Expect(t, http.StatusOK).Map(t)
		if got["title"] != "Renamed" || got["price"] != 499.5 {
			t.Fatalf("product %v", got)
		}
		got = staff.do(t, http.MethodPatch, variantPath, map[string]any{"color": "Blue", "inventory": 12}).Expect(t, http.StatusOK).Map(t)
		if got["color"] != "Blue" || got["inventory"] != 12.0 || got["price"] != 300.0 {
			t.Fatalf("variant %v", got)
		}
		got = staff.create(t, productPath+"/variants", map[string]any{"sku": "PLAIN-1"})
		if got["price"] != nil {
			t.Fatalf("new variant %v", got)
		}
		// A new product needs a price: catalog.write sets the first one.
		staff.product(t, nil)
	})
	t.Run("admins change prices", func(t *testing.T) {
		e.do(t, http.MethodPatch, productPath, map[string]any{"price": 450}).Expect(t, http.StatusOK)
		e.do(t, http.MethodPatch, variantPath, map[string]any{"price": 280}).Expect(t, http.StatusOK)
		if price(productPath) != 450.0 || price(variantPath) != 280.0 {
			t.Fatalf("prices %v, %v", price(productPath), price(variantPath))
		}
	})
}
