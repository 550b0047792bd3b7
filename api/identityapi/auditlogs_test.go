package identityapi_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

func TestAuditLogRead(t *testing.T) {
	app := testkit.MustApp(t)
	rootAdmin := mustAccount(t, app, "super_admin")
	root := mustLogin(t, app, rootAdmin)
	a := mustAccount(t, app, "staff")
	mustLogin(t, app, a)
	login(t, app, a.Email, "wrong-password-1").Expect(t, http.StatusUnauthorized)
	app.Do(t, "PATCH", base+"/users/"+a.ID.String(), testkit.Req{Token: root.Access, Body: map[string]any{"name": "Renamed"}}).Expect(t, http.StatusOK)

	type entry struct {
		ID, Action, CreatedAt, IPAddress, UserAgent string
		AdminID, EntityID                           *string
		Metadata                                    map[string]any
	}
	var list struct {
		Data       []entry `json:"data"`
		Pagination struct{ Page, Limit, Total, TotalPages int }
	}
	get := func(q string) {
		t.Helper()
		list.Data = nil
		app.Do(t, "GET", base+"/audit-logs"+q, testkit.Req{Token: root.Access}).Expect(t, http.StatusOK).JSON(t, &list)
	}
	get("")
	if list.Pagination.Total != 4 || list.Data[0].Action != "admin_user.update" || list.Data[3].Action != "auth.login" {
		t.Fatalf("all entries, newest first: %+v", list)
	}
	get("?adminId=" + a.ID.String())
	if list.Pagination.Total != 2 {
		t.Fatalf("by admin: %+v", list)
	}
	get("?action=auth.login_failed")
	if list.Pagination.Total != 1 || list.Data[0].Metadata["email"] != a.Email || list.Data[0].Metadata["password"] != nil {
		t.Fatalf("by action: %+v", list)
	}
	get("?action=auth.*")
	if list.Pagination.Total != 3 {
		t.Fatalf("by action prefix: %+v", list)
	}
	get("?entityId=" + a.ID.String())
	if list.Pagination.Total != 1 || list.Data[0].Action != "admin_user.update" || *list.Data[0].AdminID != rootAdmin.ID.String() {
		t.Fatalf("by entity: %+v", list)
	}
	get("?limit=1&page=2")
	if len(list.Data) != 1 || list.Pagination.TotalPages != 4 || list.Data[0].Action != "auth.login_failed" {
		t.Fatalf("paged: %+v", list)
	}
	today := time.Now().UTC().Format(time.DateOnly)
	get("?dateFrom=" + today + "&dateTo=" + today)
	if list.Pagination.Total != 4 {
		t.Fatalf("today: %+v", list)
	}
	get("?dateTo=" + time.Now().UTC().AddDate(0, 0, -1).Format(time.DateOnly))
	if list.Pagination.Total != 0 {
		t.Fatalf("before today: %+v", list)
	}
	get("?dateFrom=" + url.QueryEscape(time.Now().Add(time.Minute).Format(time.RFC3339)))
	if list.Pagination.Total != 0 {
		t.Fatalf("from the future: %+v", list)
	}

	app.Do(t, "GET", base+"/audit-logs?adminId=nope", testkit.Req{Token: root.Access, Invalid: true}).ExpectField(t, "adminId")
	app.Do(t, "GET", base+"/audit-logs?dateFrom=yesterday", testkit.Req{Token: root.Access, Invalid: true}).ExpectField(t, "dateFrom")
	app.Do(t, "GET", base+"/audit-logs?dateFrom=2030-01-02&dateTo=2030-01-01", testkit.Req{Token: root.Access, Invalid: true}).ExpectField(t, "dateTo")
	app.Do(t, "GET", base+"/audit-logs?page=0", testkit.Req{Token: root.Access, Invalid: true}).ExpectField(t, "page")
}

// The audit table refuses UPDATE, DELETE and TRUNCATE in SQL, whoever runs them.
func TestAuditLogIsAppendOnly(t *testing.T) {
	app := testkit.MustApp(t)
	login(t, app, "nobody@example.com", "whatever-password").Expect(t, http.StatusUnauthorized)
	if len(auditEntries(t, app, "auth.login_failed")) != 1 {
		t.Fatal("no entry to tamper with")
	}
	for _, sql := range []string{
		"UPDATE admin_audit_logs SET action = 'x'",
		"UPDATE admin_audit_logs SET metadata = '{}'",
		"DELETE FROM admin_audit_logs",
		"TRUNCATE admin_audit_logs",
	} {
		if err := app.DB.Exec(sql).Error; err == nil {
			t.Errorf("%s succeeded", sql)
		}
	}
	if e := auditEntries(t, app, "auth.login_failed"); len(e) != 1 {
		t.Fatalf("entries after tampering: %+v", e)
	}
}

