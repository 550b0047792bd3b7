package idempotent_test

import (
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

const admin = "/api/v1/admin"

// retryCase is a keyed admin write to send, crash and retry: path is the
// concrete path, body the request (headers, when set, are sent with it: a
// multipart body's Content-Type), status the answer of the first run;
// once checks the database shows the change made once.
type retryCase struct {
	path    string
	body    any
	headers map[string]string
	status  int
	once    func(t *testing.T)
}

// retryWorld is what the cases of TestEveryAdminWriteIsRetrySafe share.
type retryWorld struct {
	app   *testkit.App
	token string
}

// adminRetryCases are the admin writes proved retry-safe after a crash
// between their commit and keeping their answer: each makes what it
// needs and names how to see its change made once.
var adminRetryCases = map[string]func(t *testing.T, w retryWorld) retryCase{
	"POST " + admin + "/inventory/transfers": func(t *testing.T, w retryWorld) retryCase {
		v, from, to := transferStock(t, w)
		return retryCase{path: admin + "/inventory/transfers", status: http.StatusCreated,
			body: map[string]any{"fromLocationId": from, "toLocationId": to, "items": []any{map[string]any{"variantId": v.ID, "quantity": 2}}},
			once: func(t *testing.T) { inventoryIs(t, w, v, 8) }}
	},
	"POST " + admin + "/inventory/transfers/:transferId/receive": func(t *testing.T, w retryWorld) retryCase {
		id, v := sentTransfer(t, w)
		return retryCase{path: admin + "/inventory/transfers/" + id + "/receive", status: http.StatusOK,
			once: func(t *testing.T) { inventoryIs(t, w, v, 8) }} // received at a location that does not sell
	},
	"POST " + admin + "/inventory/transfers/:transferId/cancel": func(t *testing.T, w retryWorld) retryCase {
		id, v := sentTransfer(t, w)
		return retryCase{path: admin + "/inventory/transfers/" + id + "/cancel", status: http.StatusOK,
			once: func(t *testing.T) { inventoryIs(t, w, v, 10) }}
	},
	"POST " + admin + "/variants/:variantId/inventory/adjust": func(t *testing.T, w retryWorld) retryCase {
		v := variant(t, w, 10)
		return retryCase{path: admin + "/variants/" + v.ID.String() + "/inventory/adjust", status: http.StatusOK,
			body: map[string]any{"adjustment": -4}, once: func(t *testing.T) { inventoryIs(t, w, v, 6) }}
	},
	"PATCH " + admin + "/variants/:variantId/inventory": func(t *testing.T, w retryWorld) retryCase {
		v := variant(t, w, 10)
		return retryCase{path: admin + "/variants/" + v.ID.String() + "/inventory", status: http.StatusOK,
			body: map[string]any{"operation": "add", "inventory": 3}, once: func(t *testing.T) { inventoryIs(t, w, v, 13) }}
	},
	"POST " + admin + "/orders/:orderId/edits": func(t *testing.T, w retryWorld) retryCase {
		o, _ := shopOrder(t, w.app)
		add := variant(t, w, 5)
		return retryCase{path: admin + "/orders/" + o.ID.String() + "/edits", status: http.StatusOK,
			body: map[string]any{"add": []any{map[string]any{"variantId": add.ID, "quantity": 2}}},
			once: func(t *testing.T) {
				rowsAre(t, w, 1, `SELECT count(*) FROM order_edits WHERE order_id = ?`, o.ID)
				if got := fixtures.Reload(t, w.app.DB, add); got.Committed != 2 {
					t.Fatalf("%d units committed: want 2", got.Committed)
				}
			}}
	},
	"POST " + admin + "/orders/:orderId/fulfillments": func(t *testing.T, w retryWorld) retryCase {
		o, v := shopOrder(t, w.app)
		return retryCase{path: admin + "/orders/" + o.ID.String() + "/fulfillments", status: http.StatusCreated,
			body: map[string]any{"carrier": "Delhivery", "trackingNumber": "DL1",
				"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 1}}},
			once: func(t *testing.T) { inventoryIs(t, w, v, 9) }}
	},
	"POST " + admin + "/orders/:orderId/returns": func(t *testing.T, w retryWorld) retryCase {
		o := shippedOrder(t, w)
		return retryCase{path: admin + "/orders/" + o.ID.String() + "/returns", status: http.StatusCreated,
			body: map[string]any{"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 1, "reason": "damaged"}}},
			once: func(t *testing.T) { rowsAre(t, w, 1, `SELECT count(*) FROM returns WHERE order_id = ?`, o.ID) }}
	},
	"POST " + admin + "/orders/:orderId/refund": func(t *testing.T, w retryWorld) retryCase {
		o, _ := shopOrder(t, w.app)
		return retryCase{path: admin + "/orders/" + o.ID.String() + "/refund", status: http.StatusOK,
			body: map[string]any{"amount": 50, "reason": "goodwill"},
			once: func(t *testing.T) { rowsAre(t, w, 5000, `SELECT refunded_total FROM orders WHERE id = ?`, o.ID) }}
	},
	"POST " + admin + "/orders/:orderId/payments": func(t *testing.T, w retryWorld) retryCase {
		o, _ := shopOrder(t, w.app)
		if err := w.app.DB.Exec(`UPDATE orders SET payment_status = 'pending', paid_total = 0 WHERE id = ?`, o.ID).Error; err != nil {
			t.Fatal(err)
		}
		return retryCase{path: admin + "/orders/" + o.ID.String() + "/payments", status: http.StatusCreated,
			body: map[string]any{"method": "cod", "amount": 300, "reference": "DLV-1"},
			once: func(t *testing.T) {
				rowsAre(t, w, 1, `SELECT count(*) FROM payments WHERE order_id = ? AND provider = 'offline'`, o.ID)
				rowsAre(t, w, 30000, `SELECT paid_total FROM orders WHERE id = ?`, o.ID)
			}}
	},
	"POST " + admin + "/orders/:orderId/fulfillments/:fulfillmentId/deliver": func(t *testing.T, w retryWorld) retryCase {
		path, v := shipped(t, w)
		return retryCase{path: path + "/deliver", status: http.StatusOK, once: func(t *testing.T) { inventoryIs(t, w, v, 9) }}
	},
	"POST " + admin + "/orders/:orderId/fulfillments/:fulfillmentId/cancel": func(t *testing.T, w retryWorld) retryCase {
		path, v := shipped(t, w)
		return retryCase{path: path + "/cancel", status: http.StatusOK, once: func(t *testing.T) { inventoryIs(t, w, v, 10) }}
	},
	"POST " + admin + "/orders/:orderId/fulfillments/:fulfillmentId/return-to-origin": func(t *testing.T, w retryWorld) retryCase {
		path, v := shipped(t, w)
		return retryCase{path: path + "/return-to-origin", status: http.StatusOK, once: func(t *testing.T) { inventoryIs(t, w, v, 10) }}
	},
	"POST " + admin + "/returns/:returnId/approve": func(t *testing.T, w retryWorld) retryCase {
		id := requestedReturn(t, w, false)
		return retryCase{path: admin + "/returns/" + id + "/approve", status: http.StatusOK,
			once: func(t *testing.T) {
				rowsAre(t, w, 1, `SELECT count(*) FROM returns WHERE id = ? AND status = 'approved'`, id)
			}}
	},
	"POST " + admin + "/returns/:returnId/reject": func(t *testing.T, w retryWorld) retryCase {
		id := requestedReturn(t, w, false)
		return retryCase{path: admin + "/returns/" + id + "/reject", status: http.StatusOK, body: map[string]any{"reason": "worn"},
			once: func(t *testing.T) {
				rowsAre(t, w, 1, `SELECT count(*) FROM returns WHERE id = ? AND status = 'rejected'`, id)
			}}
	},
	"POST " + admin + "/returns/:returnId/cancel": func(t *testing.T, w retryWorld) retryCase {
		id := requestedReturn(t, w, true)
		return retryCase{path: admin + "/returns/" + id + "/cancel", status: http.StatusOK,
			once: func(t *testing.T) {
				rowsAre(t, w, 1, `SELECT count(*) FROM returns WHERE id = ? AND status = 'cancelled'`, id)
			}}
	},
	"POST " + admin + "/returns/:returnId/receive": func(t *testing.T, w retryWorld) retryCase {
		id := requestedReturn(t, w, true)
		var item string
		if err := w.app.DB.Raw(`SELECT order_item_id FROM return_items WHERE return_id = ?`, id).Scan(&item).Error; err != nil {
			t.Fatal(err)
		}
		return retryCase{path: admin + "/returns/" + id + "/receive", status: http.StatusOK,
			body: map[string]any{"items": []any{map[string]any{"orderItemId": item, "quantity": 1, "restock": true}}},
			once: func(t *testing.T) {
				rowsAre(t, w, 1, `SELECT count(*) FROM returns WHERE id = ? AND status = 'received'`, id)
				rowsAre(t, w, 8, `SELECT v.inventory FROM variants v JOIN order_items i ON i.variant_id = v.id WHERE i.id = ?`, item)
			}}
	},
	"POST " + admin + "/inventory/bulk-update": func(t *testing.T, w retryWorld) retryCase {
		v := variant(t, w, 10)
		// The answer names the job; the retry's names the same one, which
		// the worker applies once (stock.ApplyBulk claims its id).
		return retryCase{path: admin + "/inventory/bulk-update", status: http.StatusAccepted,
			body: map[string]any{"updates": []any{map[string]any{"variantId": v.ID, "operation": "add", "inventory": 3}}},
			once: func(t *testing.T) {}}
	},
}

// retryMayDiffer are the admin writes whose retry after such a crash may
// answer otherwise than the first run, and why that is right.
var retryMayDiffer = map[string]string{
	"POST " + admin + "/auth/login":         "no Idempotency-Key: an auth endpoint",
	"POST " + admin + "/auth/refresh":       "no Idempotency-Key: an auth endpoint",
	"POST " + admin + "/auth/2fa/verify":    "no Idempotency-Key: an auth endpoint",
	"PUT " + admin + "/settings/payments":   "a PUT of the whole settings: the retry sets the same values again",
	"PUT " + admin + "/settings/tax":        "a PUT of the whole settings: the retry sets the same values again",
	"POST " + admin + "/system/cache/clear": "clearing a cache twice leaves it as clearing it once",
	"POST " + admin + "/system/database/reconcile": "reconcile repairs counters to what the rows say: running it again " +
		"finds nothing more to repair and answers so",
	"POST " + admin + "/queues/*":   "the queue dashboard (asynqmon) speaks its own API on the queue, not this service's changes: outside this rule",
	"DELETE " + admin + "/queues/*": "the queue dashboard (asynqmon) speaks its own API on the queue, not this service's changes: outside this rule",
	"POST " + admin + "/order-exports": "an export job is a read: a second file of the same orders changes nothing " +
		"(its answer names another job)",
	"POST " + admin + "/auth/2fa/generate-secret": "its answer carries the secret and is not kept (Cache-Control: no-store): " +
		"a repeat is 409 \"done; answer not kept\", and a new secret replaces the unconfirmed one",
	"DELETE " + admin + "/auth/logout":            "a retry finds the session ended and answers 401: nothing is ended twice",
	"DELETE " + admin + "/auth/logout/all":        "a retry finds the session ended and answers 401: nothing is ended twice",
	"POST " + admin + "/webhooks/:webhookId/test": "sends a test delivery; a second test delivery is what a retry of a test asks for",
	"PUT " + admin + "/settings/messages":         "a PUT of the whole settings: the retry sets the same values again",
	"POST " + admin + "/labels":                   "answers the labels' PDF of booked shipments: a read, which a retry answers again",
	"POST " + admin + "/invoices/:invoiceId/e-invoice/retry": "queues the report again; the retry of one already reported " +
		"answers 409, and the IRP answers a second report of the document with its IRN (duplicate 2150), never a second one",
}

// notYetRetrySafe are the admin writes not yet retry-safe after a crash
// between the commit and keeping the answer, each with what its retry does
// instead: a new write is proved in adminRetryCases, or listed here with
// its reason until it is.
var notYetRetrySafe = map[string]string{
	"POST " + admin + "/pickups": "not yet proved: a retry asks the courier to schedule the same parcels' pickup " +
		"again, and answers what the courier says to that instead of the first manifest",
	"POST " + admin + "/orders/:orderId/fulfillments/:fulfillmentId/ndr-action": "not yet proved: a retry sends the " +
		"courier the same decision again (the courier acts on it once)",
	"POST " + admin + "/orders/:orderId/fulfillments/:fulfillmentId/eway-bill/retry": "not yet proved: a retry queues " +
		"the e-way bill again; one already generated answers 409",
	"POST " + admin + "/inventory/transfers/:transferId/eway-bill/retry": "not yet proved: a retry queues " +
		"the e-way bill again; one already generated answers 409",
}

// Every admin write is retry-safe after a process dies between its
// commit and keeping its answer: the retry, which takes the key over,
// answers the same status and body as the first run, and the database
// shows the change once. The routes are the Fiber route stack's, so a
// route added later must be proved here or listed with its reason.
func TestEveryAdminWriteIsRetrySafe(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) {
		c.AdminGeneralRateLimit, c.AdminBulkRateLimit, c.AdminAnalyticsRateLimit = 100000, 100000, 100000
	}))
	_, token := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	w := retryWorld{app: app, token: token}
	seen := map[string]bool{}
	for _, r := range app.Server.App.GetRoutes(true) {
		switch r.Method {
		case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		default:
			continue
		}
		if !strings.HasPrefix(r.Path, admin+"/") {
			continue
		}
		rt := r.Method + " " + r.Path
		seen[rt] = true
		mk, proved := adminRetryCases[rt]
		_, differs := retryMayDiffer[rt]
		_, unsafe := notYetRetrySafe[rt]
		if !proved && !differs && !unsafe {
			t.Errorf("%s: neither proved retry-safe (adminRetryCases) nor listed with its reason", rt)
			continue
		}
		if !proved {
			continue
		}
		if differs || unsafe {
			t.Errorf("%s: proved retry-safe, and listed as not", rt)
		}
		t.Run(rt, func(t *testing.T) {
			c := mk(t, w)
			req := keyed(testkit.Req{Token: token, Headers: c.headers}, "retry-"+uuid.NewString(), c.body)
			first := app.Do(t, r.Method, c.path, req).Expect(t, c.status)
			crashBeforeAnswerKept(t, app, req.Headers["Idempotency-Key"])
			retry := app.Do(t, r.Method, c.path, req).Expect(t, c.status)
			if !sameJSON(first.Body, retry.Body) {
				t.Fatalf("the retry answered\n%s\nthe first run\n%s", retry.Body, first.Body)
			}
			c.once(t)
		})
	}
	for _, m := range []map[string]string{retryMayDiffer, notYetRetrySafe} {
		for rt := range m {
			if !seen[rt] {
				t.Errorf("%s is listed but names no admin write", rt)
			}
		}
	}
	for rt := range adminRetryCases {
		if !seen[rt] {
			t.Errorf("%s is proved but names no admin write", rt)
		}
	}
}

