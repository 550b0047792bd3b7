package gatewayapi_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/api/gatewayapi"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/hibiken/asynq"
)

func TestCapturedWebhookCreatesTheOrder(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	c := fixtures.MustCheckout(t, app.DB, fixtures.CheckoutOptions{})
	body := event(gateway.PaymentCaptured, c, gateway.NewEventID())
	// The gateway's own header name works too.
	r := app.Do(t, "POST", gatewayapi.Path, testkit.Req{Body: body, Headers: map[string]string{
		gateway.RazorpaySignature: gateway.Sign(app.Config.GatewayWebhookSecret, body)}})
	expectAnswer(t, r, 200, true, gateway.MsgAccepted)

	o := waitOrder(t, app, c.IntentID)
	if o.Total != c.Total || o.Status != models.OrderConfirmed || o.PaymentStatus != models.PaymentPaid {
		t.Fatalf("order %+v", o)
	}
	var s models.CheckoutSession
	app.DB.Take(&s, "id = ?", c.SessionID)
	if s.State != models.CheckoutCompleted || s.OrderID == nil || *s.OrderID != o.ID {
		t.Fatalf("session %s", s.State)
	}
	// The same delivery again: answered as a duplicate, nothing new.
	expectAnswer(t, post(t, app, body), 200, true, gateway.MsgDuplicate)
	if n := countOrders(t, app); n != 1 {
		t.Fatalf("%d orders", n)
	}
}

func TestSameEventTwentyTimesConcurrently(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	c := fixtures.MustCheckout(t, app.DB, fixtures.CheckoutOptions{})
	body := event(gateway.PaymentCaptured, c, gateway.NewEventID())
	var mu sync.Mutex
	messages := map[string]int{}
	testkit.Together(t, 20, func(int) {
		r := post(t, app, body)
		var a answer
		r.JSON(t, &a)
		mu.Lock()
		defer mu.Unlock()
		if r.Status != 200 || !a.Processed {
			t.Errorf("status %d %+v", r.Status, a)
		}
		messages[a.Message]++
	})
	if messages[gateway.MsgAccepted] != 1 || messages[gateway.MsgDuplicate] != 19 {
		t.Fatalf("answers %v", messages)
	}
	waitOrder(t, app, c.IntentID)
	time.Sleep(500 * time.Millisecond) // room for a wrong second order
	if n := countOrders(t, app); n != 1 {
		t.Fatalf("%d orders", n)
	}
}

// payment.captured and order.paid for one payment: both accepted, one order.
func TestCapturedAndOrderPaidMakeOneOrder(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	c := fixtures.MustCheckout(t, app.DB, fixtures.CheckoutOptions{})
	at := time.Now()
	for _, name := range []string{gateway.PaymentCaptured, gateway.OrderPaid} {
		body := gateway.BuildEvent(gateway.Simulated{Name: name, EventID: gateway.NewEventID(), OrderID: c.IntentID,
			PaymentID: "pay_same", Amount: int64(c.Total), Currency: "INR", CreatedAt: at})
		expectAnswer(t, post(t, app, body), 200, true, gateway.MsgAccepted)
	}
	waitOrder(t, app, c.IntentID)
	deadline := time.Now().Add(15 * time.Second)
	for completed(t, app) != 2 {
		if time.Now().After(deadline) {
			t.Fatalf("both events not processed: %+v", queueInfo(t, app))
		}
		time.Sleep(50 * time.Millisecond)
	}
	if n := countOrders(t, app); n != 1 {
		t.Fatalf("%d orders", n)
	}
}

