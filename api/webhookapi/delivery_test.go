package webhookapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/outbox"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/internal/webhooks"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
	"gorm.io/gorm"
)

// A receiver failing three times then answering 200: four attempts logged,
// one success, one stable webhook-id, every signature valid.
func TestDeliveryRetriesUntilSuccess(t *testing.T) {
	fastRetry(t, 12)
	a := app(t)
	_, token := testkit.MustAdmin(t, a, "admin")
	rcv := newReceiver(t, statuses(500, 500, 500, 200))
	s := create(t, a, token, map[string]any{"url": rcv.URL + "/hook", "events": []string{"order.created"}})

	r := a.Do(t, "POST", "/api/v1/admin/webhooks/"+s.ID+"/test", testkit.Req{Token: token}).Expect(t, 202).Map(t)
	d := settled(t, a, token, s.ID)
	if d.ID != r["deliveryId"] || d.Status != "succeeded" || d.AttemptCount != 4 || len(d.Attempts) != 4 || d.EventType != webhooks.TestEventType {
		t.Fatalf("delivery %+v", d)
	}
	for i, at := range d.Attempts {
		want := 500
		if i == 3 {
			want = 200
		}
		if at.Attempt != i+1 || at.StatusCode == nil || *at.StatusCode != want || (want == 500) != (at.Error != nil) {
			t.Fatalf("attempt %d: %+v", i+1, at)
		}
	}
	reqs := rcv.requests()
	if len(reqs) != 4 {
		t.Fatalf("receiver got %d requests", len(reqs))
	}
	for _, req := range reqs {
		verify(t, s.Secret, req)
		if req.Header.Get("webhook-id") != d.ID || string(req.Body) != string(reqs[0].Body) {
			t.Fatal("webhook-id or body changed between attempts")
		}
	}
	var env webhooks.Envelope
	if err := json.Unmarshal(reqs[0].Body, &env); err != nil || env.Type != webhooks.TestEventType || env.ID == "" || env.CreatedAt.IsZero() {
		t.Fatalf("envelope %s (%v)", reqs[0].Body, err)
	}
}

func TestDeliveryGivesUpAfterMaxAttempts(t *testing.T) {
	fastRetry(t, 3)
	a := app(t)
	_, token := testkit.MustAdmin(t, a, "admin")
	rcv := newReceiver(t, statuses(503))
	s := create(t, a, token, map[string]any{"url": rcv.URL, "events": []string{"order.created"}})
	a.Do(t, "POST", "/api/v1/admin/webhooks/"+s.ID+"/test", testkit.Req{Token: token}).Expect(t, 202)
	d := settled(t, a, token, s.ID)
	if d.Status != "failed" || d.AttemptCount != 3 || len(rcv.requests()) != 3 {
		t.Fatalf("delivery %+v, receiver %d", d, len(rcv.requests()))
	}
}

func TestGoneDisablesTheSubscription(t *testing.T) {
	fastRetry(t, 12)
	a := app(t)
	_, token := testkit.MustAdmin(t, a, "admin")
	rcv := newReceiver(t, statuses(410))
	s := create(t, a, token, map[string]any{"url": rcv.URL, "events": []string{"order.created"}})
	a.Do(t, "POST", "/api/v1/admin/webhooks/"+s.ID+"/test", testkit.Req{Token: token}).Expect(t, 202)
	d := settled(t, a, token, s.ID)
	if d.Status != "failed" || d.AttemptCount != 1 {
		t.Fatalf("delivery %+v", d)
	}
	var got subscription
	a.Do(t, "GET", "/api/v1/admin/webhooks/"+s.ID, testkit.Req{Token: token}).Expect(t, 200).JSON(t, &got)
	if got.IsActive || got.DisabledReason == nil || !strings.Contains(*got.DisabledReason, "410") {
		t.Fatalf("subscription %+v", got)
	}
	// Turning it on again clears the reason.
	a.Do(t, "PATCH", "/api/v1/admin/webhooks/"+s.ID, testkit.Req{Token: token, Body: map[string]any{"isActive": true}}).Expect(t, 200).JSON(t, &got)
	if !got.IsActive || got.DisabledReason != nil {
		t.Fatalf("re-enabled %+v", got)
	}
}

// A target that passed registration but points at a private address when
// sent to (here: a row written directly, as after a DNS change) is refused
// at connect time, and nothing reaches it.
func TestPrivateTargetRefusedAtSendTime(t *testing.T) {
	fastRetry(t, 12)
	a := testkit.MustApp(t, testkit.WithWorker()) // strict
	_, token := testkit.MustAdmin(t, a, "admin")
	rcv := newReceiver(t, statuses(200))
	sub := models.WebhookSubscription{ID: uuid.New(), URL: rcv.URL, Events: models.StringArray{"order.created"}, Secret: webhooks.NewSecret(), IsActive: true}
	if err := a.DB.Create(&sub).Error; err != nil {
		t.Fatal(err)
	}
	a.Do(t, "POST", "/api/v1/admin/webhooks/"+sub.ID.String()+"/test", testkit.Req{Token: token}).Expect(t, 202)
	d := settled(t, a, token, sub.ID.String())
	if d.Status != "failed" || len(d.Attempts) != 1 || d.Attempts[0].Error == nil || !strings.Contains(*d.Attempts[0].Error, "not allowed") {
		t.Fatalf("delivery %+v", d)
	}
	if n := len(rcv.requests()); n != 0 {
		t.Fatalf("the private receiver got %d requests", n)
	}
}

