package storeapi_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// address is an order's address snapshot as checkout writes it.
var address = []byte(`{"type":"shipping","street":"12 MG Road","city":"Bengaluru","state":"Karnataka","pincode":"560001","district":"","country":"India"}`)

// mustOrder inserts a paid order of one unit of p for customerID, as the
// payments worker would from a checkout session.
func mustOrder(t *testing.T, db *gorm.DB, customerID uuid.UUID, p *models.Product, created time.Time) *models.Order {
	t.Helper()
	v := p.Variants[0]
	o := &models.Order{ID: uuid.New(), CustomerID: customerID, Status: models.OrderConfirmed, PaymentStatus: models.PaymentPaid,
		Email: "x@example.com", ShippingAddress: address, BillingAddress: address,
		Subtotal: p.Price, TaxTotal: 2376, Total: p.Price, PaidTotal: p.Price, Currency: "INR", PaymentProvider: "simulator",
		PaymentIntentID: "order_sim_" + uuid.NewString()[:8], CreatedAt: created, UpdatedAt: created,
		Items: []models.OrderItem{{ID: uuid.New(), ProductID: &p.ID, VariantID: &v.ID, PricedLine: models.PricedLine{
			Title: p.Title, SKU: v.SKU, Quantity: 1, UnitPrice: p.Price, LineTotal: p.Price, GSTRate: p.GSTRate, TaxAmount: 2376}}},
	}
	if err := db.Create(o).Error; err != nil {
		t.Fatal(err)
	}
	return o
}

func TestOrdersAreOwnOnly(t *testing.T) {
	app := testkit.MustApp(t)
	p := testkit.MustStoreProduct(t, app.DB, testkit.StoreProduct{Price: 49900, GSTRate: 500})
	a, tokenA := testkit.MustCustomer(t, app)
	b, tokenB := testkit.MustCustomer(t, app)
	now := time.Now().UTC()
	older := mustOrder(t, app.DB, a.ID, p, now.Add(-time.Hour))
	newer := mustOrder(t, app.DB, a.ID, p, now)
	ofB := mustOrder(t, app.DB, b.ID, p, now)

	list := app.Do(t, http.MethodGet, "/orders?limit=1", testkit.Req{Token: tokenA}).Expect(t, http.StatusOK).Map(t)
	data := list["data"].([]any)
	if len(data) != 1 || data[0].(map[string]any)["id"] != newer.ID.String() || list["pagination"].(map[string]any)["total"].(float64) != 2 {
		t.Fatalf("A's orders: %v", list)
	}
	o := app.Do(t, http.MethodGet, "/orders/"+older.ID.String(), testkit.Req{Token: tokenA}).Expect(t, http.StatusOK).Map(t)
	for _, k := range []string{"orderNumber", "status", "paymentStatus", "items", "subtotal", "discountTotal", "taxTotal",
		"shippingCost", "total", "currency", "shippingAddress", "createdAt"} {
		if _, ok := o[k]; !ok {
			t.Fatalf("order body lacks %s: %v", k, o)
		}
	}
	if o["total"].(float64) != 499 || o["taxTotal"].(float64) != 23.76 || len(o["items"].([]any)) != 1 ||
		o["shippingAddress"].(map[string]any)["city"] != "Bengaluru" || o["paymentStatus"] != "paid" {
		t.Fatalf("order: %v", o)
	}
	// A asking for B's order gets what an unknown id gets.
	app.Do(t, http.MethodGet, "/orders/"+ofB.ID.String(), testkit.Req{Token: tokenA}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	app.Do(t, http.MethodGet, "/orders/"+uuid.NewString(), testkit.Req{Token: tokenA}).ExpectError(t, http.StatusNotFound, "NOT_FOUND")
	app.Do(t, http.MethodGet, "/orders/"+ofB.ID.String(), testkit.Req{Token: tokenB}).Expect(t, http.StatusOK)
	app.Do(t, http.MethodGet, "/orders", testkit.Req{}).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
	app.Do(t, http.MethodGet, "/orders", guest()).ExpectError(t, http.StatusUnauthorized, "UNAUTHORIZED")
}
