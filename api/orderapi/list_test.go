package orderapi_test

import (
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

type listBody struct {
	Data []struct {
		ID            string  `json:"id"`
		OrderNumber   string  `json:"orderNumber"`
		Status        string  `json:"status"`
		PaymentMethod string  `json:"paymentMethod"`
		CustomerID    string  `json:"customerId"`
		ItemCount     int     `json:"itemCount"`
		Total         float64 `json:"total"`
		Currency      string  `json:"currency"`
		CreatedAt     string  `json:"createdAt"`
	} `json:"data"`
	Pagination struct {
		Page, Limit, Total, TotalPages int
		NextCursor                     *string
	} `json:"pagination"`
}

func TestListOrdersFiltersAndPages(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Viewer))
	p := fixtures.MustProduct(t, app.DB, "Bag", 20000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 1000)
	a := fixtures.MustCustomer(t, app.DB, "A")
	b := fixtures.MustCustomer(t, app.DB, "B")
	day := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	var orders []models.Order
	for i := 0; i < 25; i++ {
		cust, status := a, "confirmed"
		if i%5 == 0 {
			cust, status = b, "shipped"
		}
		orders = append(orders, fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: cust, Status: status,
			CreatedAt: day.AddDate(0, 0, i), Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1 + i%3}}}))
	}
	get := func(q string) listBody {
		var lb listBody
		app.Do(t, "GET", "/api/v1/admin/orders"+q, testkit.Req{Token: token}).Expect(t, 200).JSON(t, &lb)
		return lb
	}
	tests := []struct {
		name, query string
		rows, total int
		first       string
		pages       int
	}{
		{"default page", "", 20, 25, orders[24].ID.String(), 2},
		{"second page", "?page=2", 5, 25, orders[4].ID.String(), 2},
		{"past the end", "?page=9", 0, 25, "", 2},
		{"full small pages", "?limit=5&page=2", 5, 25, orders[19].ID.String(), 5},
		{"status", "?status=shipped", 5, 5, orders[20].ID.String(), 1},
		{"customer", "?customerId=" + b.ID.String(), 5, 5, orders[20].ID.String(), 1},
		{"customer and status", "?customerId=" + a.ID.String() + "&status=shipped", 0, 0, "", 0},
		{"order number", "?orderNumber=" + orders[3].OrderNumber, 1, 1, orders[3].ID.String(), 1},
		{"order number lower case", "?orderNumber=" + strings.ToLower(orders[3].OrderNumber), 1, 1, orders[3].ID.String(), 1},
		{"dates inclusive", "?dateFrom=2026-03-02&dateTo=2026-03-04", 3, 3, orders[3].ID.String(), 1},
		{"one day", "?dateFrom=2026-03-25&dateTo=2026-03-25", 1, 1, orders[24].ID.String(), 1},
		{"from only", "?dateFrom=2026-03-24", 2, 2, orders[24].ID.String(), 1},
		{"to only, full page", "?dateTo=2026-03-10&limit=3", 3, 10, orders[9].ID.String(), 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lb := get(tt.query)
			if len(lb.Data) != tt.rows || lb.Pagination.Total != tt.total || lb.Pagination.TotalPages != tt.pages {
				t.Fatalf("rows %d total %d pages %d, want %d %d %d", len(lb.Data), lb.Pagination.Total,
					lb.Pagination.TotalPages, tt.rows, tt.total, tt.pages)
			}
			if tt.first != "" && lb.Data[0].ID != tt.first {
				t.Fatalf("first row %s, want %s", lb.Data[0].ID, tt.first)
			}
		})
	}
	row := get("?orderNumber=" + orders[4].OrderNumber).Data[0]
	if row.ItemCount != 1 || row.Total != 400 || row.Currency != "INR" || row.CreatedAt != "2026-03-05T10:00:00Z" {
		t.Fatalf("row %+v", row)
	}

	bad := []struct{ query, field string }{
		{"?dateFrom=2026-03-05&dateTo=2026-03-04", "dateFrom"},
		{"?dateFrom=2026-13-01", "dateFrom"},
		{"?dateTo=yesterday", "dateTo"},
		{"?status=lost", "status"},
		{"?customerId=42", "customerId"},
		{"?limit=101", "limit"},
		{"?page=0", "page"},
	}
	for _, bq := range bad {
		app.Do(t, "GET", "/api/v1/admin/orders"+bq.query, testkit.Req{Token: token, Invalid: true}).ExpectField(t, bq.field)
	}
}