// A page of the log names its entities in one request: each id of a known
// kind with its name and detail (a variant with its product), ids of
// anything else left out; only who reads the log may ask.
func TestAuditLogEntities(t *testing.T) {
	app := testkit.MustApp(t)
	rootAdmin := mustAccount(t, app, "super_admin")
	root := mustLogin(t, app, rootAdmin)
	staff := mustLogin(t, app, mustAccount(t, app, "staff"))
	db := app.DB
	p := fixtures.MustProduct(t, db, "Linen Shirt", 99900)
	v := fixtures.MustVariant(t, db, p.ID, 5)
	db.Exec(`UPDATE variants SET size = 'M', color = 'White' WHERE id = ?`, v.ID)
	c := fixtures.MustCustomer(t, db, "Asha Verma")
	o := fixtures.MustOrder(t, db, fixtures.OrderSpec{Customer: c, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
	type entity struct {
		Kind, Name, Detail string
		ProductID          *string
	}
	var ret, bundle, collection, hook, category, group, priceList, discount, zone, method, location string
	for _, row := range []struct {
		sql  string
		args []any
		id   *string
	}{
		{`INSERT INTO returns (order_id, customer_id, requested_by) VALUES (?, ?, 'admin') RETURNING id`, []any{o.ID, c.ID}, &ret},
		{`INSERT INTO bundles (title) VALUES ('Summer set') RETURNING id`, nil, &bundle},
		{`INSERT INTO collections (name, slug) VALUES ('New in', 'new-in') RETURNING id`, nil, &collection},
		{`INSERT INTO webhook_subscriptions (url, events, secret, description) VALUES ('https://hooks.example.com/shop', '{order.created}', 'whsec_x', 'ERP') RETURNING id`, nil, &hook},
		{`INSERT INTO categories (name, slug) VALUES ('Tees', 'tees') RETURNING id`, nil, &category},
		{`INSERT INTO customer_groups (name) VALUES ('Wholesale') RETURNING id`, nil, &group},
		{`INSERT INTO price_lists (name, customer_group_id) SELECT 'Trade', id FROM customer_groups RETURNING id`, nil, &priceList},
		{`INSERT INTO discounts (code, description, type, value) VALUES ('WELCOME10', 'First order', 'PERCENTAGE', 1000) RETURNING id`, nil, &discount},
		{`INSERT INTO shipping_zones (name) VALUES ('South') RETURNING id`, nil, &zone},
		{`INSERT INTO shipping_methods (zone_id, name, price, min_days, max_days) SELECT id, 'Express', 19900, 1, 2 FROM shipping_zones RETURNING id`, nil, &method},
		{`SELECT id FROM locations WHERE is_default`, nil, &location},
	} {
		if err := db.Raw(row.sql, row.args...).Scan(row.id).Error; err != nil {
			t.Fatal(err)
		}
	}
	productID := p.ID.String()
	want := map[string]entity{
		p.ID.String():         {Kind: "product", Name: "Linen Shirt"},
		v.ID.String():         {Kind: "variant", Name: "Linen Shirt — M / White", Detail: v.SKU, ProductID: &productID},
		o.ID.String():         {Kind: "order", Name: o.OrderNumber, Detail: "Asha Verma · " + c.Email},
		c.ID.String():         {Kind: "customer", Name: "Asha Verma", Detail: c.Email},
		ret:                   {Kind: "return", Name: o.OrderNumber, Detail: "requested"},
		bundle:                {Kind: "bundle", Name: "Summer set"},
		collection:            {Kind: "collection", Name: "New in", Detail: "new-in"},
		hook:                  {Kind: "webhook", Name: "https://hooks.example.com/shop", Detail: "ERP"},
		rootAdmin.ID.String(): {Kind: "admin", Name: rootAdmin.Name, Detail: rootAdmin.Email},
		category:              {Kind: "category", Name: "Tees", Detail: "tees"},
		group:                 {Kind: "customer_group", Name: "Wholesale"},
		priceList:             {Kind: "price_list", Name: "Trade"},
		discount:              {Kind: "discount", Name: "WELCOME10", Detail: "First order"},
		zone:                  {Kind: "shipping_zone", Name: "South"},
		method:                {Kind: "shipping_method", Name: "Express", Detail: "South"},
		location:              {Kind: "location", Name: "Default location", Detail: "default"},
	}
	ids := []string{uuid.NewString()} // nothing's
	for id := range want {
		ids = append(ids, id)
	}
	var got struct {
		Data []struct {
			ID string
			entity
		}
	}
	path := base + "/audit-logs/entities?ids=" + strings.Join(ids, ",")
	app.Do(t, "GET", path, testkit.Req{Token: root.Access}).Expect(t, http.StatusOK).JSON(t, &got)
	named := map[string]entity{}
	for _, e := range got.Data {
		named[e.ID] = e.entity
	}
	if len(named) != len(want) {
		t.Fatalf("%d entities named, want %d: %+v", len(named), len(want), got.Data)
	}
	for id, w := range want {
		g, ok := named[id]
		if !ok || g.Kind != w.Kind || g.Name != w.Name || g.Detail != w.Detail ||
			(g.ProductID == nil) != (w.ProductID == nil) || (g.ProductID != nil && *g.ProductID != *w.ProductID) {
			t.Errorf("%s: %+v, want %+v", id, g, w)
		}
	}

	app.Do(t, "GET", path, testkit.Req{Token: staff.Access}).ExpectError(t, http.StatusForbidden, "FORBIDDEN")
	app.Do(t, "GET", base+"/audit-logs/entities", testkit.Req{Token: root.Access, Invalid: true}).ExpectField(t, "ids")
	app.Do(t, "GET", base+"/audit-logs/entities?ids=nope", testkit.Req{Token: root.Access}).ExpectField(t, "ids")
}
