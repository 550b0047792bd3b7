package orderapi_test

import (
	"context"
	"fmt"
	"net/url"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/checkout"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// mustFinalize turns a fresh checkout into an order through the payment
// finalization that the gateway webhook runs.
func mustFinalize(t *testing.T, app *testkit.App) *models.Order {
	t.Helper()
	c := fixtures.MustCheckout(t, app.DB, fixtures.CheckoutOptions{})
	svc := checkout.New(app.DB, app.Queue, gateway.NewSimulator(), checkout.Settings{Provider: "simulator", StoreState: "Karnataka"}, nil, app.Log)
	res, err := svc.Capture(context.Background(), gateway.Payment{ID: "pay_" + uuid.NewString()[:8], Entity: "payment",
		Amount: int64(c.Total), Currency: c.Currency, Status: "captured", OrderID: c.IntentID, Method: "upi"})
	if err != nil || res.Outcome != checkout.Created {
		t.Fatalf("capture: %v %+v", err, res)
	}
	return res.Order
}

func listOrders(t *testing.T, app *testkit.App, token, query string) listBody {
	t.Helper()
	var lb listBody
	app.Do(t, "GET", "/api/v1/admin/orders"+query, testkit.Req{Token: token}).Expect(t, 200).JSON(t, &lb)
	return lb
}

func TestListTotalCountsAnOrderFinalizedJustBefore(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Viewer))
	for i := 0; i < 3; i++ {
		mustFinalize(t, app)
	}
	// Full pages, so the total is counted rather than read off the page.
	if lb := listOrders(t, app, token, "?limit=2"); lb.Pagination.Total != 3 {
		t.Fatalf("total %d, want 3", lb.Pagination.Total)
	}
	o := mustFinalize(t, app)
	lb := listOrders(t, app, token, "?limit=2")
	if lb.Data[0].ID != o.ID.String() {
		t.Fatalf("first row %s, want the new order %s", lb.Data[0].ID, o.ID)
	}
	if lb.Pagination.Total != 4 || lb.Pagination.TotalPages != 2 {
		t.Fatalf("the new order is on the page but total %d (pages %d), want 4 (2)", lb.Pagination.Total, lb.Pagination.TotalPages)
	}
	if lb := listOrders(t, app, token, "?limit=2&status=confirmed"); lb.Pagination.Total != 4 {
		t.Fatalf("confirmed total %d, want 4", lb.Pagination.Total)
	}
}

func TestListTotalsAgreeAcrossInstances(t *testing.T) {
	t.Parallel()
	one := testkit.MustApp(t)
	two := testkit.MustApp(t, testkit.WithStores(one.DatabaseURL, one.RedisURL))
	_, token := testkit.MustAdmin(t, one, string(rbac.Admin))
	p := fixtures.MustProduct(t, one.DB, "Mug", 30000)
	v := fixtures.MustVariant(t, one.DB, p.ID, 100)
	cust := fixtures.MustCustomer(t, one.DB, "A")
	spec := fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}}
	var last models.Order
	for i := 0; i < 3; i++ {
		last = fixtures.MustOrder(t, one.DB, spec)
	}
	queries := []string{"?limit=1", "?limit=1&status=confirmed", "?limit=1&status=processing"}
	for _, q := range queries {
		listOrders(t, one, token, q) // instance one has seen every list before the changes
	}
	fixtures.MustOrder(t, one.DB, spec)
	two.Do(t, "PATCH", "/api/v1/admin/orders/"+last.ID.String()+"/status", testkit.Req{Token: token,
		Body: map[string]any{"status": "processing"}}).Expect(t, 200)
	want := map[string]int{queries[0]: 4, queries[1]: 3, queries[2]: 1}
	for _, q := range queries {
		a, b := listOrders(t, one, token, q).Pagination.Total, listOrders(t, two, token, q).Pagination.Total
		if a != want[q] || b != want[q] {
			t.Errorf("%s: instance one says %d, two says %d, want %d", q, a, b, want[q])
		}
	}
}

