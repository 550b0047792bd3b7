package shippingapi_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
)

// An admin builds a zone with methods; the list answers {data, pagination}
// with the methods nested, edits and deletes work, and each write is audited.
func TestZonesAndMethodsLifecycle(t *testing.T) {
	app := testkit.MustApp(t)
	_, admin := testkit.MustAdmin(t, app, "admin")
	z := mustZone(t, app, admin, map[string]any{"name": "South", "states": []string{"karnataka", "Kerala", "Kerala"}})
	if len(z.States) != 2 || z.States[0] != "Karnataka" || z.States[1] != "Kerala" || z.IsDefault || len(z.Methods) != 0 {
		t.Fatalf("zone %+v: states stored by their listed names, once each", z)
	}
	m := mustMethod(t, app, admin, z.ID, map[string]any{"name": "Standard", "carrier": "India Post", "price": 79,
		"freeAbove": 999, "minDays": 3, "maxDays": 7})
	if m.Price != 7900 || m.FreeAbove == nil || *m.FreeAbove != 99900 || m.GSTRate != 1800 || !m.IsActive || m.ZoneID != z.ID {
		t.Fatalf("method %+v: want gstRate 18 and active by default", m)
	}

	var page struct {
		Data       []zone `json:"data"`
		Pagination struct {
			Total int `json:"total"`
		} `json:"pagination"`
	}
	app.Do(t, "GET", "/api/v1/admin/shipping/zones", testkit.Req{Token: admin}).Expect(t, 200).JSON(t, &page)
	if page.Pagination.Total != 1 || len(page.Data) != 1 || len(page.Data[0].Methods) != 1 || page.Data[0].Methods[0].ID != m.ID {
		t.Fatalf("list %+v", page)
	}

	var patched method
	app.Do(t, "PATCH", "/api/v1/admin/shipping/methods/"+m.ID, testkit.Req{Token: admin,
		Body: map[string]any{"freeAbove": nil, "isActive": false, "maxDays": 9}}).Expect(t, 200).JSON(t, &patched)
	if patched.FreeAbove != nil || patched.IsActive || patched.MaxDays != 9 || patched.Price != 7900 {
		t.Fatalf("patched %+v", patched)
	}
	var pz zone
	app.Do(t, "PATCH", "/api/v1/admin/shipping/zones/"+z.ID, testkit.Req{Token: admin,
		Body: map[string]any{"name": "Deep South", "states": []string{"Tamil Nadu"}, "isDefault": true}}).Expect(t, 200).JSON(t, &pz)
	if pz.Name != "Deep South" || len(pz.States) != 1 || pz.States[0] != "Tamil Nadu" || !pz.IsDefault {
		t.Fatalf("patched zone %+v", pz)
	}
	// Karnataka left the zone: another may take it now.
	mustZone(t, app, admin, map[string]any{"name": "Home", "states": []string{"Karnataka"}})

	app.Do(t, "DELETE", "/api/v1/admin/shipping/methods/"+m.ID, testkit.Req{Token: admin}).Expect(t, 204)
	app.Do(t, "DELETE", "/api/v1/admin/shipping/methods/"+m.ID, testkit.Req{Token: admin}).ExpectError(t, 404, "NOT_FOUND")
	app.Do(t, "DELETE", "/api/v1/admin/shipping/zones/"+z.ID, testkit.Req{Token: admin}).Expect(t, 204)
	app.Do(t, "GET", "/api/v1/admin/shipping/zones/"+z.ID, testkit.Req{Token: admin}).ExpectError(t, 404, "NOT_FOUND")

	for _, a := range []struct{ action, entity string }{
		{"shipping_zone.create", z.ID}, {"shipping_method.create", m.ID}, {"shipping_method.update", m.ID},
		{"shipping_zone.update", z.ID}, {"shipping_method.delete", m.ID}, {"shipping_zone.delete", z.ID},
	} {
		if n := auditCount(t, app, a.action, a.entity); n != 1 {
			t.Errorf("%d audit entries %s on %s, want 1", n, a.action, a.entity)
		}
	}
}