func TestRedirectIsNotFollowed(t *testing.T) {
	fastRetry(t, 2)
	a := app(t)
	_, token := testkit.MustAdmin(t, a, "admin")
	target := newReceiver(t, statuses(200))
	redirect := newReceiver(t, func(_ int, w http.ResponseWriter) {
		w.Header().Set("Location", target.URL)
		w.WriteHeader(http.StatusTemporaryRedirect)
	})
	s := create(t, a, token, map[string]any{"url": redirect.URL, "events": []string{"order.created"}})
	a.Do(t, "POST", "/api/v1/admin/webhooks/"+s.ID+"/test", testkit.Req{Token: token}).Expect(t, 202)
	d := settled(t, a, token, s.ID)
	if d.Status != "failed" || len(d.Attempts) != 2 || *d.Attempts[0].StatusCode != 307 {
		t.Fatalf("delivery %+v", d)
	}
	if n := len(target.requests()); n != 0 {
		t.Fatalf("the redirect target got %d requests", n)
	}
}

func TestSlowReceiverTimesOut(t *testing.T) {
	fastRetry(t, 1)
	a := app(t, testkit.WithConfig(func(c *config.Config) { c.WebhookTimeout = 200 * time.Millisecond }))
	_, token := testkit.MustAdmin(t, a, "admin")
	rcv := newReceiver(t, func(_ int, w http.ResponseWriter) { time.Sleep(time.Second); w.WriteHeader(200) })
	s := create(t, a, token, map[string]any{"url": rcv.URL, "events": []string{"order.created"}})
	a.Do(t, "POST", "/api/v1/admin/webhooks/"+s.ID+"/test", testkit.Req{Token: token}).Expect(t, 202)
	d := settled(t, a, token, s.ID)
	if d.Status != "failed" || d.Attempts[0].StatusCode != nil || d.Attempts[0].Error == nil ||
		!strings.Contains(*d.Attempts[0].Error, "no answer within 200ms") || d.Attempts[0].DurationMS > 900 {
		t.Fatalf("delivery %+v", d.Attempts[0])
	}
}

// An outbox event reaches exactly the active subscriptions listening to its
// type, as {id, type, createdAt, data}.
func TestOutboxEventFansOut(t *testing.T) {
	fastRetry(t, 12)
	a := app(t)
	_, token := testkit.MustAdmin(t, a, "admin")
	orders, products, off := newReceiver(t, statuses(200)), newReceiver(t, statuses(200)), newReceiver(t, statuses(200))
	so := create(t, a, token, map[string]any{"url": orders.URL, "events": []string{"order.created", "payment.succeeded"}})
	create(t, a, token, map[string]any{"url": products.URL, "events": []string{"product.created"}})
	create(t, a, token, map[string]any{"url": off.URL, "events": []string{"order.created"}, "isActive": false})

	var evID uuid.UUID
	err := a.DB.Transaction(func(tx *gorm.DB) error {
		var err error
		evID, err = outbox.Publish(tx, outbox.OrderCreated, map[string]any{"orderId": "o-1", "total": 499.5})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	outbox.Nudge(context.Background(), a.Queue, a.Log)
	testkit.Eventually(t, 15*time.Second, "the order.created delivery", func() bool { return len(orders.requests()) == 1 })
	time.Sleep(300 * time.Millisecond)
	if len(products.requests()) != 0 || len(off.requests()) != 0 {
		t.Fatalf("other receivers got %d and %d requests", len(products.requests()), len(off.requests()))
	}
	req := orders.requests()[0]
	verify(t, so.Secret, req)
	var env struct {
		ID, Type, CreatedAt string
		Data                map[string]any
	}
	if err := json.Unmarshal(req.Body, &env); err != nil || env.ID != evID.String() || env.Type != "order.created" ||
		env.Data["orderId"] != "o-1" || env.Data["total"] != 499.5 || env.CreatedAt == "" {
		t.Fatalf("body %s (%v)", req.Body, err)
	}
}

// A pending delivery whose task was lost (Redis down at fan-out) is queued
// by the sweep.
func TestSweepQueuesLostAttempts(t *testing.T) {
	fastRetry(t, 12)
	a := app(t)
	_, token := testkit.MustAdmin(t, a, "admin")
	rcv := newReceiver(t, statuses(200))
	s := create(t, a, token, map[string]any{"url": rcv.URL, "events": []string{"order.created"}})
	ev := models.Event{ID: uuid.New(), Type: outbox.OrderCreated, Data: []byte(`{"orderId":"o-2"}`), CreatedAt: time.Now()}
	now := time.Now()
	ev.DispatchedAt = &now
	a.DB.Create(&ev)
	del := models.WebhookDelivery{ID: uuid.New(), SubscriptionID: uuid.MustParse(s.ID), EventID: ev.ID, EventType: ev.Type,
		Status: models.DeliveryPending, NextAttemptAt: time.Now().Add(-5 * time.Minute)}
	a.DB.Create(&del)

	d := webhooks.NewDeliverer(a.DB, a.Queue, a.Log, http.DefaultClient, webhooks.DefaultRetry)
	n, err := d.Sweep(context.Background())
	if err != nil || n != 1 {
		t.Fatalf("sweep: %d %v", n, err)
	}
	settled(t, a, token, s.ID)
	if n, _ := d.Sweep(context.Background()); n != 0 || len(rcv.requests()) != 1 {
		t.Fatalf("second sweep queued %d; receiver got %d", n, len(rcv.requests()))
	}
}
