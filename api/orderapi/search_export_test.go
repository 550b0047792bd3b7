package orderapi_test

import (
	"encoding/csv"
	"encoding/json"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
)

// GET /admin/orders?search= finds orders by part of the number, the
// customer's name or email, with the other filters; ids= names orders; a
// term over 200 characters or a bad id is 400.
func TestListOrdersSearch(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Viewer))
	p := fixtures.MustProduct(t, app.DB, "Bag", 20000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 1000)
	priya := fixtures.MustCustomer(t, app.DB, "Priya Iyer")
	rohan := fixtures.MustCustomer(t, app.DB, "Rohan Dé")
	line := []fixtures.Line{{Product: p, Variant: v, Qty: 1}}
	a := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: priya, Lines: line})
	b := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: priya, Status: models.OrderShipped, Lines: line})
	c := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: rohan, Lines: line})
	get := func(q string) []string {
		var lb listBody
		app.Do(t, "GET", "/api/v1/admin/orders?"+q, testkit.Req{Token: token}).Expect(t, 200).JSON(t, &lb)
		if lb.Pagination.Total != len(lb.Data) {
			t.Fatalf("%s: total %d for %d rows", q, lb.Pagination.Total, len(lb.Data))
		}
		var out []string
		for _, o := range lb.Data {
			out = append(out, o.OrderNumber)
		}
		return out
	}
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"search=PRIYA", []string{b.OrderNumber, a.OrderNumber}},
		{"search=" + url.QueryEscape(strings.TrimPrefix(c.OrderNumber, "ORD-")), []string{c.OrderNumber}},
		{"search=" + url.QueryEscape(rohan.Email[:6]), []string{c.OrderNumber}},
		{"search=rohan+de", []string{c.OrderNumber}},
		{"search=priya&status=shipped", []string{b.OrderNumber}},
		{"search=nobody", nil},
		{"ids=" + a.ID.String() + "," + c.ID.String(), []string{c.OrderNumber, a.OrderNumber}},
	} {
		if got := get(tt.query); strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Fatalf("%s: %v, want %v", tt.query, got, tt.want)
		}
	}
	app.Do(t, "GET", "/api/v1/admin/orders?search="+strings.Repeat("x", 201), testkit.Req{Token: token, Invalid: true}).ExpectField(t, "search")
	app.Do(t, "GET", "/api/v1/admin/orders?ids=1,2", testkit.Req{Token: token}).ExpectField(t, "ids")
}