// TestListTotalsExactForEveryFilter compares pagination.total with a count
// of the rows themselves for each filter and combination, after status
// moves, a refund that cancels and a cancel, all made after every list had
// been asked for once.
func TestListTotalsExactForEveryFilter(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Admin))
	p := fixtures.MustProduct(t, app.DB, "Lamp", 20000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 1000)
	custs := []models.Customer{fixtures.MustCustomer(t, app.DB, "A"), fixtures.MustCustomer(t, app.DB, "B")}
	// Near midnight UTC; the dates are the store's days (Asia/Kolkata, the
	// default): whole UTC days from the counters, the edges counted.
	day := time.Date(2026, 2, 1, 23, 30, 0, 0, time.UTC)
	var all []models.Order
	for i := 0; i < 24; i++ {
		status := []string{models.OrderConfirmed, models.OrderProcessing, models.OrderShipped}[i%3]
		all = append(all, fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: custs[i%2], Status: status,
			CreatedAt: day.Add(time.Duration(i) * 6 * time.Hour), Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}}))
	}
	type filter struct{ query, where string }
	var filters []filter
	statuses := []string{"", models.OrderConfirmed, models.OrderProcessing, models.OrderShipped, models.OrderCancelled}
	dates := []filter{{"", ""}, {"&dateFrom=2026-02-02", " AND created_at >= '2026-02-02 00:00+05:30'"},
		{"&dateTo=2026-02-03", " AND created_at < '2026-02-04 00:00+05:30'"},
		{"&dateFrom=2026-02-02&dateTo=2026-02-04", " AND created_at >= '2026-02-02 00:00+05:30' AND created_at < '2026-02-05 00:00+05:30'"}}
	for _, s := range statuses {
		for _, d := range dates {
			f := filter{"?limit=1" + d.query, "TRUE" + d.where}
			if s != "" {
				f.query += "&status=" + s
				f.where += fmt.Sprintf(" AND status = '%s'", s)
			}
			filters = append(filters, f,
				filter{f.query + "&customerId=" + custs[0].ID.String(), f.where + fmt.Sprintf(" AND customer_id = '%s'", custs[0].ID)})
		}
	}
	filters = append(filters, filter{"?limit=1&orderNumber=" + url.QueryEscape(all[4].OrderNumber), fmt.Sprintf("id = '%s'", all[4].ID)})
	check := func(stage string) {
		t.Helper()
		for _, f := range filters {
			var want int64
			if err := app.DB.Raw("SELECT count(*) FROM orders WHERE " + f.where).Scan(&want).Error; err != nil {
				t.Fatal(err)
			}
			if got := listOrders(t, app, token, f.query).Pagination.Total; int64(got) != want {
				t.Errorf("%s: %s: total %d, want %d", stage, f.query, got, want)
			}
		}
	}
	check("before")

	patch := func(o models.Order, status string) {
		app.Do(t, "PATCH", "/api/v1/admin/orders/"+o.ID.String()+"/status", testkit.Req{Token: token,
			Body: map[string]any{"status": status}}).Expect(t, 200)
	}
	patch(all[0], models.OrderProcessing)                                                             // confirmed → processing
	patch(all[1], models.OrderShipped)                                                                // processing → shipped
	patch(all[2], models.OrderDelivered)                                                              // shipped → delivered
	patch(all[3], models.OrderCancelled)                                                              // confirmed → cancelled
	patch(all[13], models.OrderCancelled)                                                             // processing → cancelled
	app.Do(t, "POST", "/api/v1/admin/orders/"+all[6].ID.String()+"/refund", testkit.Req{Token: token, // a full refund cancels
		Body: map[string]any{"amount": 200, "reason": "damaged", "initiatePaymentRefund": true}}).Expect(t, 200)
	app.Do(t, "POST", "/api/v1/admin/orders/"+all[9].ID.String()+"/refund", testkit.Req{Token: token, // partial: status kept
		Body: map[string]any{"amount": 50, "reason": "late", "initiatePaymentRefund": true}}).Expect(t, 200)
	fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: custs[0], CreatedAt: day.Add(30 * time.Hour),
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
	var cancelled int64
	app.DB.Raw("SELECT count(*) FROM orders WHERE status = 'cancelled'").Scan(&cancelled)
	if cancelled != 3 {
		t.Fatalf("%d cancelled orders, want 3: the moves did not happen as planned", cancelled)
	}
	check("after")
}
