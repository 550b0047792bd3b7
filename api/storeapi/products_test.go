package storeapi_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

func TestProductPagesAreCachedAndInvalidated(t *testing.T) {
	app := testkit.MustApp(t)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Title: "Skillet", Price: 129900, GSTRate: 1200,
		Variants: []testkit.StoreVariant{{Inventory: 4}}})
	path := "/products/" + p.ID.String()
	price := func(m map[string]any) float64 { return m["price"].(float64) }

	first := app.Do(t, http.MethodGet, path, testkit.Req{}).Expect(t, http.StatusOK).Map(t)
	if price(first) != 1299 {
		t.Fatalf("first read: %v", first)
	}
	// A change written without invalidation is not seen: the page is cached...
	app.DB.Model(&models.Product{}).Where("id = ?", p.ID).Update("price", 99900)
	if got := app.Do(t, http.MethodGet, path, testkit.Req{}).Map(t); price(got) != 1299 {
		t.Fatalf("cached read: %v", got)
	}
	list := app.Do(t, http.MethodGet, "/products?limit=5", testkit.Req{}).Map(t)
	// ...and after the catalog's invalidation it is.
	c := app.Cache
	if err := c.Invalidate(context.Background(), "catalog"); err != nil {
		t.Fatal(err)
	}
	if got := app.Do(t, http.MethodGet, path, testkit.Req{}).Map(t); price(got) != 999 {
		t.Fatalf("read after invalidation: %v", got)
	}
	if got := app.Do(t, http.MethodGet, "/products?limit=5", testkit.Req{}).Map(t); price(got["data"].([]any)[0].(map[string]any)) != 999 {
		t.Fatalf("list after invalidation: %v (before: %v)", got, list)
	}

	// Availability is not frozen with the page: a checkout shows at once...
	avail := func() float64 {
		got := app.Do(t, http.MethodGet, path, testkit.Req{}).Map(t)
		if v := got["variants"].([]any)[0].(map[string]any); v["available"] != got["available"] || v["inStock"] != got["inStock"] {
			t.Fatalf("variant and product availability disagree: %v", got)
		}
		return got["available"].(float64)
	}
	g := guest()
	addItem(t, app, g, p.Variants[0].ID, 3)
	app.Do(t, http.MethodPost, "/orders", withBody(g, guestCheckout(uniqueEmail("stock")))).Expect(t, http.StatusCreated)
	if a := avail(); a != 1 {
		t.Fatalf("available after a checkout of 3 of 4: %v", a)
	}
	// ...and so does an inventory edit, which invalidates the catalog.
	app.DB.Model(&models.Variant{}).Where("id = ?", p.Variants[0].ID).Update("inventory", 10)
	if a := avail(); a != 1 {
		t.Fatalf("an edit without invalidation is served from cache until the TTL: %v", a)
	}
	c.Invalidate(context.Background(), "catalog")
	if a := avail(); a != 7 {
		t.Fatalf("available after the inventory edit: %v", a)
	}

	// A customer in a group gets the group's price; guests keep theirs.
	grp := models.CustomerGroup{ID: uuid.New(), Name: "Trade"}
	app.DB.Create(&grp)
	app.DB.Create(&models.ProductGroupPrice{ProductID: p.ID, CustomerGroupID: grp.ID, Price: 80000})
	c.Invalidate(context.Background(), "catalog")
	cu, token := testkit.MustCustomer(t, app)
	app.DB.Model(&models.Customer{}).Where("id = ?", cu.ID).Update("customer_group_id", grp.ID)
	if got := app.Do(t, http.MethodGet, path, testkit.Req{Token: token}).Map(t); price(got) != 800 {
		t.Fatalf("group price: %v", got)
	}
	if got := app.Do(t, http.MethodGet, path, testkit.Req{}).Map(t); price(got) != 999 {
		t.Fatalf("guest price after a group read: %v", got)
	}
	// The cart prices for the group too.
	cart := addItem(t, app, testkit.Req{Token: token}, p.Variants[0].ID, 1)
	if cart["subtotal"].(float64) != 800 {
		t.Fatalf("group cart: %v", cart)
	}
}

func TestProductListQuery(t *testing.T) {
	app := testkit.MustApp(t)
	for i := 0; i < 3; i++ {
		testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{})
	}
	testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Status: models.ProductArchived})
	got := app.Do(t, http.MethodGet, "/products?page=2&limit=2", testkit.Req{}).Expect(t, http.StatusOK).Map(t)
	pg := got["pagination"].(map[string]any)
	if len(got["data"].([]any)) != 1 || pg["total"].(float64) != 3 || pg["totalPages"].(float64) != 2 || pg["page"].(float64) != 2 {
		t.Fatalf("page 2: %v", got)
	}
	app.Do(t, http.MethodGet, "/products?limit=101", testkit.Req{Invalid: true}).ExpectField(t, "limit")
	app.Do(t, http.MethodGet, "/products?page=x", testkit.Req{Invalid: true}).ExpectField(t, "page")
	app.Do(t, http.MethodGet, "/products/no-such-product", testkit.Req{}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
}