// The orders a filter selects are answered as CSV at once when few match:
// one row per order with its amounts, customer text that looks like a
// formula neutralised; more than 1000 is 409 pointing at the job, which
// writes the same CSV for the admin who asked (and no other) to download.
func TestExportOrdersCSV(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t, testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) { c.AdminBulkRateLimit = 1000 }))
	_, token := testkit.MustAdmin(t, app, string(rbac.Viewer))
	_, other := testkit.MustAdmin(t, app, string(rbac.Viewer))
	p := fixtures.MustProduct(t, app.DB, "Bag", 20000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 1000)
	evil := fixtures.MustCustomer(t, app.DB, "=HYPERLINK(\"http://x.example\")")
	plain := fixtures.MustCustomer(t, app.DB, "Meera Nair")
	e := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: evil, Shipping: 5000,
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 3}}})
	fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: plain, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})

	r := app.Do(t, "GET", "/api/v1/admin/orders/export?search=hyperlink", testkit.Req{Token: token}).Expect(t, 200)
	if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/csv") ||
		!strings.Contains(r.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("headers %v", r.Header)
	}
	rows := readCSV(t, r.Body)
	if len(rows) != 2 || rows[0][0] != "Order number" || rows[1][0] != e.OrderNumber {
		t.Fatalf("csv %q", rows)
	}
	row := map[string]string{}
	for i, h := range rows[0] {
		row[h] = rows[1][i]
	}
	if row["Customer name"] != `'=HYPERLINK("http://x.example")` || row["Phone"] != "'+91 98450 00000" || row["Units"] != "3" ||
		row["Shipping"] != "50" || row["Ship to state"] != "Karnataka" || row["Currency"] != "INR" ||
		row["Placed (UTC)"] != e.CreatedAt.UTC().Format(time.RFC3339) {
		t.Fatalf("row %v", row)
	}
	if all := readCSV(t, app.Do(t, "GET", "/api/v1/admin/orders/export", testkit.Req{Token: token}).Expect(t, 200).Body); len(all) != 3 {
		t.Fatalf("unfiltered export has %d rows", len(all))
	}
	app.Do(t, "GET", "/api/v1/admin/orders/export?dateFrom=2026-02-02&dateTo=2026-02-01", testkit.Req{Token: token}).ExpectField(t, "dateFrom")

	fixtures.MustManyOrders(t, app.DB, 1001, 3, time.Now().UTC().AddDate(0, 0, -40))
	body := app.Do(t, "GET", "/api/v1/admin/orders/export", testkit.Req{Token: token}).ExpectError(t, 409, "CONFLICT")
	if body.Error.Details["matched"] != float64(1003) {
		t.Fatalf("409 details %v", body.Error.Details)
	}

	job := app.Do(t, "POST", "/api/v1/admin/order-exports", testkit.Req{Token: token, Body: map[string]any{}}).Expect(t, 202).Map(t)
	var j struct {
		Type   string          `json:"type"`
		State  string          `json:"state"`
		Result json.RawMessage `json:"result"`
	}
	app.WaitJob(t, token, job["jobId"].(string), &j)
	var res struct {
		Rows     int    `json:"rows"`
		Download string `json:"download"`
	}
	if err := json.Unmarshal(j.Result, &res); err != nil || j.State != "completed" || j.Type != tasks.TypeOrderExport || res.Rows != 1003 {
		t.Fatalf("job %+v %s", j, j.Result)
	}
	if got := readCSV(t, app.Do(t, "GET", res.Download, testkit.Req{Token: token}).Expect(t, 200).Body); len(got) != 1004 || got[1003][0] == "" {
		t.Fatalf("downloaded %d rows", len(got))
	}
	app.Do(t, "GET", res.Download, testkit.Req{Token: other}).ExpectError(t, 404, "NOT_FOUND")
	app.Do(t, "POST", "/api/v1/admin/order-exports", testkit.Req{Token: token, Body: map[string]any{"status": "lost"}, Invalid: true}).
		ExpectField(t, "status")
	var audited int64
	app.DB.Table("admin_audit_logs").Where("action = 'order.export' AND entity_id = ?", job["jobId"]).Count(&audited)
	if audited != 1 {
		t.Fatalf("%d audit entries of the export", audited)
	}
}

func readCSV(t *testing.T, body []byte) [][]string {
	t.Helper()
	rows, err := csv.NewReader(strings.NewReader(string(body))).ReadAll()
	if err != nil {
		t.Fatalf("csv: %v\n%s", err, body)
	}
	return rows
}

