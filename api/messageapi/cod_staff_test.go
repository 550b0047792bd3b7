package messageapi_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
)

// Staff answer a COD confirmation for the customer (POST
// /admin/orders/{id}/cod-confirmation): confirming is the link's
// confirmation (the order-confirmed message is written, the link then
// finds it answered), recorded as the administrator's and audited;
// cancelling releases the stock; and when staff cancel while the customer
// confirms, exactly one of them wins and the stock is released at most
// once.
func TestStaffAnswersCODConfirmation(t *testing.T) {
	s := newShop(t, false)
	s.paymentSettings(t, map[string]any{"confirmation": "link", "confirmAbove": 100})
	s.messageSettings(t, map[string]any{messaging.EventOrderConfirmed: demoEvent(messaging.EventOrderConfirmed, "sms")})
	p := testkit.MustStoreProduct(t, s.DB, testkit.StoreProduct{Price: 50000, Variants: []testkit.StoreVariant{{Inventory: 50}}})
	s.variant = p.Variants[0].ID
	staffAdmin, staff := testkit.MustAdmin(t, s.App, string(rbac.Staff))
	answer := func(o order, a string) *testkit.Response {
		return s.Do(t, http.MethodPost, "/api/v1/admin/orders/"+o.ID.String()+"/cod-confirmation",
			testkit.Req{Token: staff, Body: map[string]any{"answer": a}, Invalid: a != "confirm" && a != "cancel"})
	}

	// Confirmed by staff.
	o, token := s.pendingOrder(t, uniquePhone(), false)
	answer(o, "maybe").ExpectField(t, "answer")
	var got struct{ OrderNumber, Status string }
	answer(o, "confirm").Expect(t, http.StatusOK).JSON(t, &got)
	if got.Status != "confirmed" || got.OrderNumber != o.OrderNumber {
		t.Fatalf("answer %+v", got)
	}
	s.answer(t, token, "cancel").ExpectError(t, http.StatusConflict, "CONFLICT")
	answer(o, "cancel").ExpectError(t, http.StatusConflict, "CONFLICT")
	if n := count(t, s, `SELECT count(*) FROM messages WHERE order_id = ? AND event = 'orderConfirmed'`, o.ID); n != 1 {
		t.Fatalf("%d order-confirmed messages", n)
	}
	if n := count(t, s, `SELECT count(*) FROM order_status_history WHERE order_id = ? AND to_status = 'confirmed' AND admin_id = ?`, o.ID, staffAdmin.ID); n != 1 {
		t.Fatalf("%d confirmations by the administrator in the history", n)
	}
	// Placed waiting (not confirmed), then confirmed by staff.
	if n := count(t, s, `SELECT count(*) FROM order_status_history WHERE order_id = ? AND from_status IS NULL AND to_status = 'pending_confirmation'`, o.ID); n != 1 {
		t.Fatalf("the history does not start with the order placed waiting (%d)", n)
	}
	if n := count(t, s, `SELECT count(*) FROM admin_audit_logs WHERE action = 'order.cod_confirmation' AND entity_id = ?`, o.ID.String()); n != 1 {
		t.Fatalf("%d audit entries", n)
	}
	s.fulfil(t, o).Expect(t, http.StatusCreated)

	// Cancelled by staff: the stock comes back (the first order's unit shipped).
	o, _ = s.pendingOrder(t, uniquePhone(), false)
	answer(o, "cancel").Expect(t, http.StatusOK).JSON(t, &got)
	if got.Status != "cancelled" || committed(t, s, s.variant) != 0 {
		t.Fatalf("cancel %+v, committed %d", got, committed(t, s, s.variant))
	}

	// Staff cancel while the customer confirms: one answer wins, once.
	for i := 0; i < 3; i++ {
		o, token = s.pendingOrder(t, uniquePhone(), false)
		var wg sync.WaitGroup
		var staffStatus, customerStatus int
		wg.Add(2)
		go func() { defer wg.Done(); staffStatus = answer(o, "cancel").Status }()
		go func() { defer wg.Done(); customerStatus = s.answer(t, token, "confirm").Status }()
		wg.Wait()
		if (staffStatus == http.StatusOK) == (customerStatus == http.StatusOK) {
			t.Fatalf("staff %d, customer %d: exactly one answer must win", staffStatus, customerStatus)
		}
		want, cancels := 1, int64(0)
		if staffStatus == http.StatusOK {
			want, cancels = 0, 1
		}
		if c := committed(t, s, s.variant); c != want {
			t.Fatalf("committed %d after the race, want %d", c, want)
		}
		if n := count(t, s, `SELECT count(*) FROM order_status_history WHERE order_id = ? AND to_status = 'cancelled'`, o.ID); n != cancels {
			t.Fatalf("%d cancellations, want %d", n, cancels)
		}
		if cancels == 0 { // the next order starts from nothing committed
			s.Do(t, http.MethodPatch, "/api/v1/admin/orders/"+o.ID.String()+"/status",
				testkit.Req{Token: staff, Body: map[string]any{"status": "cancelled"}}).Expect(t, http.StatusOK)
		}
	}
}
