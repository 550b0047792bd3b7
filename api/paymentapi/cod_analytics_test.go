package paymentapi_test

import (
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
)

// The order analytics count the range's orders and amounts per way of
// paying (every method present) and the COD orders still unpaid: an online
// order, two COD orders placed at the storefront, one of them paid by a
// recorded payment. paymentMethods is read from the rollups, as revenue is,
// so the test waits for the touches of the orders' days.
func TestAnalyticsPaymentMethodsAndCODOutstanding(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) {
		c.AdminAnalyticsRateLimit = 100000 // the test polls
	}))
	codSettings(t, app, 4900, 0, 3)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 50000, Variants: []testkit.StoreVariant{{Inventory: 10}}})
	onlineOrder(t, app)                             // ₹400, paid by card
	paid := placeCOD(t, app, p.Variants[0].ID, 1)   // ₹500 + ₹49 fee
	unpaid := placeCOD(t, app, p.Variants[0].ID, 2) // ₹1000 + ₹49 fee
	if paid.Total != 54900 || unpaid.Total != 104900 {
		t.Fatalf("COD totals %d and %d", paid.Total, unpaid.Total)
	}

	type methodTotal struct {
		Method string       `json:"method"`
		Orders int64        `json:"orders"`
		Amount money.Amount `json:"amount"`
	}
	var got struct {
		PaymentMethods []methodTotal `json:"paymentMethods"`
		CODOutstanding struct {
			Orders int64        `json:"orders"`
			Amount money.Amount `json:"amount"`
		} `json:"codOutstanding"`
	}
	_, viewer := testkit.MustAdmin(t, app, "viewer")
	read := func() {
		t.Helper()
		app.Do(t, http.MethodGet, "/api/v1/admin/analytics/orders", testkit.Req{Token: viewer}).Expect(t, http.StatusOK).JSON(t, &got)
	}
	read()
	if got.CODOutstanding.Orders != 2 || got.CODOutstanding.Amount != 54900+104900 {
		t.Fatalf("codOutstanding before the payment %+v, want 2 orders of ₹1598", got.CODOutstanding)
	}
	_, staff := testkit.MustAdmin(t, app, "staff")
	app.Do(t, http.MethodPost, "/api/v1/admin/orders/"+paid.ID.String()+"/payments", testkit.Req{Token: staff,
		Body: map[string]any{"method": "cod", "amount": 549, "reference": "DLV-REM-9"}}).Expect(t, http.StatusCreated)
	want := []methodTotal{{"online", 1, 40000}, {"cod", 2, 54900 + 104900}, {"offline", 0, 0}}
	testkit.Eventually(t, 15*time.Second, "the orders' day rolled up", func() bool {
		read()
		return reflect.DeepEqual(got.PaymentMethods, want)
	})
	if got.CODOutstanding.Orders != 1 || got.CODOutstanding.Amount != 104900 {
		t.Fatalf("codOutstanding %+v, want 1 order of ₹1049", got.CODOutstanding)
	}
}
