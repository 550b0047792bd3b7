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
	"POST " + admin + "/locations": func(t *testing.T, w retryWorld) retryCase {
		body := locationBody()
		return retryCase{path: admin + "/locations", status: http.StatusCreated, body: body,
			once: func(t *testing.T) { rowsAre(t, w, 1, `SELECT count(*) FROM locations WHERE code = ?`, body["code"]) }}
	},
	"PATCH " + admin + "/locations/:locationId": func(t *testing.T, w retryWorld) retryCase {
		id := created(t, w, admin+"/locations", locationBody())
		return retryCase{path: admin + "/locations/" + id, status: http.StatusOK, body: map[string]any{"priority": 7},
			once: func(t *testing.T) { auditedOnce(t, w, "location.update", id) }}
	},
	"DELETE " + admin + "/locations/:locationId": func(t *testing.T, w retryWorld) retryCase {
		id := created(t, w, admin+"/locations", locationBody())
		return retryCase{path: admin + "/locations/" + id, status: http.StatusNoContent,
			once: func(t *testing.T) {
				rowsAre(t, w, 0, `SELECT count(*) FROM locations WHERE id = ?`, id)
				auditedOnce(t, w, "location.delete", id)
			}}
	},
	// The answer carries the signing secret and is not kept; the retry
	// after a crash answers it again to the caller that never got it.
	"POST " + admin + "/webhooks": func(t *testing.T, w retryWorld) retryCase {
		url := "https://8.8.8.8/hooks/" + uuid.NewString()
		return retryCase{path: admin + "/webhooks", status: http.StatusCreated,
			body: map[string]any{"url": url, "events": []string{"order.created"}},
			once: func(t *testing.T) { rowsAre(t, w, 1, `SELECT count(*) FROM webhook_subscriptions WHERE url = ?`, url) }}
	},
	"PATCH " + admin + "/webhooks/:webhookId": func(t *testing.T, w retryWorld) retryCase {
		id := created(t, w, admin+"/webhooks", map[string]any{"url": "https://8.8.8.8/hooks", "events": []string{"order.created"}})
		return retryCase{path: admin + "/webhooks/" + id, status: http.StatusOK, body: map[string]any{"description": "ERP"},
			once: func(t *testing.T) { auditedOnce(t, w, "webhook.update", id) }}
	},
	"DELETE " + admin + "/webhooks/:webhookId": func(t *testing.T, w retryWorld) retryCase {
		id := created(t, w, admin+"/webhooks", map[string]any{"url": "https://8.8.8.8/hooks", "events": []string{"order.created"}})
		return retryCase{path: admin + "/webhooks/" + id, status: http.StatusNoContent,
			once: func(t *testing.T) {
				rowsAre(t, w, 0, `SELECT count(*) FROM webhook_subscriptions WHERE id = ?`, id)
				auditedOnce(t, w, "webhook.delete", id)
			}}
	},
	"POST " + admin + "/customer-groups": func(t *testing.T, w retryWorld) retryCase {
		name := "Group " + uuid.NewString()[:8]
		return retryCase{path: admin + "/customer-groups", status: http.StatusCreated, body: map[string]any{"name": name},
			once: func(t *testing.T) { rowsAre(t, w, 1, `SELECT count(*) FROM customer_groups WHERE name = ?`, name) }}
	},
	"PATCH " + admin + "/customer-groups/:groupId": func(t *testing.T, w retryWorld) retryCase {
		id := created(t, w, admin+"/customer-groups", map[string]any{"name": "Group " + uuid.NewString()[:8]})
		return retryCase{path: admin + "/customer-groups/" + id, status: http.StatusOK, body: map[string]any{"description": "trade"},
			once: func(t *testing.T) { auditedOnce(t, w, "customer_group.update", id) }}
	},
	"DELETE " + admin + "/customer-groups/:groupId": func(t *testing.T, w retryWorld) retryCase {
		id := created(t, w, admin+"/customer-groups", map[string]any{"name": "Group " + uuid.NewString()[:8]})
		return retryCase{path: admin + "/customer-groups/" + id, status: http.StatusNoContent,
			once: func(t *testing.T) {
				rowsAre(t, w, 0, `SELECT count(*) FROM customer_groups WHERE id = ?`, id)
				auditedOnce(t, w, "customer_group.delete", id)
			}}
	},
	"POST " + admin + "/discounts": func(t *testing.T, w retryWorld) retryCase {
		body := discountBody()
		return retryCase{path: admin + "/discounts", status: http.StatusCreated, body: body,
			once: func(t *testing.T) { rowsAre(t, w, 1, `SELECT count(*) FROM discounts WHERE code = ?`, body["code"]) }}
	},
	"PATCH " + admin + "/discounts/:discountId": func(t *testing.T, w retryWorld) retryCase {
		id := created(t, w, admin+"/discounts", discountBody())
		return retryCase{path: admin + "/discounts/" + id, status: http.StatusOK, body: map[string]any{"value": 15},
			once: func(t *testing.T) { auditedOnce(t, w, "discount.update", id) }}
	},
	"DELETE " + admin + "/discounts/:discountId": func(t *testing.T, w retryWorld) retryCase {
		id := created(t, w, admin+"/discounts", discountBody())
		return retryCase{path: admin + "/discounts/" + id, status: http.StatusNoContent,
			once: func(t *testing.T) {
				rowsAre(t, w, 0, `SELECT count(*) FROM discounts WHERE id = ?`, id)
				auditedOnce(t, w, "discount.delete", id)
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

// locationBody is a new location that does not sell, of a code of its own.
func locationBody() map[string]any {
	code := "L" + strings.ToUpper(uuid.NewString()[:6])
	return map[string]any{"name": "Store " + code, "code": code, "priority": 20, "fulfilsOnline": false,
		"address": map[string]any{"line1": "1 Dock Road", "city": "Somewhere", "state": "Karnataka", "pincode": "400001"}}
}

// discountBody is a manual discount of 10 rupees, of a code of its own.
func discountBody() map[string]any {
	return map[string]any{"code": "SAVE" + strings.ToUpper(uuid.NewString()[:6]), "valueType": "FIXED_AMOUNT", "value": 10}
}
