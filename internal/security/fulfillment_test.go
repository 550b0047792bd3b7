package security_test

import (
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

// API1 broken object-level authorization: the fulfilment routes take an
// order id and a fulfilment id; a fulfilment of another order is 404 for
// deliver and cancel, and nothing changes (neither fulfilment, the stock nor
// either order).
func TestFulfillmentOfAnotherOrder(t *testing.T) {
	app := mustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Staff))
	p := fixtures.MustProduct(t, app.DB, "Tee", 50000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	cust := fixtures.MustCustomer(t, app.DB, "Asha")
	mine := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})
	other := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})
	body := map[string]any{"carrier": "Delhivery", "trackingNumber": "DL1",
		"items": []map[string]any{{"orderItemId": other.Items[0].ID, "quantity": 1}}}
	f := app.Do(t, "POST", "/api/v1/admin/orders/"+other.ID.String()+"/fulfillments", testkit.Req{Token: token, Body: body}).
		Expect(t, 201).Map(t)
	before := snapshot(t, app.DB, "fulfillments", "fulfillment_items", "orders", "variants", "events")
	for _, verb := range []string{"deliver", "cancel"} {
		t.Run(verb+" another order's fulfilment", func(t *testing.T) {
			app.Do(t, "POST", "/api/v1/admin/orders/"+mine.ID.String()+"/fulfillments/"+f["id"].(string)+"/"+verb,
				testkit.Req{Token: token}).ExpectError(t, 404, "NOT_FOUND")
			unchanged(t, app.DB, before)
		})
		t.Run(verb+" an unknown fulfilment", func(t *testing.T) {
			app.Do(t, "POST", "/api/v1/admin/orders/"+mine.ID.String()+"/fulfillments/"+uuid.NewString()+"/"+verb,
				testkit.Req{Token: token}).ExpectError(t, 404, "NOT_FOUND")
			unchanged(t, app.DB, before)
		})
	}
	t.Run("ship a line of another order", func(t *testing.T) {
		app.Do(t, "POST", "/api/v1/admin/orders/"+mine.ID.String()+"/fulfillments", testkit.Req{Token: token, Body: body}).
			ExpectField(t, "items[0].orderItemId")
		unchanged(t, app.DB, before)
	})
}
