package catalogapi

import (
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gofiber/fiber/v2"
)

// staffBodies maps every catalog route staff may call, DELETEs aside, to
// the request type its handler binds (nil: it reads no body). A new staff
// route must be added here, so that the check below sees its fields.
var staffBodies = map[string]any{
	"POST /products":                                      productRequest{},
	"PATCH /products/:productId":                          productPatchRequest{},
	"POST /products/:productId/variants":                  variantRequest{},
	"PATCH /variants/:variantId":                          variantPatchRequest{},
	"PATCH /variants/:variantId/inventory":                inventoryRequest{},
	"POST /variants/:variantId/inventory/adjust":          inventoryChangeRequest{},
	"POST /categories":                                    categoryRequest{},
	"PATCH /categories/:categoryId":                       categoryPatchRequest{},
	"POST /collections":                                   collectionRequest{},
	"PATCH /collections/:collectionId":                    collectionPatchRequest{},
	"POST /collections/:collectionId/products/:productId": nil,
	"POST /products/bulk-status":                          bulkStatusRequest{},
}

// firstPriceAllowed lists the money fields catalog.write may set without
// pricing.write: a new product needs its price (docs/DECISIONS.md).
var firstPriceAllowed = map[string]bool{"POST /products price": true}

// TestStaffRoutesGuardEveryPriceField keeps staff from changing prices, as a class:
// every money-typed field of a body that a role below pricing.write may
// send is declared with adminroute.FieldPermission(rbac.PricingWrite, …).
func TestStaffRoutesGuardEveryPriceField(t *testing.T) {
	const prefix = "/api/v1/admin"
	app := fiber.New()
	r := adminroute.New(app.Group(prefix), prefix, &adminroute.Guard{})
	registerCatalog(r, &handlers{})
	for _, rt := range r.Routes() {
		if !rt.Mutating() || !rbac.Allows(rbac.Staff, rt.Permission) {
			continue
		}
		key := rt.Method + " " + strings.TrimPrefix(rt.Path, prefix)
		body, ok := staffBodies[key]
		if !ok && rt.Method != http.MethodDelete {
			t.Errorf("%s: staff may call it; add its request type to staffBodies", key)
		}
		if body == nil {
			continue
		}
		guarded := map[string]bool{}
		for _, f := range rt.Fields {
			if f.Permission == rbac.PricingWrite {
				guarded[f.Field] = true
			}
		}
		typ := reflect.TypeOf(body)
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if holdsMoney(f.Type, map[reflect.Type]bool{}) && !guarded[name] && !firstPriceAllowed[key+" "+name] {
				t.Errorf("%s: money field %q is not declared with pricing.write", key, name)
			}
		}
	}
}

var amountType = reflect.TypeOf(money.Amount(0))

// holdsMoney reports whether t is or contains a money.Amount.
func holdsMoney(t reflect.Type, seen map[reflect.Type]bool) bool {
	if t == amountType {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return holdsMoney(t.Elem(), seen)
	case reflect.Map:
		return holdsMoney(t.Key(), seen) || holdsMoney(t.Elem(), seen)
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			if holdsMoney(t.Field(i).Type, seen) {
				return true
			}
		}
	}
	return false
}
