package messageapi_test

import (
	"context"
	"net/http"
	"slices"
	"testing"

	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

// Each event reaches the channels its settings name, once, with the
// template's variables filled, and its status follows the receipts: an
// opted-in customer's confirmed order goes by SMS and WhatsApp, a guest's
// (no opt-in) by SMS only; a shipment by SMS with its tracking; the event
// fanned out again sends nothing more; a phone that replied STOP gets
// nothing more on that channel.
func TestEventsReachTheirChannelsOnce(t *testing.T) {
	s := newShop(t, true)
	s.paymentSettings(t, nil)
	s.messageSettings(t, map[string]any{
		messaging.EventOrderConfirmed: demoEvent(messaging.EventOrderConfirmed, "sms", "whatsapp"),
		messaging.EventShipped:        demoEvent(messaging.EventShipped, "sms"),
	})
	p := testkit.MustStoreProduct(t, s.DB, testkit.StoreProduct{Price: 100000, Variants: []testkit.StoreVariant{{Inventory: 20}}})
	v := p.Variants[0].ID

	// A customer who opted in to WhatsApp.
	cu, token := testkit.MustCustomer(t, s.App)
	addr := testkit.MustAddress(t, s.App, cu.ID)
	var prefs struct {
		MessagePreferences messaging.Preferences `json:"messagePreferences"`
	}
	s.Do(t, http.MethodGet, "/customers/me/message-preferences", testkit.Req{Token: token}).Expect(t, http.StatusOK).JSON(t, &prefs)
	if !prefs.MessagePreferences.SMS || prefs.MessagePreferences.WhatsApp {
		t.Fatalf("default preferences %+v, want sms only", prefs.MessagePreferences)
	}
	s.Do(t, http.MethodPut, "/customers/me/message-preferences", testkit.Req{Token: token,
		Body: map[string]any{"messagePreferences": map[string]any{"sms": true, "whatsapp": true}}}).Expect(t, http.StatusOK)
	s.sim.OptIn(cu.Phone)
	s.Do(t, http.MethodPost, "/cart/items", testkit.Req{Token: token, Body: map[string]any{"variantId": v, "quantity": 1}}).Expect(t, http.StatusCreated)
	var mine order
	s.Do(t, http.MethodPost, "/orders", testkit.Req{Token: token, Body: map[string]any{"shippingAddressId": addr,
		"billingAddressId": addr, "shippingCost": 0, "paymentMethod": "cod"}}).Expect(t, http.StatusCreated).JSON(t, &mine)

	got := s.waitStatuses(t, mine.ID, 2, messaging.StatusDelivered)
	recs := s.waitSim(t, cu.Phone, 2)
	channels := []string{recs[0].Channel, recs[1].Channel}
	slices.Sort(channels)
	if !slices.Equal(channels, []string{"sms", "whatsapp"}) {
		t.Fatalf("channels %v", channels)
	}
	for _, r := range recs {
		want := []string{cu.Name, mine.OrderNumber, "1000.00"}
		if !slices.Equal(r.Variables, want) || r.To != messaging.Phone(cu.Phone) {
			t.Fatalf("%s message %+v, want variables %v", r.Channel, r, want)
		}
		if r.Channel == "sms" && r.Text != "Hi Test Shopper, your order "+mine.OrderNumber+" of Rs 1000.00 is confirmed. - Shop" {
			t.Fatalf("sms text %q", r.Text)
		}
	}
	for _, m := range got {
		if m.Event != messaging.EventOrderConfirmed || m.ProviderRef == nil || m.SentAt == nil || m.Attempts != 1 {
			t.Fatalf("message %+v", m)
		}
	}

	// A guest never opted in: SMS only.
	phone := uniquePhone()
	var theirs order
	s.guestCOD(t, v, 1, phone, nil).Expect(t, http.StatusCreated).JSON(t, &theirs)
	s.waitStatuses(t, theirs.ID, 1, messaging.StatusDelivered)
	if recs := s.waitSim(t, phone, 1); len(recs) != 1 || recs[0].Channel != "sms" {
		t.Fatalf("guest's messages %+v", recs)
	}

	// Shipped: SMS with the tracking.
	s.Do(t, http.MethodPost, "/api/v1/admin/orders/"+mine.ID.String()+"/fulfillments", testkit.Req{Token: s.super,
		Body: map[string]any{"carrier": "Delhivery", "trackingNumber": "DL123", "trackingUrl": "https://track.example/DL123"}}).
		Expect(t, http.StatusCreated)
	s.waitStatuses(t, mine.ID, 3, messaging.StatusDelivered)
	recs = s.waitSim(t, cu.Phone, 3)
	if last := recs[2]; last.Channel != "sms" || !slices.Equal(last.Variables,
		[]string{cu.Name, mine.OrderNumber, "Delhivery", "DL123", "https://track.example/DL123"}) {
		t.Fatalf("shipped message %+v", last)
	}

	// The events fanned out again (a retried task) write and send nothing.
	var events []uuid.UUID
	s.DB.Raw(`SELECT id FROM events WHERE data->>'orderId' = ?`, mine.ID.String()).Scan(&events)
	for _, id := range events {
		if err := s.Messages.FromEvent(context.Background(), id); err != nil {
			t.Fatal(err)
		}
	}
	if n := count(t, s, `SELECT count(*) FROM messages WHERE order_id = ?`, mine.ID); n != 3 {
		t.Fatalf("%d messages after the events came again", n)
	}

	// The guest replies STOP by SMS: the shipment sends nothing.
	s.Do(t, http.MethodPost, "/api/v1/admin/orders/"+theirs.ID.String()+"/fulfillments", testkit.Req{Token: s.super,
		Body: map[string]any{"carrier": "Delhivery", "trackingNumber": "DL9"}}).Expect(t, http.StatusCreated)
	s.waitStatuses(t, theirs.ID, 2, messaging.StatusDelivered) // shipped before the STOP
	testkit.Do(t, http.MethodPost, s.simURL+"/sim/inbound", testkit.Req{Invalid: true,
		Body: map[string]any{"channel": "sms", "from": phone, "text": "STOP"}}).Expect(t, http.StatusNoContent)
	if n := count(t, s, `SELECT count(*) FROM message_opt_outs WHERE phone = ? AND channel = 'sms'`, messaging.Phone(phone)); n != 1 {
		t.Fatalf("%d opt-outs", n)
	}
	var again order
	s.guestCOD(t, v, 1, phone, nil).Expect(t, http.StatusCreated).JSON(t, &again)
	// Planned here for certain (the worker's fan-out may come before or
	// after; either plans the same): nothing for the stopped phone.
	var created uuid.UUID
	s.DB.Raw(`SELECT id::text FROM events WHERE type = 'order.created' AND data->>'orderId' = ?`, again.ID.String()).Row().Scan(&created)
	if created == uuid.Nil {
		t.Fatal("no order.created event")
	}
	if err := s.Messages.FromEvent(context.Background(), created); err != nil {
		t.Fatal(err)
	}
	if n := count(t, s, `SELECT count(*) FROM messages WHERE order_id = ?`, again.ID); n != 0 {
		t.Fatalf("%d messages to a phone that replied STOP", n)
	}
	if recs := s.sim.Messages(phone); len(recs) != 2 {
		t.Fatalf("the simulator got %d messages for the stopped phone, want the 2 before STOP", len(recs))
	}
}
