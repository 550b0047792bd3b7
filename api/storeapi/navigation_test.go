package storeapi_test

import (
	"fmt"
	"net/http"
	"reflect"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// admin sends an administrator's request to the admin API.
func admin(t *testing.T, app *testkit.App, token, method, path string, body any) *testkit.Response {
	t.Helper()
	return app.Do(t, method, "/api/v1/admin"+path, testkit.Req{Token: token, Body: body})
}

// names lists the "name" of each object in a JSON array.
func names(list any) []string {
	var out []string
	for _, x := range list.([]any) {
		out = append(out, x.(map[string]any)["name"].(string))
	}
	return out
}

// The category tree: every category under its parent, siblings by name;
// served from the cache (a change behind the catalog's back is not seen)
// until a catalog write through the admin API invalidates it.
func TestCategoryTreeIsCachedAndInvalidated(t *testing.T) {
	app := testkit.MustApp(t)
	_, staff := testkit.MustAdmin(t, app, "staff")
	create := func(name string, parent any) string {
		body := map[string]any{"name": name, "description": "All " + name}
		if parent != nil {
			body["parentId"] = parent
		}
		return admin(t, app, staff, http.MethodPost, "/categories", body).Expect(t, http.StatusCreated).Map(t)["id"].(string)
	}
	home := create("Home", nil)
	apparel := create("apparel", nil)
	create("Tees", apparel)
	hoodies := create("Hoodies", apparel)
	create("Zip hoodies", hoodies)

	tree := app.Do(t, http.MethodGet, "/categories", testkit.Req{}).Expect(t, http.StatusOK).Map(t)
	roots := tree["data"].([]any)
	if got := names(roots); !reflect.DeepEqual(got, []string{"apparel", "Home"}) {
		t.Fatalf("top level %v, want by name, case aside", got)
	}
	ap := roots[0].(map[string]any)
	if ap["id"] != apparel || ap["parentId"] != nil || ap["slug"] != "apparel" || ap["description"] != "All apparel" {
		t.Fatalf("apparel: %v", ap)
	}
	kids := ap["children"].([]any)
	if got := names(kids); !reflect.DeepEqual(got, []string{"Hoodies", "Tees"}) {
		t.Fatalf("apparel's children %v", got)
	}
	hood := kids[0].(map[string]any)
	if hood["parentId"] != apparel || names(hood["children"])[0] != "Zip hoodies" {
		t.Fatalf("hoodies: %v", hood)
	}
	if leaf := roots[1].(map[string]any); leaf["id"] != home || len(leaf["children"].([]any)) != 0 {
		t.Fatalf("home: %v", leaf)
	}
	if keys := app.Redis.Keys(t.Context(), "*:categories").Val(); len(keys) != 1 {
		t.Fatalf("the tree in Redis: %v", keys)
	}

	// A change the catalog did not make is not seen: the tree is cached...
	app.DB.Model(&models.Category{}).Where("id = ?", home).Update("name", "Changed behind the cache")
	again := app.Do(t, http.MethodGet, "/categories", testkit.Req{}).Expect(t, http.StatusOK).Map(t)
	if got := names(again["data"]); !reflect.DeepEqual(got, []string{"apparel", "Home"}) {
		t.Fatalf("cached tree %v", got)
	}
	// ...and every catalog write retires it: a rename, a move, a delete.
	admin(t, app, staff, http.MethodPatch, "/categories/"+home, map[string]any{"name": "Kitchen"}).Expect(t, http.StatusOK)
	admin(t, app, staff, http.MethodPatch, "/categories/"+hoodies, map[string]any{"parentId": nil}).Expect(t, http.StatusOK)
	fresh := app.Do(t, http.MethodGet, "/categories", testkit.Req{}).Expect(t, http.StatusOK).Map(t)
	if got := names(fresh["data"]); !reflect.DeepEqual(got, []string{"apparel", "Hoodies", "Kitchen"}) {
		t.Fatalf("tree after the writes %v", got)
	}
	admin(t, app, staff, http.MethodDelete, "/categories/"+home, nil).Expect(t, http.StatusNoContent)
	fresh = app.Do(t, http.MethodGet, "/categories", testkit.Req{}).Expect(t, http.StatusOK).Map(t)
	if got := names(fresh["data"]); !reflect.DeepEqual(got, []string{"apparel", "Hoodies"}) {
		t.Fatalf("tree after the delete %v", got)
	}
}

// Collections: a paged list, and one collection with its active products
// exactly as GET /products lists them, priced for the caller's group;
// cached, and invalidated by the admin API's collection and product writes.
func TestCollectionsAreCachedAndInvalidated(t *testing.T) {
	app := testkit.MustApp(t)
	_, staff := testkit.MustAdmin(t, app, "staff")
	summer := admin(t, app, staff, http.MethodPost, "/collections", map[string]any{"name": "Summer", "slug": "summer",
		"description": "Light things", "imageUrl": "https://cdn.example.com/summer.jpg"}).Expect(t, http.StatusCreated).Map(t)
	admin(t, app, staff, http.MethodPost, "/collections", map[string]any{"name": "Winter"}).Expect(t, http.StatusCreated)
	id := summer["id"].(string)

	older := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Title: "Linen Shirt", Price: 149900, GSTRate: 500})
	newer := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Title: "Straw Hat", Price: 59900, GSTRate: 1200,
		Variants: []testkit.StoreVariant{{Inventory: 3}, {Inventory: 0}}})
	draft := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Title: "Unreleased", Status: models.ProductDraft})
	testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Title: "Not in it"})
	for _, p := range []*models.Product{older, draft, newer} {
		admin(t, app, staff, http.MethodPost, "/collections/"+id+"/products/"+p.ID.String(), nil).Expect(t, http.StatusNoContent)
	}

	list := app.Do(t, http.MethodGet, "/collections?limit=1", testkit.Req{}).Expect(t, http.StatusOK).Map(t)
	if got := names(list["data"]); !reflect.DeepEqual(got, []string{"Winter"}) || list["pagination"].(map[string]any)["total"].(float64) != 2 {
		t.Fatalf("collections, newest first: %v", list)
	}
	all := app.Do(t, http.MethodGet, "/collections", testkit.Req{}).Expect(t, http.StatusOK).Map(t)
	if c := all["data"].([]any)[1].(map[string]any); c["slug"] != "summer" || c["imageUrl"] != "https://cdn.example.com/summer.jpg" ||
		c["description"] != "Light things" || c["id"] != id {
		t.Fatalf("collection in the list: %v", c)
	}

	page := app.Do(t, http.MethodGet, "/collections/summer", testkit.Req{}).Expect(t, http.StatusOK).Map(t)
	if c := page["collection"].(map[string]any); c["id"] != id || c["name"] != "Summer" {
		t.Fatalf("collection: %v", page)
	}
	items := page["data"].([]any)
	if len(items) != 2 || items[0].(map[string]any)["title"] != "Straw Hat" || items[1].(map[string]any)["title"] != "Linen Shirt" ||
		page["pagination"].(map[string]any)["total"].(float64) != 2 {
		t.Fatalf("active products, most recently added first: %v", page)
	}
	// The same item as GET /products answers, field for field.
	catalog := app.Do(t, http.MethodGet, "/products", testkit.Req{}).Expect(t, http.StatusOK).Map(t)
	for _, p := range catalog["data"].([]any) {
		if p.(map[string]any)["id"] == newer.ID.String() && !reflect.DeepEqual(p, items[0]) {
			t.Fatalf("collection item %v\ndiffers from the product list's %v", items[0], p)
		}
	}
	if hat := items[0].(map[string]any); hat["available"].(float64) != 3 || hat["price"].(float64) != 599 {
		t.Fatalf("straw hat: %v", hat)
	}
	second := app.Do(t, http.MethodGet, "/collections/summer?page=2&limit=1", testkit.Req{}).Expect(t, http.StatusOK).Map(t)
	if d := second["data"].([]any); len(d) != 1 || d[0].(map[string]any)["title"] != "Linen Shirt" ||
		second["pagination"].(map[string]any)["totalPages"].(float64) != 2 {
		t.Fatalf("page 2: %v", second)
	}
	if keys := app.Redis.Keys(t.Context(), "*:clist:*").Val(); len(keys) != 1 {
		t.Fatalf("collection pages in Redis: %v, want the first page at the default size only", keys)
	}

	// Cached: changes behind the catalog's back are not seen...
	app.DB.Model(&models.Collection{}).Where("id = ?", id).Update("name", "Renamed behind the cache")
	app.DB.Model(&models.Product{}).Where("id = ?", newer.ID).Update("title", "Retitled behind the cache")
	cached := app.Do(t, http.MethodGet, "/collections/summer", testkit.Req{}).Expect(t, http.StatusOK).Map(t)
	if cached["collection"].(map[string]any)["name"] != "Summer" || cached["data"].([]any)[0].(map[string]any)["title"] != "Straw Hat" {
		t.Fatalf("cached collection: %v", cached)
	}
	if got := names(app.Do(t, http.MethodGet, "/collections", testkit.Req{}).Map(t)["data"]); got[1] != "Summer" {
		t.Fatalf("cached list: %v", got)
	}
	// ...while availability is not frozen with the page: a checkout shows
	// at once, as on /products.
	g := guest()
	addItem(t, app, g, newer.Variants[0].ID, 1)
	app.Do(t, http.MethodPost, "/orders", withBody(g, guestCheckout(uniqueEmail("hat")))).Expect(t, http.StatusCreated)
	cached = app.Do(t, http.MethodGet, "/collections/summer", testkit.Req{}).Expect(t, http.StatusOK).Map(t)
	if hat := cached["data"].([]any)[0].(map[string]any); hat["title"] != "Straw Hat" || hat["available"].(float64) != 2 {
		t.Fatalf("availability on the cached page: %v", hat)
	}

	// Catalog writes retire it: a product taken out, one archived, the
	// collection renamed.
	admin(t, app, staff, http.MethodDelete, "/collections/"+id+"/products/"+older.ID.String(), nil).Expect(t, http.StatusNoContent)
	after := app.Do(t, http.MethodGet, "/collections/summer", testkit.Req{}).Expect(t, http.StatusOK).Map(t)
	if d := after["data"].([]any); len(d) != 1 || d[0].(map[string]any)["title"] != "Retitled behind the cache" ||
		d[0].(map[string]any)["available"].(float64) != 2 || after["collection"].(map[string]any)["name"] != "Renamed behind the cache" {
		t.Fatalf("after removing a product: %v", after)
	}
	admin(t, app, staff, http.MethodPatch, "/products/"+newer.ID.String(), map[string]any{"status": "archived"}).Expect(t, http.StatusOK)
	if d := app.Do(t, http.MethodGet, "/collections/summer", testkit.Req{}).Expect(t, http.StatusOK).Map(t)["data"].([]any); len(d) != 0 {
		t.Fatalf("an archived product is still listed: %v", d)
	}
	admin(t, app, staff, http.MethodPatch, "/collections/"+id, map[string]any{"slug": "summer-sale"}).Expect(t, http.StatusOK)
	app.Do(t, http.MethodGet, "/collections/summer", testkit.Req{}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	app.Do(t, http.MethodGet, "/collections/summer-sale", testkit.Req{}).Expect(t, http.StatusOK)

	app.Do(t, http.MethodGet, "/collections/no-such-collection", testkit.Req{}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	app.Do(t, http.MethodGet, "/collections?limit=101", testkit.Req{Invalid: true}).ExpectField(t, "limit")
	app.Do(t, http.MethodGet, "/collections/summer-sale?page=x", testkit.Req{Invalid: true}).ExpectField(t, "page")
	app.Do(t, http.MethodGet, "/collections/summer-sale", testkit.Req{Token: "not-a-token"}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
}

// A customer in a group sees the group's prices in a collection, while
// guests keep theirs (the cached pages are per group).
func TestCollectionIsPricedForTheCustomerGroup(t *testing.T) {
	app := testkit.MustApp(t)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 100000})
	c := models.Collection{ID: uuid.New(), Name: "Deals", Slug: "deals"}
	app.DB.Create(&c)
	app.DB.Create(&models.CollectionProduct{CollectionID: c.ID, ProductID: p.ID})
	grp := models.CustomerGroup{ID: uuid.New(), Name: "Trade"}
	app.DB.Create(&grp)
	app.DB.Create(&models.ProductGroupPrice{ProductID: p.ID, CustomerGroupID: grp.ID, Price: 80000})
	cu, token := testkit.MustCustomer(t, app)
	app.DB.Model(&models.Customer{}).Where("id = ?", cu.ID).Update("customer_group_id", grp.ID)

	price := func(r testkit.Req) float64 {
		page := app.Do(t, http.MethodGet, "/collections/deals", r).Expect(t, http.StatusOK).Map(t)
		return page["data"].([]any)[0].(map[string]any)["price"].(float64)
	}
	if got := price(testkit.Req{}); got != 1000 {
		t.Fatalf("guest price %v", got)
	}
	if got := price(testkit.Req{Token: token}); got != 800 {
		t.Fatalf("group price %v", got)
	}
	if got := price(testkit.Req{}); got != 1000 {
		t.Fatalf("guest price after a group read %v", got)
	}
}