// GET /admin/orders filters by how orders are paid and whether their money
// is in (paymentMethod=cod&paymentStatus=pending: the COD orders still to
// collect), the CSV export and its job take the same filters, and a search
// finds a customer's phone however staff write it (docs/DECISIONS.md
// "Following COD cash and finding a phone in the order list").
func TestListOrdersByPaymentAndPhone(t *testing.T) {
	t.Parallel()
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Viewer))
	p := fixtures.MustProduct(t, app.DB, "Bag", 20000)
	v := fixtures.MustVariant(t, app.DB, p.ID, 1000)
	line := []fixtures.Line{{Product: p, Variant: v, Qty: 1}}
	kavya := fixtures.MustCustomer(t, app.DB, "Kavya Rao")
	kavya.Phone = "+91 98401 23456"
	arjun := fixtures.MustCustomer(t, app.DB, "Arjun Shah")
	arjun.Phone = "098220-55555"
	online := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: kavya, Lines: line})
	toCollect := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: kavya, Lines: line})
	collected := fixtures.MustOrder(t, app.DB, fixtures.OrderSpec{Customer: arjun, Lines: line})
	for id, status := range map[any]string{toCollect.ID: models.PaymentPending, collected.ID: models.PaymentPaid} {
		if err := app.DB.Exec(`UPDATE orders SET payment_method = 'cod', payment_status = ? WHERE id = ?`, status, id).Error; err != nil {
			t.Fatal(err)
		}
	}
	get := func(q string) []string {
		var lb listBody
		app.Do(t, "GET", "/api/v1/admin/orders?"+q, testkit.Req{Token: token}).Expect(t, 200).JSON(t, &lb)
		if lb.Pagination.Total != len(lb.Data) {
			t.Fatalf("%s: total %d for %d rows", q, lb.Pagination.Total, len(lb.Data))
		}
		var out []string
		for _, o := range lb.Data {
			out = append(out, o.OrderNumber+":"+o.PaymentMethod)
		}
		return out
	}
	on, tc, co := online.OrderNumber+":online", toCollect.OrderNumber+":cod", collected.OrderNumber+":cod"
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"paymentMethod=cod&paymentStatus=pending", []string{tc}},
		{"paymentMethod=cod", []string{co, tc}},
		{"paymentMethod=online", []string{on}},
		{"paymentStatus=paid", []string{co, on}},
		{"paymentMethod=offline", nil},
		{"search=" + url.QueryEscape("98401 23456"), []string{tc, on}},
		{"search=9840123456", []string{tc, on}},
		{"search=" + url.QueryEscape("+91 98401 23456"), []string{tc, on}},
		{"search=09840123456", []string{tc, on}},
		// Part of a number (seven to nine digits) is looked for in the search text.
		{"search=" + url.QueryEscape("840 123 45"), []string{tc, on}},
		{"search=" + url.QueryEscape("+91 98220 55555"), []string{co}},
		{"search=" + url.QueryEscape("98220 55555") + "&paymentStatus=pending", nil},
		{"search=" + url.QueryEscape("98401 23456") + "&paymentMethod=cod&paymentStatus=pending", []string{tc}},
	} {
		if got := get(tt.query); strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Fatalf("%s: %v, want %v", tt.query, got, tt.want)
		}
	}
	app.Do(t, "GET", "/api/v1/admin/orders?paymentMethod=card", testkit.Req{Token: token, Invalid: true}).ExpectField(t, "paymentMethod")
	app.Do(t, "GET", "/api/v1/admin/orders?paymentStatus=due", testkit.Req{Token: token, Invalid: true}).ExpectField(t, "paymentStatus")

	rows := readCSV(t, app.Do(t, "GET", "/api/v1/admin/orders/export?paymentMethod=cod&paymentStatus=pending",
		testkit.Req{Token: token}).Expect(t, 200).Body)
	if len(rows) != 2 || rows[1][0] != toCollect.OrderNumber {
		t.Fatalf("export of the COD orders to collect: %q", rows)
	}
	app.Do(t, "GET", "/api/v1/admin/orders/export?paymentStatus=due", testkit.Req{Token: token, Invalid: true}).ExpectField(t, "paymentStatus")
	app.Do(t, "POST", "/api/v1/admin/order-exports", testkit.Req{Token: token, Body: map[string]any{"paymentMethod": "card"}, Invalid: true}).
		ExpectField(t, "paymentMethod")

	// A phone changed on the order is found by its new number only.
	if err := app.DB.Exec(`UPDATE orders SET phone = '+91 90000 11111' WHERE id = ?`, collected.ID).Error; err != nil {
		t.Fatal(err)
	}
	if got := get("search=9000011111"); strings.Join(got, ",") != co {
		t.Fatalf("new phone: %v", got)
	}
	if got := get("search=9822055555"); got != nil {
		t.Fatalf("old phone still found: %v", got)
	}
}
