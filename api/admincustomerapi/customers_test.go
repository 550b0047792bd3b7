package admincustomerapi_test

import (
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

type listBody struct {
	Data []struct {
		ID    string `json:"id"`
		Email string `json:"email"`
		Name  string `json:"name"`
	} `json:"data"`
	Pagination struct{ Page, Limit, Total, TotalPages int } `json:"pagination"`
}

func TestListAndSearchCustomers(t *testing.T) {
	app := testkit.MustApp(t)
	_, viewer := testkit.MustAdmin(t, app, string(rbac.Viewer))
	db := app.DB
	mk := func(name, email, phone string) models.Customer {
		c := models.Customer{Name: name, Email: email, Phone: phone, IsActive: true}
		if err := db.Create(&c).Error; err != nil {
			t.Fatal(err)
		}
		return c
	}
	mk("José Álvarez", "jose@example.com", "+91 98450 11111")
	mk("Priya Raman", "priya@shop.in", "+91 80 2222 3333")
	mk("Anil 50%_off", "anil@example.com", "")
	for i := 0; i < 22; i++ {
		fixtures.MustCustomer(t, db, "Filler")
	}
	get := func(q string) listBody {
		var lb listBody
		app.Do(t, "GET", "/api/v1/admin/customers"+q, testkit.Req{Token: viewer}).Expect(t, 200).JSON(t, &lb)
		return lb
	}
	tests := []struct {
		query       string
		rows, total int
		first       string
	}{
		{"", 20, 25, ""},
		{"?page=2", 5, 25, ""},
		{"?search=jose", 1, 1, "José Álvarez"},       // accent-insensitive
		{"?search=ALVAREZ", 1, 1, "José Álvarez"},    // case-insensitive
		{"?search=shop.in", 1, 1, "Priya Raman"},     // email
		{"?search=2222%203333", 1, 1, "Priya Raman"}, // phone
		{"?search=50%25_", 1, 1, "Anil 50%_off"},     // LIKE wildcards are literal
		{"?search=%25", 1, 1, "Anil 50%_off"},
		{"?search=nobody", 0, 0, ""},
	}
	for _, tt := range tests {
		lb := get(tt.query)
		if len(lb.Data) != tt.rows || lb.Pagination.Total != tt.total {
			t.Fatalf("%s: %d rows of %d, want %d of %d", tt.query, len(lb.Data), lb.Pagination.Total, tt.rows, tt.total)
		}
		if tt.first != "" && lb.Data[0].Name != tt.first {
			t.Fatalf("%s: first %s, want %s", tt.query, lb.Data[0].Name, tt.first)
		}
	}
	app.Do(t, "GET", "/api/v1/admin/customers?limit=0", testkit.Req{Token: viewer, Invalid: true}).ExpectField(t, "limit")
}

func TestCustomerDetailAndUpdate(t *testing.T) {
	app := testkit.MustApp(t)
	_, staff := testkit.MustAdmin(t, app, string(rbac.Staff))
	_, viewer := testkit.MustAdmin(t, app, string(rbac.Viewer))
	_, admin := testkit.MustAdmin(t, app, string(rbac.Admin))
	db := app.DB
	cust := fixtures.MustCustomer(t, db, "Kiran")
	p := fixtures.MustProduct(t, db, "Tee", 50000)
	v := fixtures.MustVariant(t, db, p.ID, 20)
	o1 := fixtures.MustOrder(t, db, fixtures.OrderSpec{Customer: cust, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 2}}})
	fixtures.MustOrder(t, db, fixtures.OrderSpec{Customer: cust, Status: "cancelled", Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
	fixtures.MustOrder(t, db, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, db, "Other"),
		Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 1}}})
	app.Do(t, "POST", "/api/v1/admin/orders/"+o1.ID.String()+"/refund", testkit.Req{Token: admin,
		Body: map[string]any{"amount": 100}}).Expect(t, 200)

	path := "/api/v1/admin/customers/" + cust.ID.String()
	d := app.Do(t, "GET", path, testkit.Req{Token: viewer}).Expect(t, 200).Map(t)
	// paid 1000 + 500, refunded 100
	if d["orderCount"] != 2.0 || d["totalSpent"] != 1400.0 || d["currency"] != "INR" || d["email"] != cust.Email || d["isGuest"] != false {
		t.Fatalf("detail %v", d)
	}

	var group models.CustomerGroup
	db.Create(&models.CustomerGroup{Name: "Wholesale"})
	db.First(&group, "name = ?", "Wholesale")
	d = app.Do(t, "PATCH", path, testkit.Req{Token: staff, Body: map[string]any{
		"name": "Kiran K", "phone": "+91 99000 12345"}}).Expect(t, 200).Map(t)
	if d["name"] != "Kiran K" || d["phone"] != "+91 99000 12345" || d["customerGroupId"] != nil || d["isActive"] != true {
		t.Fatalf("after update %v", d)
	}
	d = app.Do(t, "PATCH", path, testkit.Req{Token: admin, Body: map[string]any{"customerGroupId": group.ID}}).Expect(t, 200).Map(t)
	if d["customerGroupId"] != group.ID.String() || d["name"] != "Kiran K" {
		t.Fatalf("after setting the group %v", d)
	}
	d = app.Do(t, "PATCH", path, testkit.Req{Token: admin, Body: map[string]any{"customerGroupId": nil}}).Expect(t, 200).Map(t)
	if d["customerGroupId"] != nil || d["name"] != "Kiran K" {
		t.Fatalf("after clearing the group %v", d)
	}
	bad := []struct {
		token string
		body  map[string]any
		field string
	}{
		{admin, map[string]any{"customerGroupId": uuid.NewString()}, "customerGroupId"},
		{admin, map[string]any{"customerGroupId": "nope"}, "customerGroupId"},
		{staff, map[string]any{"name": "  "}, "name"},
		{staff, map[string]any{"phone": "call me"}, "phone"},
		{staff, map[string]any{"isActive": "no"}, "isActive"},
	}
	for _, b := range bad {
		app.Do(t, "PATCH", path, testkit.Req{Token: b.token, Body: b.body, Invalid: true}).ExpectField(t, b.field)
	}
	app.Do(t, "PATCH", path, testkit.Req{Token: viewer, Body: map[string]any{"name": "x"}}).ExpectError(t, 403, "FORBIDDEN")
	app.Do(t, "GET", "/api/v1/admin/customers/"+uuid.NewString(), testkit.Req{Token: viewer}).ExpectError(t, 404, "NOT_FOUND")
	var audits int64
	db.Table("admin_audit_logs").Where("action = 'customer.update' AND entity_id = ?", cust.ID.String()).Count(&audits)
	if audits != 3 {
		t.Fatalf("audit entries %d, want 3", audits)
	}
}