// A state belongs to one zone and one zone is the default: 409 naming the
// state or the field, and nothing changes.
func TestZoneConflicts(t *testing.T) {
	app := testkit.MustApp(t)
	_, admin := testkit.MustAdmin(t, app, "admin")
	south := mustZone(t, app, admin, map[string]any{"name": "South", "states": []string{"Karnataka", "Kerala"}, "isDefault": true})
	north := mustZone(t, app, admin, map[string]any{"name": "North", "states": []string{"Punjab"}})

	e := app.Do(t, "POST", "/api/v1/admin/shipping/zones", testkit.Req{Token: admin,
		Body: map[string]any{"name": "Another", "states": []string{"Goa", "kerala"}}}).ExpectError(t, 409, "CONFLICT")
	if e.Error.Details["state"] != "Kerala" {
		t.Fatalf("details %v, want state Kerala", e.Error.Details)
	}
	e = app.Do(t, "PATCH", "/api/v1/admin/shipping/zones/"+north.ID, testkit.Req{Token: admin,
		Body: map[string]any{"states": []string{"Punjab", "Karnataka"}}}).ExpectError(t, 409, "CONFLICT")
	if e.Error.Details["state"] != "Karnataka" {
		t.Fatalf("details %v, want state Karnataka", e.Error.Details)
	}
	e = app.Do(t, "POST", "/api/v1/admin/shipping/zones", testkit.Req{Token: admin,
		Body: map[string]any{"name": "Second default", "isDefault": true}}).ExpectError(t, 409, "CONFLICT")
	if e.Error.Details["field"] != "isDefault" {
		t.Fatalf("details %v", e.Error.Details)
	}
	app.Do(t, "PATCH", "/api/v1/admin/shipping/zones/"+north.ID, testkit.Req{Token: admin,
		Body: map[string]any{"isDefault": true}}).ExpectError(t, 409, "CONFLICT")

	var zones, states, defaults int64
	app.DB.Table("shipping_zones").Count(&zones)
	app.DB.Table("shipping_zone_states").Count(&states)
	app.DB.Table("shipping_zones").Where("is_default").Count(&defaults)
	var northStates []string
	app.DB.Table("shipping_zone_states").Where("zone_id = ?", north.ID).Pluck("state", &northStates)
	if zones != 2 || states != 3 || defaults != 1 || len(northStates) != 1 || northStates[0] != "Punjab" {
		t.Fatalf("after refused writes: %d zones, %d states, %d defaults, north %v", zones, states, defaults, northStates)
	}
	_ = south
}

// Twelve admins claim the same state at once, half by creating a zone,
// half by moving an existing zone to it: exactly one gets it, the others are
// 409 and change nothing (no zone left behind, the moved zones keep their
// states). The requests start behind a barrier, and the test holds the
// states table until all twelve wait on it inside their transactions, so
// they provably race for the state.
func TestConcurrentStateClaims(t *testing.T) {
	app := testkit.MustApp(t)
	_, admin := testkit.MustAdmin(t, app, "admin")
	const n = 12 // under the pool's 20 connections: each waits holding one
	existing := make([]zone, n/2)
	for i := range existing {
		existing[i] = mustZone(t, app, admin, map[string]any{"name": fmt.Sprintf("Old %d", i), "states": []string{region(i)}})
	}
	hold := testkit.MustHoldTableLock(t, app.DatabaseURL, "shipping_zone_states")
	statuses := make([]int, n)
	wait := testkit.StartTogether(n, func(i int) {
		if i%2 == 0 {
			statuses[i] = app.Do(t, "POST", "/api/v1/admin/shipping/zones", testkit.Req{Token: admin,
				Body: map[string]any{"name": fmt.Sprintf("Zone %d", i), "states": []string{"Goa"}, "isDefault": i%4 == 0}}).Status
			return
		}
		statuses[i] = app.Do(t, "PATCH", "/api/v1/admin/shipping/zones/"+existing[i/2].ID, testkit.Req{Token: admin,
			Body: map[string]any{"states": []string{"Goa", region(i / 2)}}}).Status
	})
	hold.WaitBlocked(n)
	hold.Release()
	wait()

	won := 0
	for _, s := range statuses {
		switch s {
		case http.StatusCreated, http.StatusOK:
			won++
		case http.StatusConflict:
		default:
			t.Fatalf("statuses %v", statuses)
		}
	}
	var zones, goa, rows int64
	app.DB.Table("shipping_zones").Count(&zones)
	app.DB.Table("shipping_zone_states").Where("state = 'Goa'").Count(&goa)
	app.DB.Table("shipping_zone_states").Count(&rows)
	created := 0
	for _, s := range statuses {
		if s == http.StatusCreated {
			created++
		}
	}
	// The old zones keep their state each; the winner adds Goa.
	if won != 1 || goa != 1 || zones != int64(n/2+created) || rows != int64(n/2+1) {
		t.Fatalf("%d won, %d zones, %d Goa rows, %d state rows; statuses %v", won, zones, goa, rows, statuses)
	}
}