// sameJSON reports whether two JSON bodies hold the same value.
func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return string(a) == string(b)
	}
	return reflect.DeepEqual(x, y)
}

func variant(t *testing.T, w retryWorld, onHand int) models.Variant {
	t.Helper()
	p := fixtures.MustProduct(t, w.app.DB, "Retry "+uuid.NewString()[:6], 10000)
	return fixtures.MustVariant(t, w.app.DB, p.ID, onHand)
}

func inventoryIs(t *testing.T, w retryWorld, v models.Variant, want int) {
	t.Helper()
	if got := fixtures.Reload(t, w.app.DB, v); got.Inventory != want {
		t.Fatalf("inventory %d: want %d, the change made once", got.Inventory, want)
	}
}

func rowsAre(t *testing.T, w retryWorld, want int64, sql string, args ...any) {
	t.Helper()
	if n := count(t, w.app, sql, args...); n != want {
		t.Fatalf("%s: %d, want %d", sql, n, want)
	}
}

// transferStock is a variant with 10 units at the default location, and
// the default location and a new one that does not sell.
func transferStock(t *testing.T, w retryWorld) (v models.Variant, from, to string) {
	t.Helper()
	code := "B" + strings.ToUpper(uuid.NewString()[:6])
	to, _ = w.app.Do(t, http.MethodPost, admin+"/locations", testkit.Req{Token: w.token, Body: map[string]any{
		"name": "Back store " + code, "code": code, "priority": 20, "fulfilsOnline": false,
		"address": map[string]any{"line1": "1 Dock Road", "city": "Somewhere", "state": "Karnataka", "pincode": "400001"}}}).
		Expect(t, http.StatusCreated).Map(t)["id"].(string)
	return variant(t, w, 10), defaultLocation(t, w.app), to
}

