package locationapi_test

import (
	"net/http"
	"testing"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gstin"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

const locationsPath = "/api/v1/admin/locations"

// gstinOf is a valid GSTIN of state code code for PAN pan.
func gstinOf(code, pan string) string {
	s := code + pan + "1Z"
	return s + string(gstin.CheckChar(s))
}

type locationBody struct {
	ID            string  `json:"id"`
	Name          string  `json:"name"`
	Code          string  `json:"code"`
	GSTIN         *string `json:"gstin"`
	FulfilsOnline bool    `json:"fulfilsOnline"`
	Priority      int     `json:"priority"`
	IsActive      bool    `json:"isActive"`
	IsDefault     bool    `json:"isDefault"`
	Address       struct {
		State string `json:"state"`
	} `json:"address"`
}

type env struct {
	app   *testkit.App
	admin string // an admin's token: locations, fulfilments, stock
}

func newEnv(t *testing.T, opts ...testkit.Option) *env {
	t.Helper()
	app := testkit.MustApp(t, opts...)
	_, token := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	return &env{app: app, admin: token}
}

func (e *env) do(t *testing.T, method, path string, body any) *testkit.Response {
	t.Helper()
	return e.app.Do(t, method, path, testkit.Req{Token: e.admin, Body: body})
}

// bad sends a request that breaks the document on purpose.
func (e *env) bad(t *testing.T, method, path string, body any) *testkit.Response {
	t.Helper()
	return e.app.Do(t, method, path, testkit.Req{Token: e.admin, Body: body, Invalid: true})
}

// location creates a location in state (gstin may be empty) with priority.
func (e *env) location(t *testing.T, code, state, gst string, priority int, extra map[string]any) locationBody {
	t.Helper()
	body := map[string]any{"name": "Warehouse " + code, "code": code, "priority": priority,
		"address": map[string]any{"line1": "1 Dock Road", "city": "Somewhere", "state": state, "pincode": "400001"}}
	if gst != "" {
		body["gstin"] = gst
	}
	for k, v := range extra {
		body[k] = v
	}
	var l locationBody
	e.do(t, http.MethodPost, locationsPath, body).Expect(t, http.StatusCreated).JSON(t, &l)
	return l
}

func (e *env) defaultLocation(t *testing.T) locationBody {
	t.Helper()
	var page struct{ Data []locationBody }
	e.do(t, http.MethodGet, locationsPath+"?limit=100", nil).Expect(t, http.StatusOK).JSON(t, &page)
	for _, l := range page.Data {
		if l.IsDefault {
			return l
		}
	}
	t.Fatal("no default location")
	return locationBody{}
}

// adjust runs a stock operation on v at location loc ("" the default).
func (e *env) adjust(t *testing.T, v uuid.UUID, op string, n int, loc string) *testkit.Response {
	t.Helper()
	body := map[string]any{"operation": op, "inventory": n}
	if loc != "" {
		body["locationId"] = loc
	}
	return e.do(t, http.MethodPatch, "/api/v1/admin/variants/"+v.String()+"/inventory", body)
}

type levelBody struct {
	LocationID string `json:"locationId"`
	OnHand     int    `json:"onHand"`
	Committed  int    `json:"committed"`
	Available  int    `json:"available"`
}

type stockBody struct {
	Data  []levelBody `json:"data"`
	Total struct {
		OnHand, Committed, Reserved, Available, InTransit int
	} `json:"total"`
}

func (e *env) stock(t *testing.T, v uuid.UUID) stockBody {
	t.Helper()
	var s stockBody
	e.do(t, http.MethodGet, "/api/v1/admin/variants/"+v.String()+"/stock", nil).Expect(t, http.StatusOK).JSON(t, &s)
	return s
}

// onHandAt is v's level at location id in s.
func (s stockBody) at(id string) levelBody {
	for _, l := range s.Data {
		if l.LocationID == id {
			return l
		}
	}
	return levelBody{LocationID: id}
}

// levelsAre fails t unless v's levels at the named locations are as given
// and its counters are inventory on hand and committed.
func (e *env) levelsAre(t *testing.T, v models.Variant, want map[string]int, inventory, committed int) {
	t.Helper()
	got := fixtures.Reload(t, e.app.DB, v)
	if got.Inventory != inventory || got.Committed != committed {
		t.Fatalf("variant %s: inventory %d committed %d, want %d/%d", v.SKU, got.Inventory, got.Committed, inventory, committed)
	}
	s := e.stock(t, v.ID)
	for id, n := range want {
		if l := s.at(id); l.OnHand != n {
			t.Fatalf("variant %s at %s: %d on hand, want %d (levels %+v)", v.SKU, id, l.OnHand, n, s.Data)
		}
	}
}

// ship posts a fulfilment of every unfulfilled unit of o, from loc ("" lets
// the API choose).
func (e *env) ship(t *testing.T, o models.Order, loc string) *testkit.Response {
	t.Helper()
	body := map[string]any{"carrier": "Delhivery", "trackingNumber": "DL" + uuid.NewString()[:8], "notifyCustomer": false}
	if loc != "" {
		body["locationId"] = loc
	}
	return e.do(t, http.MethodPost, "/api/v1/admin/orders/"+o.ID.String()+"/fulfillments", body)
}

type fulfillmentBody struct {
	ID         string `json:"id"`
	LocationID string `json:"locationId"`
}
