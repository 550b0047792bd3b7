package storeapi_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
)

// Units spread over two selling locations (and more at one that does not
// sell online): concurrent checkouts sell exactly the sum of the selling
// locations, never more, as with one location.
func TestConcurrentCheckoutsOverTwoLocations(t *testing.T) {
	app := testkit.MustApp(t)
	_, admin := testkit.MustAdmin(t, app, string(rbac.Admin))
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Variants: []testkit.StoreVariant{{Inventory: 4}}})
	v := p.Variants[0]
	location := func(code string, online bool) string {
		var l struct{ ID string }
		app.Do(t, http.MethodPost, "/api/v1/admin/locations", testkit.Req{Token: admin, Body: map[string]any{"name": code, "code": code,
			"fulfilsOnline": online, "address": map[string]any{"state": "Karnataka"}}}).Expect(t, http.StatusCreated).JSON(t, &l)
		app.Do(t, http.MethodPatch, "/api/v1/admin/variants/"+v.ID.String()+"/inventory", testkit.Req{Token: admin,
			Body: map[string]any{"operation": "set", "inventory": map[bool]int{true: 6, false: 50}[online], "locationId": l.ID}}).
			Expect(t, http.StatusOK)
		return l.ID
	}
	location("SHOP", true)
	location("BACK", false)

	guests := make([]testkit.Req, 40)
	for i := range guests {
		guests[i] = guest()
		addItem(t, app, guests[i], v.ID, 1)
	}
	statuses := make([]int, len(guests))
	var wg sync.WaitGroup
	for i := range guests {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			statuses[i] = app.Do(t, http.MethodPost, "/orders", withBody(guests[i], guestCheckout(uniqueEmail("spread")))).Status
		}(i)
	}
	wg.Wait()
	count := map[int]int{}
	for _, s := range statuses {
		count[s]++
	}
	if count[http.StatusCreated] != 10 || count[http.StatusConflict] != 30 {
		t.Fatalf("statuses %v, want 10 created (4 + 6 selling units) and 30 conflicts", count)
	}
	if avail, reserved := available(t, app, v.ID); avail != 0 || reserved != 10 {
		t.Fatalf("available %d reserved %d", avail, reserved)
	}
}