// Without an event id, two different events of the same second are both
// processed: the fallback key includes the event name and payment id.
func TestSameSecondEventsWithoutIDAreBothProcessed(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	a := fixtures.MustCheckout(t, app.DB, fixtures.CheckoutOptions{})
	b := fixtures.MustCheckout(t, app.DB, fixtures.CheckoutOptions{})
	at := time.Now()
	for _, c := range []fixtures.Checkout{a, b} {
		body := gateway.BuildEvent(gateway.Simulated{Name: gateway.PaymentCaptured, OrderID: c.IntentID,
			Amount: int64(c.Total), Currency: "INR", CreatedAt: at})
		expectAnswer(t, post(t, app, body), 200, true, gateway.MsgAccepted)
	}
	waitOrder(t, app, a.IntentID)
	waitOrder(t, app, b.IntentID)

	// Authorized then captured for one payment, same second, no id.
	c := fixtures.MustCheckout(t, app.DB, fixtures.CheckoutOptions{})
	for _, name := range []string{gateway.PaymentAuthorized, gateway.PaymentCaptured} {
		body := gateway.BuildEvent(gateway.Simulated{Name: name, OrderID: c.IntentID, PaymentID: "pay_one",
			Amount: int64(c.Total), Currency: "INR", CreatedAt: at})
		expectAnswer(t, post(t, app, body), 200, true, gateway.MsgAccepted)
	}
	waitOrder(t, app, c.IntentID)
}

// Refused requests write nothing and queue nothing.
func TestRefusedRequests(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	c := fixtures.MustCheckout(t, app.DB, fixtures.CheckoutOptions{})
	good := event(gateway.PaymentCaptured, c, gateway.NewEventID())
	noEntity := []byte(`{"event":"payment.captured","created_at":1700000000,"payload":{"payment":{}}}`)
	tests := []struct {
		name, body, sig, message string
	}{
		{"bad signature", string(good), gateway.Sign("not-the-secret", good), "Invalid webhook signature"},
		{"no signature", string(good), "", "Invalid webhook signature"},
		{"body changed after signing", strings.Replace(string(good), `"amount":`, `"amount":1`, 1), gateway.Sign(app.Config.GatewayWebhookSecret, good), "Invalid webhook signature"},
		{"malformed JSON", `{"event":"payment.captured",`, "", "malformed webhook event"},
		{"missing payment entity", string(noEntity), "", "payload.payment.entity is required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sig := tt.sig
			if sig == "" && tt.message != "Invalid webhook signature" {
				sig = gateway.Sign(app.Config.GatewayWebhookSecret, []byte(tt.body))
			}
			e := postMalformed(t, app, []byte(tt.body), sig).ExpectError(t, 400, "VALIDATION_ERROR")
			if e.Error.Message != tt.message {
				t.Fatalf("message %q, want %q", e.Error.Message, tt.message)
			}
		})
	}
	if markers(t, app) != 0 || queued(t, app) != 0 || countOrders(t, app) != 0 {
		t.Fatalf("refused requests left markers %d, tasks %d, orders %d", markers(t, app), queued(t, app), countOrders(t, app))
	}

	unset := testkit.MustApp(t, testkit.WithConfig(func(c *config.Config) { c.GatewayWebhookSecret = "" }))
	e := postSigned(t, unset, good, gateway.Sign("", good)).ExpectError(t, 400, "VALIDATION_ERROR")
	if !strings.Contains(e.Error.Message, "not configured") {
		t.Fatalf("message %q", e.Error.Message)
	}
	if markers(t, unset) != 0 || queued(t, unset) != 0 {
		t.Fatal("unconfigured secret left a marker or a task")
	}
}

func TestUnhandledEvent(t *testing.T) {
	app := testkit.MustApp(t)
	body := []byte(`{"event":"refund.processed","created_at":1700000000,"payload":{"refund":{"entity":{"id":"rfnd_1"}}}}`)
	expectAnswer(t, post(t, app, body), 200, false, "Event refund.processed is not handled")
	if markers(t, app) != 0 || queued(t, app) != 0 {
		t.Fatal("an unhandled event was marked or queued")
	}
}

// Redis down when the webhook arrives: 500 so the gateway retries, and the
// retry after Redis is back creates the order.
func TestRedisDownThenGatewayRetry(t *testing.T) {
	redis := testkit.StartRedis(t)
	app := testkit.MustApp(t, testkit.WithWorker(), testkit.WithStores(testkit.MustDatabaseURL(t), redis.URL))
	c := fixtures.MustCheckout(t, app.DB, fixtures.CheckoutOptions{})
	body := event(gateway.PaymentCaptured, c, gateway.NewEventID())

	redis.Stop()
	expectAnswer(t, post(t, app, body), 500, false, gateway.MsgFailed)
	redis.Start()
	testkit.Eventually(t, 10*time.Second, "the app's Redis client to reconnect", func() bool {
		return app.Redis.Ping(t.Context()).Err() == nil
	})
	expectAnswer(t, post(t, app, body), 200, true, gateway.MsgAccepted)
	waitOrder(t, app, c.IntentID)
}