// region is the i-th of six states no other part of the test claims.
func region(i int) string {
	return []string{"Kerala", "Punjab", "Assam", "Bihar", "Sikkim", "Tripura"}[i]
}

// Bad input is a 400 naming the field, never a 500.
func TestShippingValidation(t *testing.T) {
	app := testkit.MustApp(t)
	_, admin := testkit.MustAdmin(t, app, "admin")
	z := mustZone(t, app, admin, map[string]any{"name": "All", "isDefault": true})
	good := func(change map[string]any) map[string]any {
		b := map[string]any{"name": "Standard", "price": 50, "minDays": 2, "maxDays": 4}
		for k, v := range change {
			b[k] = v
		}
		return b
	}
	zones := "/api/v1/admin/shipping/zones"
	methods := zones + "/" + z.ID + "/methods"
	tests := []struct {
		name, path string
		body       map[string]any
		field      string
		invalid    bool
	}{
		{"zone without a name", zones, map[string]any{"states": []string{"Goa"}}, "name", true},
		{"not a state of India", zones, map[string]any{"name": "X", "states": []string{"Atlantis"}}, "states", false},
		{"method without a price", methods, map[string]any{"name": "S", "minDays": 1, "maxDays": 2}, "price", true},
		{"negative price", methods, good(map[string]any{"price": -1}), "price", true},
		{"negative freeAbove", methods, good(map[string]any{"freeAbove": -1}), "freeAbove", true},
		{"GST rate off the slabs", methods, good(map[string]any{"gstRate": 7}), "gstRate", true},
		{"estimate backwards", methods, good(map[string]any{"minDays": 5, "maxDays": 2}), "maxDays", false},
		{"three decimals", methods, good(map[string]any{"price": 1.005}), "price", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app.Do(t, "POST", tt.path, testkit.Req{Token: admin, Body: tt.body, Invalid: tt.invalid}).ExpectField(t, tt.field)
		})
	}
	m := mustMethod(t, app, admin, z.ID, good(nil))
	app.Do(t, "PATCH", "/api/v1/admin/shipping/methods/"+m.ID, testkit.Req{Token: admin,
		Body: map[string]any{"maxDays": 1}}).ExpectField(t, "maxDays")
	app.Do(t, "PATCH", "/api/v1/admin/shipping/methods/"+m.ID, testkit.Req{Token: admin, Invalid: true,
		Body: map[string]any{"price": nil}}).ExpectField(t, "price")
	app.Do(t, "POST", zones+"/00000000-0000-0000-0000-000000000000/methods", testkit.Req{Token: admin,
		Body: good(nil)}).ExpectError(t, 404, "NOT_FOUND")
}

// Viewers read shipping; only admins (and above) write it.
func TestShippingRoles(t *testing.T) {
	app := testkit.MustApp(t)
	_, admin := testkit.MustAdmin(t, app, "admin")
	z := mustZone(t, app, admin, map[string]any{"name": "All", "isDefault": true})
	m := mustMethod(t, app, admin, z.ID, map[string]any{"name": "Standard", "price": 50, "minDays": 2, "maxDays": 4})
	for _, role := range []string{"viewer", "staff"} {
		_, tok := testkit.MustAdmin(t, app, role)
		app.Do(t, "GET", "/api/v1/admin/shipping/zones", testkit.Req{Token: tok}).Expect(t, 200)
		app.Do(t, "GET", "/api/v1/admin/shipping/zones/"+z.ID, testkit.Req{Token: tok}).Expect(t, 200)
		app.Do(t, "POST", "/api/v1/admin/shipping/zones", testkit.Req{Token: tok, Body: map[string]any{"name": "X"}}).ExpectError(t, 403, "FORBIDDEN")
		app.Do(t, "PATCH", "/api/v1/admin/shipping/methods/"+m.ID, testkit.Req{Token: tok, Body: map[string]any{"price": 0}}).ExpectError(t, 403, "FORBIDDEN")
		app.Do(t, "DELETE", "/api/v1/admin/shipping/zones/"+z.ID, testkit.Req{Token: tok}).ExpectError(t, 403, "FORBIDDEN")
	}
	var price int64
	app.DB.Table("shipping_methods").Where("id = ?", m.ID).Pluck("price", &price)
	if price != 5000 {
		t.Fatalf("price %d after refused writes", price)
	}
}
