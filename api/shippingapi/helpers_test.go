package shippingapi_test

import (
	"testing"

	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/testkit"
)

// zone is a shipping zone as answered.
type zone struct {
	ID        string   `json:"id"`
	Name      string   `json:"name"`
	States    []string `json:"states"`
	IsDefault bool     `json:"isDefault"`
	Methods   []method `json:"methods"`
}

// method is a shipping method as answered.
type method struct {
	ID        string        `json:"id"`
	ZoneID    string        `json:"zoneId"`
	Name      string        `json:"name"`
	Carrier   string        `json:"carrier"`
	Price     money.Amount  `json:"price"`
	FreeAbove *money.Amount `json:"freeAbove"`
	GSTRate   money.Rate    `json:"gstRate"`
	MinDays   int           `json:"minDays"`
	MaxDays   int           `json:"maxDays"`
	IsActive  bool          `json:"isActive"`
}

// mustZone creates a zone through the admin API.
func mustZone(t *testing.T, app *testkit.App, token string, body map[string]any) zone {
	t.Helper()
	var z zone
	app.Do(t, "POST", "/api/v1/admin/shipping/zones", testkit.Req{Token: token, Body: body}).Expect(t, 201).JSON(t, &z)
	return z
}

// mustMethod adds a method to zoneID through the admin API.
func mustMethod(t *testing.T, app *testkit.App, token, zoneID string, body map[string]any) method {
	t.Helper()
	var m method
	app.Do(t, "POST", "/api/v1/admin/shipping/zones/"+zoneID+"/methods", testkit.Req{Token: token, Body: body}).Expect(t, 201).JSON(t, &m)
	return m
}

// auditCount counts the audit entries of action on entity.
func auditCount(t *testing.T, app *testkit.App, action, entity string) int64 {
	t.Helper()
	var n int64
	if err := app.DB.Table("admin_audit_logs").Where("action = ? AND entity_id = ?", action, entity).Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}
