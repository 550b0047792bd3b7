package messageapi_test

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"testing"

	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/google/uuid"
)

// A worker killed after the provider accepted a message and before it
// marked it sent leaves it pending; the retry sends it again carrying the
// same idempotency reference (the message's id, MSG91's CRQID), so the
// provider and its receipts see one message: the row ends sent once, then
// delivered. (docs/DECISIONS.md: the second send carries the reference;
// neither provider takes an idempotency key.)
func TestSendAfterACrashCarriesTheSameReference(t *testing.T) {
	s := newShop(t, false)
	// Receipts on demand: one arriving between the crash and the retry
	// would show the message delivered, and the retry rightly skips it.
	s.sim.AutoReceipts = false
	s.paymentSettings(t, nil)
	s.messageSettings(t, map[string]any{messaging.EventOrderConfirmed: demoEvent(messaging.EventOrderConfirmed, "sms")})
	p := testkit.MustStoreProduct(t, s.DB, testkit.StoreProduct{Price: 25050, Variants: []testkit.StoreVariant{{Inventory: 5}}})
	phone := uniquePhone()
	var o order
	s.guestCOD(t, p.Variants[0].ID, 2, phone, nil).Expect(t, http.StatusCreated).JSON(t, &o)

	// The fan-out of order.created, as the worker runs it.
	var ev uuid.UUID
	s.DB.Raw(`SELECT id::text FROM events WHERE type = 'order.created' AND data->>'orderId' = ?`, o.ID.String()).Row().Scan(&ev)
	ctx := context.Background()
	if err := s.Messages.FromEvent(ctx, ev); err != nil {
		t.Fatal(err)
	}
	var id uuid.UUID
	s.DB.Raw(`SELECT id::text FROM messages WHERE order_id = ?`, o.ID).Row().Scan(&id)

	killed := errors.New("worker killed")
	s.Messages.CrashAfterSend(func(uuid.UUID) error { return killed })
	if err := s.Messages.Send(ctx, id); !errors.Is(err, killed) {
		t.Fatalf("send: %v", err)
	}
	if n := count(t, s, `SELECT count(*) FROM messages WHERE id = ? AND status = 'pending' AND attempts = 0 AND provider_ref IS NULL`, id); n != 1 {
		t.Fatal("the crashed send was marked")
	}
	s.Messages.CrashAfterSend(nil)
	if err := s.Messages.Send(ctx, id); err != nil {
		t.Fatal(err)
	}
	if err := s.Messages.Send(ctx, id); err != nil { // a duplicate task: nothing
		t.Fatal(err)
	}
	recs := s.sim.Messages(phone)
	if len(recs) != 2 || recs[0].Ref != id.String() || recs[1].Ref != id.String() ||
		!slices.Equal(recs[0].Variables, recs[1].Variables) ||
		!slices.Equal(recs[1].Variables, []string{"Asha Rao", o.OrderNumber, "501.00"}) {
		t.Fatalf("the provider saw %+v, want the crashed send and its retry with reference %s", recs, id)
	}
	for _, r := range recs { // the provider reports each request; the second report changes nothing
		testkit.Do(t, http.MethodPost, s.simURL+"/sim/receipts", testkit.Req{Invalid: true,
			Body: map[string]any{"id": r.ID, "status": "delivered"}}).Expect(t, http.StatusNoContent)
	}
	got := s.waitStatuses(t, o.ID, 1, messaging.StatusDelivered)
	if got[0].Attempts != 1 || got[0].ProviderRef == nil || *got[0].ProviderRef != recs[1].ID {
		t.Fatalf("message %+v", got[0])
	}
}