// Unknown slugs, deep pages and odd page sizes of collections are answered
// but add no key to Redis: its keys are bounded by the catalog.
func TestRandomCollectionReadsDoNotGrowRedis(t *testing.T) {
	app := testkit.MustApp(t)
	c := models.Collection{ID: uuid.New(), Name: "Deals", Slug: "deals"}
	app.DB.Create(&c)
	app.DB.Create(&models.CollectionProduct{CollectionID: c.ID, ProductID: testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{}).ID})
	for _, path := range []string{"/categories", "/collections", "/collections/deals"} {
		app.Do(t, http.MethodGet, path, testkit.Req{}).Expect(t, http.StatusOK)
	}
	before := app.Redis.DBSize(t.Context()).Val()
	for i := range 50 {
		app.Do(t, http.MethodGet, "/collections/"+uuid.NewString(), testkit.Req{}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
		app.Do(t, http.MethodGet, fmt.Sprintf("/collections/deals?page=%d", 6+i), testkit.Req{}).Expect(t, http.StatusOK)
		app.Do(t, http.MethodGet, fmt.Sprintf("/collections?limit=%d", 1+i), testkit.Req{}).Expect(t, http.StatusOK)
	}
	if after := app.Redis.DBSize(t.Context()).Val(); after != before {
		t.Fatalf("Redis grew from %d to %d keys: %v", before, after, app.Redis.Keys(t.Context(), "*").Val())
	}
}
