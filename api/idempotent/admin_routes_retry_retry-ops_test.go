package idempotent_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/identity"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"github.com/pquerna/otp/totp"
)

// The cases of the operations routes (shipping, locations, webhooks,
// customer groups, discounts, users, draft orders, order transitions,
// remittances, refunds of returns, two-factor and sessions).
func init() {
	for rt, mk := range opsRetryCases {
		adminRetryCases[rt] = mk
	}
	retryMayDiffer["POST "+admin+"/auth/2fa/enable"] = "its answer carries the backup codes, kept only hashed, and is not " +
		"kept itself (Cache-Control: no-store): the retry after a crash answers 200 with new codes in place of the unseen " +
		"ones (TestTwoFactorEnableRetriedAfterACrashAnswersNewCodes); a repeat of a finished request is 409 \"done; answer not kept\""
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
			once: func(t *testing.T) { auditedOnceByID(t, w, "shipping_zone.update", id) }}
	},
	"DELETE " + admin + "/shipping/zones/:zoneId": func(t *testing.T, w retryWorld) retryCase {
		id := created(t, w, admin+"/shipping/zones", map[string]any{"name": "Zone " + uuid.NewString()[:8]})
		return retryCase{path: admin + "/shipping/zones/" + id, status: http.StatusNoContent,
			once: func(t *testing.T) {
				rowsAre(t, w, 0, `SELECT count(*) FROM shipping_zones WHERE id = ?`, id)
				auditedOnceByID(t, w, "shipping_zone.delete", id)
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
			once: func(t *testing.T) { auditedOnceByID(t, w, "shipping_method.update", id) }}
	},
	"DELETE " + admin + "/shipping/methods/:methodId": func(t *testing.T, w retryWorld) retryCase {
		id := shippingMethodMade(t, w)
		return retryCase{path: admin + "/shipping/methods/" + id, status: http.StatusNoContent,
			once: func(t *testing.T) {
				rowsAre(t, w, 0, `SELECT count(*) FROM shipping_methods WHERE id = ?`, id)
				auditedOnceByID(t, w, "shipping_method.delete", id)
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
			once: func(t *testing.T) { auditedOnceByID(t, w, "location.update", id) }}
	},
	"DELETE " + admin + "/locations/:locationId": func(t *testing.T, w retryWorld) retryCase {
		id := created(t, w, admin+"/locations", locationBody())
		return retryCase{path: admin + "/locations/" + id, status: http.StatusNoContent,
			once: func(t *testing.T) {
				rowsAre(t, w, 0, `SELECT count(*) FROM locations WHERE id = ?`, id)
				auditedOnceByID(t, w, "location.delete", id)
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
			once: func(t *testing.T) { auditedOnceByID(t, w, "webhook.update", id) }}
	},
	"DELETE " + admin + "/webhooks/:webhookId": func(t *testing.T, w retryWorld) retryCase {
		id := created(t, w, admin+"/webhooks", map[string]any{"url": "https://8.8.8.8/hooks", "events": []string{"order.created"}})
		return retryCase{path: admin + "/webhooks/" + id, status: http.StatusNoContent,
			once: func(t *testing.T) {
				rowsAre(t, w, 0, `SELECT count(*) FROM webhook_subscriptions WHERE id = ?`, id)
				auditedOnceByID(t, w, "webhook.delete", id)
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
			once: func(t *testing.T) { auditedOnceByID(t, w, "customer_group.update", id) }}
	},
	"DELETE " + admin + "/customer-groups/:groupId": func(t *testing.T, w retryWorld) retryCase {
		id := created(t, w, admin+"/customer-groups", map[string]any{"name": "Group " + uuid.NewString()[:8]})
		return retryCase{path: admin + "/customer-groups/" + id, status: http.StatusNoContent,
			once: func(t *testing.T) {
				rowsAre(t, w, 0, `SELECT count(*) FROM customer_groups WHERE id = ?`, id)
				auditedOnceByID(t, w, "customer_group.delete", id)
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
			once: func(t *testing.T) { auditedOnceByID(t, w, "discount.update", id) }}
	},
	"DELETE " + admin + "/discounts/:discountId": func(t *testing.T, w retryWorld) retryCase {
		id := created(t, w, admin+"/discounts", discountBody())
		return retryCase{path: admin + "/discounts/" + id, status: http.StatusNoContent,
			once: func(t *testing.T) {
				rowsAre(t, w, 0, `SELECT count(*) FROM discounts WHERE id = ?`, id)
				auditedOnceByID(t, w, "discount.delete", id)
			}}
	},
	"PATCH " + admin + "/reviews/:reviewId": func(t *testing.T, w retryWorld) retryCase {
		id := hiddenReview(t, w)
		return retryCase{path: admin + "/reviews/" + id, status: http.StatusOK, body: map[string]any{"status": "published"},
			once: func(t *testing.T) { auditedOnceByID(t, w, "review.moderate", id) }}
	},
	"PATCH " + admin + "/customers/:customerId": func(t *testing.T, w retryWorld) retryCase {
		id := fixtures.MustCustomer(t, w.app.DB, "Retry").ID.String()
		return retryCase{path: admin + "/customers/" + id, status: http.StatusOK, body: map[string]any{"name": "Renamed"},
			once: func(t *testing.T) { auditedOnceByID(t, w, "customer.update", id) }}
	},
	"POST " + admin + "/users": func(t *testing.T, w retryWorld) retryCase {
		email := "staff-" + uuid.NewString()[:8] + "@example.com"
		return retryCase{path: admin + "/users", status: http.StatusCreated,
			body: map[string]any{"email": email, "name": "Staff", "password": testkit.AdminPassword, "role": "staff"},
			once: func(t *testing.T) { rowsAre(t, w, 1, `SELECT count(*) FROM admins WHERE email = ?`, email) }}
	},
	"PATCH " + admin + "/users/:id": func(t *testing.T, w retryWorld) retryCase {
		a, _ := testkit.MustAdmin(t, w.app, "viewer")
		return retryCase{path: admin + "/users/" + a.ID.String(), status: http.StatusOK, body: map[string]any{"role": "staff"},
			once: func(t *testing.T) { auditedOnceByID(t, w, "admin_user.update", a.ID.String()) }}
	},
	"DELETE " + admin + "/auth/sessions/:sessionId": func(t *testing.T, w retryWorld) retryCase {
		id := otherSession(t, w)
		return retryCase{path: admin + "/auth/sessions/" + id, status: http.StatusNoContent,
			once: func(t *testing.T) {
				rowsAre(t, w, 0, `SELECT count(*) FROM admin_sessions WHERE id = ?`, id)
				auditedOnceByID(t, w, "auth.session_revoke", id)
			}}
	},
	"POST " + admin + "/auth/2fa/disable": func(t *testing.T, w retryWorld) retryCase {
		me, backup := twoFactorOn(t, w.app, w.token)
		return retryCase{path: admin + "/auth/2fa/disable", status: http.StatusOK, body: map[string]any{"code": backup[0]},
			once: func(t *testing.T) {
				rowsAre(t, w, 0, `SELECT count(*) FROM admin_two_factor WHERE admin_id = ?`, me)
				auditedOnceByID(t, w, "auth.2fa_disable", me)
			}}
	},
	"POST " + admin + "/draft-orders": func(t *testing.T, w retryWorld) retryCase {
		body := draftBody(t, w)
		return retryCase{path: admin + "/draft-orders", status: http.StatusCreated, body: body,
			once: func(t *testing.T) {
				rowsAre(t, w, 1, `SELECT count(*) FROM draft_orders WHERE email = ?`, body["email"])
			}}
	},
	"PATCH " + admin + "/draft-orders/:draftId": func(t *testing.T, w retryWorld) retryCase {
		id := created(t, w, admin+"/draft-orders", draftBody(t, w))
		return retryCase{path: admin + "/draft-orders/" + id, status: http.StatusOK, body: map[string]any{"note": "gift wrap"},
			once: func(t *testing.T) { auditedOnceByID(t, w, "draft_order.update", id) }}
	},
	"DELETE " + admin + "/draft-orders/:draftId": func(t *testing.T, w retryWorld) retryCase {
		id := created(t, w, admin+"/draft-orders", draftBody(t, w))
		return retryCase{path: admin + "/draft-orders/" + id, status: http.StatusNoContent,
			once: func(t *testing.T) {
				rowsAre(t, w, 0, `SELECT count(*) FROM draft_orders WHERE id = ?`, id)
				auditedOnceByID(t, w, "draft_order.delete", id)
			}}
	},
	"POST " + admin + "/draft-orders/:draftId/complete": func(t *testing.T, w retryWorld) retryCase {
		body := draftBody(t, w)
		id := created(t, w, admin+"/draft-orders", body)
		return retryCase{path: admin + "/draft-orders/" + id + "/complete", status: http.StatusOK,
			body: map[string]any{"payment": "offline", "method": "upi", "reference": "UTR-" + id[:8]},
			once: func(t *testing.T) {
				rowsAre(t, w, 1, `SELECT count(*) FROM orders WHERE email = ?`, body["email"])
				rowsAre(t, w, 1, `SELECT count(*) FROM payments p JOIN orders o ON o.id = p.order_id WHERE o.email = ?`, body["email"])
				auditedOnceByID(t, w, "draft_order.complete", id)
			}}
	},
	"PATCH " + admin + "/orders/:orderId/status": func(t *testing.T, w retryWorld) retryCase {
		o, _ := shopOrder(t, w.app)
		return retryCase{path: admin + "/orders/" + o.ID.String() + "/status", status: http.StatusOK,
			body: map[string]any{"status": "processing", "note": "packing"},
			once: func(t *testing.T) { auditedOnceByID(t, w, "order.status_update", o.ID.String()) }}
	},
	"POST " + admin + "/orders/:orderId/cod-confirmation": func(t *testing.T, w retryWorld) retryCase {
		o, v := shopOrder(t, w.app)
		if err := w.app.DB.Exec(`UPDATE orders SET status = 'pending_confirmation', payment_method = 'cod' WHERE id = ?`, o.ID).Error; err != nil {
			t.Fatal(err)
		}
		return retryCase{path: admin + "/orders/" + o.ID.String() + "/cod-confirmation", status: http.StatusOK,
			body: map[string]any{"answer": "cancel"},
			once: func(t *testing.T) {
				if got := fixtures.Reload(t, w.app.DB, v); got.Committed != 0 || got.Inventory != 10 {
					t.Fatalf("%d committed, %d on hand: want the 3 units released once", got.Committed, got.Inventory)
				}
				auditedOnceByID(t, w, "order.cod_confirmation", o.ID.String())
			}}
	},
	"POST " + admin + "/orders/:orderId/unfulfilled-items/cancel": func(t *testing.T, w retryWorld) retryCase {
		o, v := shopOrder(t, w.app)
		return retryCase{path: admin + "/orders/" + o.ID.String() + "/unfulfilled-items/cancel", status: http.StatusOK,
			body: map[string]any{"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 1}}},
			once: func(t *testing.T) {
				if got := fixtures.Reload(t, w.app.DB, v); got.Committed != 2 {
					t.Fatalf("%d units committed: want one of 3 cancelled once", got.Committed)
				}
				auditedOnceByID(t, w, "order.cancel_items", o.ID.String())
			}}
	},
	"POST " + admin + "/orders/:orderId/payment-link": func(t *testing.T, w retryWorld) retryCase {
		o, _ := shopOrder(t, w.app)
		if err := w.app.DB.Exec(`UPDATE orders SET payment_status = 'partially_paid', paid_total = total - 5000, balance_due = 5000
			WHERE id = ?`, o.ID).Error; err != nil {
			t.Fatal(err)
		}
		return retryCase{path: admin + "/orders/" + o.ID.String() + "/payment-link", status: http.StatusCreated,
			once: func(t *testing.T) {
				rowsAre(t, w, 1, `SELECT count(*) FROM order_payment_links WHERE order_id = ?`, o.ID)
				auditedOnceByID(t, w, "order.balance_link", o.ID.String())
			}}
	},
	// The answer names the job; the retry's names the same one (its id is
	// the key's), which pays each row once however often it runs.
	"POST " + admin + "/payments/cod-remittance": func(t *testing.T, w retryWorld) retryCase {
		return retryCase{path: admin + "/payments/cod-remittance", status: http.StatusAccepted,
			body: map[string]any{"rows": []any{map[string]any{"orderNumber": "ORD-" + uuid.NewString()[:8], "amount": 300,
				"reference": "DLV-1"}}},
			once: func(t *testing.T) {}}
	},
	"POST " + admin + "/returns/:returnId/refund": func(t *testing.T, w retryWorld) retryCase {
		id := receivedReturn(t, w)
		return retryCase{path: admin + "/returns/" + id + "/refund", status: http.StatusOK,
			body: map[string]any{"method": "manual", "reference": "UTR-" + id[:8]},
			once: func(t *testing.T) {
				rowsAre(t, w, 1, `SELECT count(*) FROM refunds WHERE return_id = ?`, id)
				rowsAre(t, w, 1, `SELECT count(*) FROM returns WHERE id = ? AND status = 'refunded'`, id)
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
func auditedOnceByID(t *testing.T, w retryWorld, action, id string) {
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

// hiddenReview is the id of a new customer's hidden review of a new
// product.
func hiddenReview(t *testing.T, w retryWorld) string {
	t.Helper()
	r := models.Review{ProductID: fixtures.MustProduct(t, w.app.DB, "Rug "+uuid.NewString()[:6], 10000).ID,
		CustomerID: fixtures.MustCustomer(t, w.app.DB, "Reviewer").ID, Rating: 4, Comment: "Warm", Status: models.ReviewHidden}
	if err := w.app.DB.Create(&r).Error; err != nil {
		t.Fatal(err)
	}
	return r.ID.String()
}

// otherSession is the id of another session of the admin of w.token.
func otherSession(t *testing.T, w retryWorld) string {
	t.Helper()
	var a models.Admin
	if err := w.app.DB.Take(&a, "id = ?", whoAmI(t, w.app, w.token)).Error; err != nil {
		t.Fatal(err)
	}
	device := "retry-" + uuid.NewString()[:8]
	if _, err := w.app.AdminAuth.OpenSession(context.Background(), &a, identity.ClientInfo{DeviceID: device}); err != nil {
		t.Fatal(err)
	}
	var id string
	if err := w.app.DB.Raw(`SELECT id FROM admin_sessions WHERE device_id = ?`, device).Scan(&id).Error; err != nil || id == "" {
		t.Fatalf("no session of device %s: %v", device, err)
	}
	return id
}

// whoAmI is the id of the admin of token.
func whoAmI(t *testing.T, app *testkit.App, token string) string {
	t.Helper()
	return app.Do(t, http.MethodGet, admin+"/auth/me", testkit.Req{Token: token}).Expect(t, http.StatusOK).Map(t)["id"].(string)
}

// twoFactorOn turns 2FA on, afresh, for the admin of token and returns the
// admin's id and the backup codes.
func twoFactorOn(t *testing.T, app *testkit.App, token string) (string, []string) {
	t.Helper()
	me := whoAmI(t, app, token)
	if err := app.DB.Exec(`DELETE FROM admin_two_factor WHERE admin_id = ?`, me).Error; err != nil {
		t.Fatal(err)
	}
	secret := app.Do(t, http.MethodPost, admin+"/auth/2fa/generate-secret", testkit.Req{Token: token}).
		Expect(t, http.StatusOK).Map(t)["secret"].(string)
	var on struct {
		BackupCodes []string `json:"backupCodes"`
	}
	app.Do(t, http.MethodPost, admin+"/auth/2fa/enable", testkit.Req{Token: token, Body: map[string]any{"code": totpCode(t, secret)}}).
		Expect(t, http.StatusOK).JSON(t, &on)
	if len(on.BackupCodes) == 0 {
		t.Fatal("no backup codes")
	}
	return me, on.BackupCodes
}

// totpCode is the authenticator's code of secret for the previous step,
// so that the current step's is still unused.
func totpCode(t *testing.T, secret string) string {
	t.Helper()
	code, err := totp.GenerateCode(secret, time.Now().Add(-30*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	return code
}

// Switching 2FA on whose process died after it committed is answered, on
// the retry, with new backup codes in place of the ones its caller never
// saw: 2FA is on once, the first run's codes no longer work, the retry's
// do, and one audit entry.
func TestTwoFactorEnableRetriedAfterACrashAnswersNewCodes(t *testing.T) {
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, "viewer")
	me := whoAmI(t, app, token)
	secret := app.Do(t, http.MethodPost, admin+"/auth/2fa/generate-secret", testkit.Req{Token: token}).
		Expect(t, http.StatusOK).Map(t)["secret"].(string)
	path := admin + "/auth/2fa/enable"
	r := keyed(testkit.Req{Token: token}, "enable-"+me, map[string]any{"code": totpCode(t, secret)})
	type answer struct {
		Enabled     bool     `json:"enabled"`
		BackupCodes []string `json:"backupCodes"`
	}
	var first, retry answer
	app.Do(t, http.MethodPost, path, r).Expect(t, http.StatusOK).JSON(t, &first)
	crashBeforeAnswerKept(t, app, r.Headers["Idempotency-Key"])
	app.Do(t, http.MethodPost, path, r).Expect(t, http.StatusOK).JSON(t, &retry)
	if !retry.Enabled || len(retry.BackupCodes) != len(first.BackupCodes) || retry.BackupCodes[0] == first.BackupCodes[0] {
		t.Fatalf("the retry answered %+v, the first run %+v: want new codes", retry, first)
	}
	app.Do(t, http.MethodPost, path, r).ExpectError(t, http.StatusConflict, "CONFLICT") // done; its answer not kept
	rowsAre(t, retryWorld{app: app}, 1, `SELECT count(*) FROM admin_two_factor WHERE admin_id = ? AND enabled`, me)
	auditedOnceByID(t, retryWorld{app: app}, "auth.2fa_enable", me)
	app.Do(t, http.MethodPost, admin+"/auth/2fa/disable", testkit.Req{Token: token, Body: map[string]any{"code": first.BackupCodes[0]}}).
		ExpectError(t, http.StatusBadRequest, "VALIDATION_ERROR")
	app.Do(t, http.MethodPost, admin+"/auth/2fa/disable", testkit.Req{Token: token, Body: map[string]any{"code": retry.BackupCodes[0]}}).
		Expect(t, http.StatusOK)
}

// draftBody is a draft of 2 units of a new variant with 10 on hand, for a
// guest of an email of its own.
func draftBody(t *testing.T, w retryWorld) map[string]any {
	t.Helper()
	v := variant(t, w, 10)
	return map[string]any{"email": "draft-" + uuid.NewString()[:8] + "@example.com", "name": "Draft Buyer",
		"phone": "+91 98765 43210", "items": []any{map[string]any{"variantId": v.ID, "quantity": 2}}, "shippingCost": 0,
		"shippingAddress": map[string]any{"type": "shipping", "street": "12 MG Road", "city": "Bengaluru", "state": "Karnataka",
			"pincode": "560001", "district": "Bengaluru Urban", "country": "India"}}
}

// receivedReturn is the id of a received return of one unit of a
// delivered order, restocked.
func receivedReturn(t *testing.T, w retryWorld) string {
	t.Helper()
	id := requestedReturn(t, w, true)
	var item string
	if err := w.app.DB.Raw(`SELECT order_item_id FROM return_items WHERE return_id = ?`, id).Scan(&item).Error; err != nil {
		t.Fatal(err)
	}
	w.app.Do(t, http.MethodPost, admin+"/returns/"+id+"/receive", testkit.Req{Token: w.token, Body: map[string]any{
		"items": []any{map[string]any{"orderItemId": item, "quantity": 1, "restock": true}}}}).Expect(t, http.StatusOK)
	return id
}

// The status moves that belong to fulfilments (shipped: one fulfilment of
// every unshipped unit; delivered: all of them) and a cancel, each retried
// after its process died, answer the order as the move left it and make
// the move once.
func TestOrderStatusMovesRetriedAfterACrashMoveOnce(t *testing.T) {
	app := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, app, string(rbac.Admin))
	shipped, v := shopOrder(t, app)
	cancelled, c := shopOrder(t, app)
	for _, m := range []struct {
		order  models.Order
		status string
	}{{shipped, "processing"}, {shipped, "shipped"}, {shipped, "delivered"}, {cancelled, "cancelled"}} {
		path := admin + "/orders/" + m.order.ID.String() + "/status"
		r := keyed(testkit.Req{Token: token}, "move-"+m.status, map[string]any{"status": m.status})
		first := app.Do(t, http.MethodPatch, path, r).Expect(t, http.StatusOK)
		crashBeforeAnswerKept(t, app, r.Headers["Idempotency-Key"])
		retry := app.Do(t, http.MethodPatch, path, r).Expect(t, http.StatusOK)
		if !sameJSON(first.Body, retry.Body) {
			t.Fatalf("%s: the retry answered\n%s\nthe first run\n%s", m.status, retry.Body, first.Body)
		}
	}
	w := retryWorld{app: app}
	rowsAre(t, w, 1, `SELECT count(*) FROM fulfillments WHERE order_id = ?`, shipped.ID)
	rowsAre(t, w, 3, `SELECT count(*) FROM admin_audit_logs WHERE action = 'order.status_update' AND entity_id = ?`, shipped.ID.String())
	if got := fixtures.Reload(t, app.DB, v); got.Inventory != 7 || got.Committed != 0 {
		t.Fatalf("on hand %d, committed %d: want 3 units shipped once", got.Inventory, got.Committed)
	}
	if got := fixtures.Reload(t, app.DB, c); got.Inventory != 10 || got.Committed != 0 {
		t.Fatalf("on hand %d, committed %d: want the commitment returned once", got.Inventory, got.Committed)
	}
}
