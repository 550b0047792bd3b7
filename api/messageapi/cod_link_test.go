package messageapi_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/cod"
	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/testkit"
)

// pendingOrder places a guest's COD order of one unit from phone, checks
// it waits in pending_confirmation with its unit committed, and returns it
// with its link's token: the one the simulator received when fromSim
// (else made as the shop makes it, to spare the wait for the worker).
func (s *shop) pendingOrder(t *testing.T, phone string, fromSim bool) (order, string) {
	t.Helper()
	var o order
	s.guestCOD(t, s.variant, 1, phone, nil).Expect(t, http.StatusCreated).JSON(t, &o)
	if o.Status != "pending_confirmation" || committed(t, s, s.variant) != 1 {
		t.Fatalf("order %+v, committed %d", o, committed(t, s, s.variant))
	}
	if !fromSim {
		return o, cod.ConfirmToken([]byte(s.Config.CustomerJWTSecret), o.ID)
	}
	recs := s.waitSim(t, phone, 1)
	r := recs[0]
	if r.Template != "cod_confirm" || len(r.Variables) != 4 || r.Variables[1] != o.OrderNumber {
		t.Fatalf("confirmation message %+v", r)
	}
	u, err := url.Parse(r.Variables[3])
	if err != nil || u.Path != "/cod-confirm" || u.Query().Get("token") == "" {
		t.Fatalf("link %q", r.Variables[3])
	}
	return o, u.Query().Get("token")
}

func (s *shop) answer(t *testing.T, token, answer string) *testkit.Response {
	t.Helper()
	return s.Do(t, http.MethodPost, "/orders/cod-confirmation", testkit.Req{Body: map[string]any{"token": token, "answer": answer}})
}

func (s *shop) fulfil(t *testing.T, o order) *testkit.Response {
	t.Helper()
	return s.Do(t, http.MethodPost, "/api/v1/admin/orders/"+o.ID.String()+"/fulfillments", testkit.Req{Token: s.super,
		Body: map[string]any{"carrier": "Delhivery", "trackingNumber": "DL1"}})
}

// With COD confirmed by link, the order waits in pending_confirmation with
// its stock committed and cannot be fulfilled (409); the link (a page of
// the shop) confirms it, after which it ships and the customer gets the
// order-confirmed message; cancelling releases the stock; the timeout
// (the scheduler's job, with the clock given) cancels what was not
// answered, and when an answer and the timeout race the stock is released
// exactly once.
func TestCODConfirmationLink(t *testing.T) {
	s := newShop(t, true)
	s.paymentSettings(t, map[string]any{"confirmation": "link", "confirmAbove": 100})
	s.messageSettings(t, map[string]any{
		messaging.EventCODConfirmation: demoEvent(messaging.EventCODConfirmation, "sms"),
		messaging.EventOrderConfirmed:  demoEvent(messaging.EventOrderConfirmed, "sms"),
	})
	p := testkit.MustStoreProduct(t, s.DB, testkit.StoreProduct{Price: 50000, Variants: []testkit.StoreVariant{{Inventory: 20}}})
	s.variant = p.Variants[0].ID

	// Confirmed.
	phone := uniquePhone()
	o, token := s.pendingOrder(t, phone, true)
	s.fulfil(t, o).ExpectError(t, http.StatusConflict, "CONFLICT")
	page := s.Do(t, http.MethodGet, "/cod-confirm?token="+token, testkit.Req{}).Expect(t, http.StatusOK)
	if !strings.Contains(string(page.Body), "cod-confirm.js") || page.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("page %s", page.Body)
	}
	s.answer(t, token[:len(token)-2]+"xx", "confirm").ExpectField(t, "token")
	var got struct{ OrderNumber, Status string }
	s.answer(t, token, "confirm").Expect(t, http.StatusOK).JSON(t, &got)
	if got.Status != "confirmed" || got.OrderNumber != o.OrderNumber {
		t.Fatalf("answer %+v", got)
	}
	s.answer(t, token, "cancel").ExpectError(t, http.StatusConflict, "CONFLICT")
	s.fulfil(t, o).Expect(t, http.StatusCreated)
	if recs := s.waitSim(t, phone, 2); recs[1].Template != "order_confirmed" {
		t.Fatalf("after the confirmation %+v", recs[1])
	}

	// Cancelled by the customer: the stock comes back.
	o, token = s.pendingOrder(t, uniquePhone(), false)
	s.answer(t, token, "cancel").Expect(t, http.StatusOK).JSON(t, &got)
	if got.Status != "cancelled" || committed(t, s, s.variant) != 0 { // the first order's unit shipped
		t.Fatalf("cancel %+v, committed %d", got, committed(t, s, s.variant))
	}

	// Timed out: nothing before COD_CONFIRM_HOURS, cancelled after.
	ctx := context.Background()
	o, token = s.pendingOrder(t, uniquePhone(), false)
	window := time.Duration(s.Config.CODConfirmHours) * time.Hour
	if n, err := s.Orders.ExpireCODConfirmations(ctx, time.Now().Add(time.Hour-window)); err != nil || n != 0 {
		t.Fatalf("expired %d early (%v)", n, err)
	}
	if n, err := s.Orders.ExpireCODConfirmations(ctx, time.Now().Add(time.Minute)); err != nil || n != 1 {
		t.Fatalf("expired %d (%v)", n, err)
	}
	s.answer(t, token, "confirm").ExpectError(t, http.StatusConflict, "CONFLICT")
	if c := committed(t, s, s.variant); c != 0 {
		t.Fatalf("committed %d after the timeout", c)
	}

	// The answer and the timeout race: one of them cancels, once.
	for i := 0; i < 3; i++ {
		o, token = s.pendingOrder(t, uniquePhone(), false)
		var wg sync.WaitGroup
		var status int
		var expired int
		wg.Add(2)
		go func() { defer wg.Done(); status = s.answer(t, token, "cancel").Status }()
		go func() {
			defer wg.Done()
			n, err := s.Orders.ExpireCODConfirmations(ctx, time.Now().Add(time.Minute))
			if err != nil {
				t.Error(err)
			}
			expired = n
		}()
		wg.Wait()
		if (status == http.StatusOK) == (expired == 1) {
			t.Fatalf("answer %d and timeout %d: exactly one must cancel", status, expired)
		}
		if c := committed(t, s, s.variant); c != 0 {
			t.Fatalf("committed %d after the race: stock released %d times", c, 1-c)
		}
		if n := count(t, s, `SELECT count(*) FROM order_status_history WHERE order_id = ? AND to_status = 'cancelled'`, o.ID); n != 1 {
			t.Fatalf("%d cancellations", n)
		}
	}
}