// Deactivating a customer ends its tokens at once and blocks its login;
// reactivating lets it log in again.
func TestDeactivationEndsCustomerTokens(t *testing.T) {
	app := testkit.MustApp(t)
	_, staff := testkit.MustAdmin(t, app, string(rbac.Staff))
	creds := map[string]any{"email": "meera@example.com", "password": "a-long-enough-password-1"}
	reg := app.Do(t, "POST", "/customers/register", testkit.Req{Body: map[string]any{
		"email": creds["email"], "password": creds["password"], "name": "Meera", "phone": "+91 98450 22222"}}).Expect(t, 201).Map(t)
	token, _ := reg["access_token"].(string)
	cust, _ := reg["customer"].(map[string]any)
	if token == "" || cust == nil {
		t.Fatalf("register answer %v", reg)
	}
	app.Do(t, "GET", "/customers/me", testkit.Req{Token: token}).Expect(t, 200)

	path := "/api/v1/admin/customers/" + cust["id"].(string)
	app.Do(t, "PATCH", path, testkit.Req{Token: staff, Body: map[string]any{"isActive": false}}).Expect(t, 200)
	app.Do(t, "GET", "/customers/me", testkit.Req{Token: token}).ExpectError(t, 401, "UNAUTHORIZED")
	app.Do(t, "POST", "/customers/login", testkit.Req{Body: creds}).ExpectError(t, 401, "UNAUTHORIZED")

	app.Do(t, "PATCH", path, testkit.Req{Token: staff, Body: map[string]any{"isActive": true}}).Expect(t, 200)
	app.Do(t, "POST", "/customers/login", testkit.Req{Body: creds}).Expect(t, 200)
}

// A customer's group sets the prices it pays, so assigning one needs
// pricing.write: staff may edit the rest of a customer, not put anyone
// (itself included) into a discounted group.
func TestStaffCannotAssignCustomerGroup(t *testing.T) {
	app := testkit.MustApp(t)
	_, staff := testkit.MustAdmin(t, app, string(rbac.Staff))
	_, admin := testkit.MustAdmin(t, app, string(rbac.Admin))
	db := app.DB
	cust := fixtures.MustCustomer(t, db, "Ravi")
	group := models.CustomerGroup{Name: "Friends and family"}
	if err := db.Create(&group).Error; err != nil {
		t.Fatal(err)
	}
	path := "/api/v1/admin/customers/" + cust.ID.String()
	groupOf := func() *uuid.UUID {
		var c models.Customer
		if err := db.Take(&c, "id = ?", cust.ID).Error; err != nil {
			t.Fatal(err)
		}
		return c.CustomerGroupID
	}

	for _, body := range []map[string]any{
		{"customerGroupId": group.ID},
		{"name": "Ravi R", "customerGroupId": group.ID},
		{"CustomerGroupID": group.ID}, // encoding/json would match it
	} {
		e := app.Do(t, "PATCH", path, testkit.Req{Token: staff, Body: body}).ExpectError(t, 403, "FORBIDDEN")
		if e.Error.Details["field"] != "customerGroupId" {
			t.Fatalf("%v: details %v, want field customerGroupId", body, e.Error.Details)
		}
		if g := groupOf(); g != nil {
			t.Fatalf("%v: staff put the customer into group %s", body, g)
		}
	}
	app.Do(t, "PATCH", path, testkit.Req{Token: admin, Body: map[string]any{"customerGroupId": group.ID}}).Expect(t, 200)
	if g := groupOf(); g == nil || *g != group.ID {
		t.Fatalf("admin's assignment: group %v", g)
	}
	// Taking a customer out of a group is a price change too.
	app.Do(t, "PATCH", path, testkit.Req{Token: staff, Body: map[string]any{"customerGroupId": nil}}).ExpectError(t, 403, "FORBIDDEN")
	if g := groupOf(); g == nil || *g != group.ID {
		t.Fatalf("staff removed the group: %v", g)
	}
	// A body without the field still works for staff.
	d := app.Do(t, "PATCH", path, testkit.Req{Token: staff, Body: map[string]any{"name": "Ravi R"}}).Expect(t, 200).Map(t)
	if d["name"] != "Ravi R" || d["customerGroupId"] != group.ID.String() {
		t.Fatalf("staff name change: %v", d)
	}
	var audits int64
	db.Table("admin_audit_logs").Where("action = 'customer.update' AND entity_id = ?", cust.ID.String()).Count(&audits)
	if audits != 2 {
		t.Fatalf("audit entries %d, want 2 (refusals leave none)", audits)
	}
}