// sentTransfer is a transfer of 2 of a variant's 10 units, in transit.
func sentTransfer(t *testing.T, w retryWorld) (string, models.Variant) {
	t.Helper()
	v, from, to := transferStock(t, w)
	id := w.app.Do(t, http.MethodPost, admin+"/inventory/transfers", testkit.Req{Token: w.token, Body: map[string]any{
		"fromLocationId": from, "toLocationId": to, "items": []any{map[string]any{"variantId": v.ID, "quantity": 2}}}}).
		Expect(t, http.StatusCreated).Map(t)["id"].(string)
	return id, v
}

// shippedOrder is a delivered order whose 3 units shipped.
func shippedOrder(t *testing.T, w retryWorld) models.Order {
	t.Helper()
	p := fixtures.MustProduct(t, w.app.DB, "Mug "+uuid.NewString()[:6], 10000)
	v := fixtures.MustVariant(t, w.app.DB, p.ID, 10)
	o := fixtures.MustOrder(t, w.app.DB, fixtures.OrderSpec{Customer: fixtures.MustCustomer(t, w.app.DB, "R"),
		Status: models.OrderDelivered, Lines: []fixtures.Line{{Product: p, Variant: v, Qty: 3}}})
	delivered := time.Now().UTC().Add(-time.Hour)
	f := models.Fulfillment{OrderID: o.ID, Status: models.ShipmentDelivered, Carrier: "Delhivery", TrackingNumber: "T1",
		ShippedAt: delivered.Add(-time.Hour), DeliveredAt: &delivered, CreatedAt: delivered, UpdatedAt: delivered,
		Items: []models.FulfillmentItem{{OrderItemID: o.Items[0].ID, Quantity: 3}}}
	if err := w.app.DB.Create(&f).Error; err != nil {
		t.Fatal(err)
	}
	return o
}

