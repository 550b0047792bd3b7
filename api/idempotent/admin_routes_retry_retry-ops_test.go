package idempotent_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

// The cases of the operations routes (shipping, locations, webhooks,
// customer groups, discounts, users, draft orders, order transitions,
// remittances, refunds of returns, two-factor and sessions).
func init() {
	for rt, mk := range opsRetryCases {
		adminRetryCases[rt] = mk
	}
}

var opsRetryCases = map[string]func(t *testing.T, w retryWorld) retryCase{
	"POST " + admin + "/shipping/zones": func(t *testing.T, w retryWorld) retryCase {
		name := "Zone " + uuid.NewString()[:8]
		return retryCase{path: admin + "/shipping/zones", status: http.StatusCreated,
			body: map[string]any{"name": name, "states": []string{"Goa"}},
			once: func(t *testing.T) { rowsAre(t, w, 1, `SELECT count(*) FROM shipping_zones WHERE name = ?`, name) }}
	},
	"PATCH " + admin + "/shipping/zones/:zoneId": func(t *testing.T, w retryWorld) retryCase {
		id := created(t, w, admin+"/shipping/zones", map[string]any{"name": "Zone " + uuid.NewString()[:8]})
		return retryCase{path: admin + "/shipping/zones/" + id, status: http.StatusOK,
			body: map[string]any{"name": "Renamed " + id[:8], "states": []string{"Sikkim"}},
			once: func(t *testing.T) { auditedOnce(t, w, "shipping_zone.update", id) }}
	},
	"DELETE " + admin + "/shipping/zones/:zoneId": func(t *testing.T, w retryWorld) retryCase {
		id := created(t, w, admin+"/shipping/zones", map[string]any{"name": "Zone " + uuid.NewString()[:8]})
		return retryCase{path: admin + "/shipping/zones/" + id, status: http.StatusNoContent,
			once: func(t *testing.T) {
				rowsAre(t, w, 0, `SELECT count(*) FROM shipping_zones WHERE id = ?`, id)
				auditedOnce(t, w, "shipping_zone.delete", id)
			}}
	},
	"POST " + admin + "/shipping/zones/:zoneId/methods": func(t *testing.T, w retryWorld) retryCase {
		zone := created(t, w, admin+"/shipping/zones", map[string]any{"name": "Zone " + uuid.NewString()[:8]})
		return retryCase{path: admin + "/shipping/zones/" + zone + "/methods", status: http.StatusCreated,
			body: shippingMethod(),
			once: func(t *testing.T) { rowsAre(t, w, 1, `SELECT count(*) FROM shipping_methods WHERE zone_id = ?`, zone) }}
	},
	"PATCH " + admin + "/shipping/methods/:methodId": func(t *testing.T, w retryWorld) retryCase {
		id := shippingMethodMade(t, w)
		return retryCase{path: admin + "/shipping/methods/" + id, status: http.StatusOK, body: map[string]any{"price": 80},
			once: func(t *testing.T) { auditedOnce(t, w, "shipping_method.update", id) }}
	},
	"DELETE " + admin + "/shipping/methods/:methodId": func(t *testing.T, w retryWorld) retryCase {
		id := shippingMethodMade(t, w)
		return retryCase{path: admin + "/shipping/methods/" + id, status: http.StatusNoContent,
			once: func(t *testing.T) {
				rowsAre(t, w, 0, `SELECT count(*) FROM shipping_methods WHERE id = ?`, id)
				auditedOnce(t, w, "shipping_method.delete", id)
			}}
	},
}

// created sends an unkeyed create and returns the id it answers.
func created(t *testing.T, w retryWorld, path string, body any) string {
	t.Helper()
	return w.app.Do(t, http.MethodPost, path, testkit.Req{Token: w.token, Body: body}).
		Expect(t, http.StatusCreated).Map(t)["id"].(string)
}

// auditedOnce checks one audit entry of action on entity id: the retry,
// which changed nothing, wrote none.
func auditedOnce(t *testing.T, w retryWorld, action, id string) {
	t.Helper()
	rowsAre(t, w, 1, `SELECT count(*) FROM admin_audit_logs WHERE action = ? AND entity_id = ?`, action, id)
}

func shippingMethod() map[string]any {
	return map[string]any{"name": "Standard " + strings.ToUpper(uuid.NewString()[:4]), "carrier": "Delhivery",
		"price": 60, "minDays": 2, "maxDays": 5}
}

// shippingMethodMade is the id of a method of a new zone.
func shippingMethodMade(t *testing.T, w retryWorld) string {
	t.Helper()
	zone := created(t, w, admin+"/shipping/zones", map[string]any{"name": "Zone " + uuid.NewString()[:8]})
	return created(t, w, admin+"/shipping/zones/"+zone+"/methods", shippingMethod())
}