func TestGetOrderDetail(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Admin))
	p := fixtures.MustProduct(t, app.DB, "Scarf", 45050)
	v := fixtures.MustVariant(t, app.DB, p.ID, 10)
	o := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, app.DB, "E"),
		Shipping: 5000, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})
	app.Do(t, "POST", "/api/v1/admin/orders/"+o.ID.String()+"/refund", testkit.Req{Token: token,
		Body: map[string]any{"amount": 100.5, "reason": "late", "initiatePaymentRefund": true}}).Expect(t, 200)
	app.Do(t, "PATCH", "/api/v1/admin/orders/"+o.ID.String()+"/status", testkit.Req{Token: token,
		Body: map[string]any{"status": "processing", "note": "picked"}}).Expect(t, 200)

	var d struct {
		OrderNumber     string         `json:"orderNumber"`
		Status          string         `json:"status"`
		PaymentStatus   string         `json:"paymentStatus"`
		Total           float64        `json:"total"`
		PaidTotal       float64        `json:"paidTotal"`
		RefundedTotal   float64        `json:"refundedTotal"`
		ShippingAddress map[string]any `json:"shippingAddress"`
		BillingAddress  map[string]any `json:"billingAddress"`
		Items           []struct {
			SKU       string  `json:"sku"`
			Quantity  int     `json:"quantity"`
			LineTotal float64 `json:"lineTotal"`
		} `json:"items"`
		Payments []struct {
			PaymentID string  `json:"paymentId"`
			Amount    float64 `json:"amount"`
		} `json:"payments"`
		Refunds []struct {
			Amount           float64 `json:"amount"`
			Reason           string  `json:"reason"`
			ProviderRefundID *string `json:"providerRefundId"`
		} `json:"refunds"`
		History []struct {
			ToStatus string `json:"toStatus"`
			Note     string `json:"note"`
		} `json:"history"`
	}
	app.Do(t, "GET", "/api/v1/admin/orders/"+o.ID.String(), testkit.Req{Token: token}).Expect(t, 200).JSON(t, &d)
	if d.OrderNumber != o.OrderNumber || d.Status != "processing" || d.PaymentStatus != "partially_refunded" ||
		d.Total != 951 || d.PaidTotal != 951 || d.RefundedTotal != 100.5 {
		t.Fatalf("detail %+v", d)
	}
	if d.ShippingAddress["city"] != "Bengaluru" || d.BillingAddress["pincode"] != "560001" {
		t.Fatalf("addresses %v %v", d.ShippingAddress, d.BillingAddress)
	}
	if len(d.Items) != 1 || d.Items[0].Quantity != 2 || d.Items[0].LineTotal != 901 || d.Items[0].SKU != v.SKU {
		t.Fatalf("items %+v", d.Items)
	}
	if len(d.Payments) != 1 || d.Payments[0].Amount != 951 || d.Payments[0].PaymentID == "" {
		t.Fatalf("payments %+v", d.Payments)
	}
	if len(d.Refunds) != 1 || d.Refunds[0].Amount != 100.5 || d.Refunds[0].Reason != "late" || d.Refunds[0].ProviderRefundID == nil {
		t.Fatalf("refunds %+v", d.Refunds)
	}
	if len(d.History) != 1 || d.History[0].ToStatus != "processing" || d.History[0].Note != "picked" {
		t.Fatalf("history %+v", d.History)
	}
	app.Do(t, "GET", "/api/v1/admin/orders/not-a-uuid", testkit.Req{Token: token, Invalid: true}).ExpectError(t, 404, "NOT_FOUND")
}