// shipped is the path of a fulfilment of one of an order's 3 units of a
// variant with 10 on hand (9 after it), and the variant.
func shipped(t *testing.T, w retryWorld) (string, models.Variant) {
	t.Helper()
	o, v := shopOrder(t, w.app)
	path := admin + "/orders/" + o.ID.String() + "/fulfillments"
	id := w.app.Do(t, http.MethodPost, path, testkit.Req{Token: w.token, Body: map[string]any{"carrier": "Delhivery",
		"trackingNumber": "DL2", "items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 1}}}}).
		Expect(t, http.StatusCreated).Map(t)["id"].(string)
	return path + "/" + id, v
}

// requestedReturn is the id of a return of one of a delivered order's 3
// units (the variant had 10 on hand, 7 after the shipment), approved when
// approved is set.
func requestedReturn(t *testing.T, w retryWorld, approved bool) string {
	t.Helper()
	o := shippedOrder(t, w)
	if err := w.app.DB.Exec(`UPDATE variants SET inventory = 7 WHERE id = (SELECT variant_id FROM order_items WHERE id = ?)`,
		o.Items[0].ID).Error; err != nil {
		t.Fatal(err)
	}
	id := w.app.Do(t, http.MethodPost, admin+"/orders/"+o.ID.String()+"/returns", testkit.Req{Token: w.token,
		Body: map[string]any{"items": []any{map[string]any{"orderItemId": o.Items[0].ID, "quantity": 1, "reason": "damaged"}}}}).
		Expect(t, http.StatusCreated).Map(t)["id"].(string)
	if approved {
		w.app.Do(t, http.MethodPost, admin+"/returns/"+id+"/approve", testkit.Req{Token: w.token}).Expect(t, http.StatusOK)
	}
	return id
}
