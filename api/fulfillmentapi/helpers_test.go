package fulfillmentapi_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// fulfillmentBody is a fulfilment as answered.
type fulfillmentBody struct {
	ID    string `json:"id"`
	Items []struct {
		OrderItemID string `json:"orderItemId"`
		Quantity    int    `json:"quantity"`
	} `json:"items"`
	Carrier        string  `json:"carrier"`
	TrackingNumber string  `json:"trackingNumber"`
	TrackingURL    string  `json:"trackingUrl"`
	Status         string  `json:"status"`
	ShippedAt      string  `json:"shippedAt"`
	DeliveredAt    *string `json:"deliveredAt"`
}

func fulfillmentsPath(o models.Order) string {
	return "/api/v1/admin/orders/" + o.ID.String() + "/fulfillments"
}

// ship posts a fulfilment of lines (nil: every unfulfilled unit) and
// expects 201.
func ship(t *testing.T, app *testkit.App, token string, o models.Order, lines map[uuid.UUID]int, extra map[string]any) fulfillmentBody {
	t.Helper()
	body := map[string]any{"carrier": "Delhivery", "trackingNumber": "DL" + uuid.NewString()[:8],
		"trackingUrl": "https://track.example.com/DL"}
	for k, v := range extra {
		body[k] = v
	}
	if lines != nil {
		var items []map[string]any
		for id, q := range lines {
			items = append(items, map[string]any{"orderItemId": id, "quantity": q})
		}
		body["items"] = items
	}
	var f fulfillmentBody
	app.Do(t, "POST", fulfillmentsPath(o), testkit.Req{Token: token, Body: body}).Expect(t, http.StatusCreated).JSON(t, &f)
	return f
}

// fulfillmentAction posts deliver or cancel of fulfilment id and returns the response.
func fulfillmentAction(t *testing.T, app *testkit.App, token string, o models.Order, id, verb string) *testkit.Response {
	t.Helper()
	return app.Do(t, "POST", fulfillmentsPath(o)+"/"+id+"/"+verb, testkit.Req{Token: token})
}

// stockIs fails t unless v's on-hand, committed and available units are as given.
func stockIs(t *testing.T, app *testkit.App, v models.Variant, onHand, committed, available int) {
	t.Helper()
	got := fixtures.Reload(t, app.DB, v)
	if got.Inventory != onHand || got.Committed != committed || got.Inventory-got.Reserved-got.Committed != available {
		t.Fatalf("variant %s: on hand %d committed %d available %d, want %d/%d/%d", v.SKU, got.Inventory, got.Committed,
			got.Inventory-got.Reserved-got.Committed, onHand, committed, available)
	}
}

// orderIs fails t unless the order's status and fulfillment_status are as given.
func orderIs(t *testing.T, app *testkit.App, o models.Order, status, fulfilment string) {
	t.Helper()
	var got models.Order
	app.DB.Take(&got, "id = ?", o.ID)
	if got.Status != status || got.FulfillmentStatus != fulfilment {
		t.Fatalf("order %s/%s, want %s/%s", got.Status, got.FulfillmentStatus, status, fulfilment)
	}
}

func countEvents(t *testing.T, app *testkit.App, typ string, o models.Order) int64 {
	t.Helper()
	var n int64
	app.DB.Table("events").Where("type = ? AND data->>'orderId' = ?", typ, o.ID.String()).Count(&n)
	return n
}