func TestFailedWebhookReleasesTheCheckout(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	c := fixtures.MustCheckout(t, app.DB, fixtures.CheckoutOptions{})
	expectAnswer(t, post(t, app, event(gateway.PaymentFailed, c, gateway.NewEventID())), 200, true, gateway.MsgAccepted)
	testkit.Eventually(t, 15*time.Second, "the session to fail", func() bool {
		var s models.CheckoutSession
		app.DB.Take(&s, "id = ?", c.SessionID)
		return s.State == models.CheckoutFailed
	})
	var v models.Variant
	app.DB.Take(&v, "id = ?", c.VariantID)
	var cart models.Cart
	app.DB.Take(&cart, "id = ?", c.CartID)
	if v.Reserved != 0 || cart.LockedBy != nil {
		t.Fatalf("reserved %d, cart locked by %v", v.Reserved, cart.LockedBy)
	}
}

func TestWebhookMetrics(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	c := fixtures.MustCheckout(t, app.DB, fixtures.CheckoutOptions{})
	post(t, app, event(gateway.PaymentCaptured, c, gateway.NewEventID())).Expect(t, 200)
	postMalformed(t, app, []byte(`{}`), "00").Expect(t, 400)
	waitOrder(t, app, c.IntentID)
	testkit.Eventually(t, 5*time.Second, "the processed counter", func() bool {
		return strings.Contains(metrics(t, app), `webhook_processed_total{event="payment.captured"}`)
	})
	text := metrics(t, app)
	for _, want := range []string{
		`webhook_received_total{event="payment.captured"}`,
		`webhook_failed_total{event="invalid"}`,
		`webhook_processing_duration_bucket{event="payment.captured",stage="http"`,
		`webhook_processing_duration_bucket{event="payment.captured",stage="worker"`,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

func metrics(t *testing.T, app *testkit.App) string {
	t.Helper()
	return string(app.Do(t, "GET", "/metrics", testkit.Req{}).Expect(t, http.StatusOK).Body)
}

func completed(t *testing.T, app *testkit.App) int {
	t.Helper()
	return queueInfo(t, app).Completed
}

// Real Razorpay bodies carry no id and X-Razorpay-Event-Id is not signed:
// the same signed body replayed under a new event id is a duplicate (one
// task, one order), because the body's own hash is marked too.
func TestReplayedBodyWithNewEventIDHeaderIsADuplicate(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	c := fixtures.MustCheckout(t, app.DB, fixtures.CheckoutOptions{})
	body := event(gateway.PaymentCaptured, c, "") // no id in the body, as Razorpay sends it
	send := func(eventID string) *testkit.Response {
		return app.Do(t, "POST", gatewayapi.Path, testkit.Req{Body: body, Headers: map[string]string{
			gateway.RazorpaySignature:     gateway.Sign(app.Config.GatewayWebhookSecret, body),
			gateway.RazorpayEventIDHeader: eventID}})
	}
	expectAnswer(t, send(gateway.NewEventID()), 200, true, gateway.MsgAccepted)
	expectAnswer(t, send(gateway.NewEventID()), 200, true, gateway.MsgDuplicate)
	waitOrder(t, app, c.IntentID)
	var info asynq.QueueInfo
	testkit.Eventually(t, 15*time.Second, "the queued work to finish", func() bool {
		info = queueInfo(t, app)
		return info.Pending+info.Active+info.Scheduled+info.Retry == 0
	})
	if info.Size != 1 || info.Completed != 1 {
		t.Fatalf("gateway tasks: %d in all, %d completed; want one", info.Size, info.Completed)
	}
	if n := countOrders(t, app); n != 1 {
		t.Fatalf("%d orders", n)
	}
}
