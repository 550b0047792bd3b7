package storeapi_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// A discount with one use left cannot be spent twice by concurrent
// checkouts: uses are counted at capture, so pending checkouts hold them.
func TestDiscountUsageLimitHoldsUnderConcurrentCheckouts(t *testing.T) {
	app := testkit.MustApp(t)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 100000, Variants: []testkit.StoreVariant{{Inventory: 50}}})
	code, limit := "ONLYONCE", 1
	if err := app.DB.Create(&models.Discount{Code: &code, Type: models.DiscountPercentage, Value: 1000,
		ApplicationType: models.DiscountManual, Scope: models.DiscountScopeOrder, IsActive: true, UsageLimit: &limit}).Error; err != nil {
		t.Fatal(err)
	}
	const shoppers = 6
	reqs := make([]testkit.Req, shoppers)
	for i := range reqs {
		reqs[i] = guest()
		addItem(t, app, reqs[i], p.Variants[0].ID, 1)
		app.Do(t, http.MethodPost, "/cart/discount", withBody(reqs[i], map[string]any{"code": "onlyonce"})).Expect(t, http.StatusOK)
	}
	statuses := make([]int, shoppers)
	var wg sync.WaitGroup
	for i := range reqs {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			statuses[i] = app.Do(t, http.MethodPost, "/orders", withBody(reqs[i], guestCheckout(uniqueEmail("once")))).Status
		}(i)
	}
	wg.Wait()
	created, refused := 0, 0
	for _, s := range statuses {
		switch s {
		case http.StatusCreated:
			created++
		case http.StatusConflict:
			refused++
		default:
			t.Fatalf("unexpected status %d", s)
		}
	}
	if created != 1 || refused != shoppers-1 {
		t.Fatalf("%d checkouts got the one-use discount, %d were refused", created, refused)
	}
	avail, reserved := available(t, app, p.Variants[0].ID)
	if reserved != 1 || avail != 49 {
		t.Fatalf("refused checkouts left stock held: available %d reserved %d", avail, reserved)
	}
}
