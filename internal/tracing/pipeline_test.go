package tracing_test

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gocommerce/shop/api/gatewayapi"
	"github.com/gocommerce/shop/internal/app"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/internal/tracing"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/google/uuid"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// subscriber is an outbound webhook receiver that records what it got.
type subscriber struct {
	*httptest.Server
	mu       sync.Mutex
	bodies   []string
	parents  []string
	received chan struct{}
}

func newSubscriber(t *testing.T) *subscriber {
	s := &subscriber{received: make(chan struct{}, 16)}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.bodies = append(s.bodies, string(b))
		s.parents = append(s.parents, r.Header.Get("traceparent"))
		s.mu.Unlock()
		w.WriteHeader(http.StatusOK)
		s.received <- struct{}{}
	}))
	t.Cleanup(s.Close)
	return s
}

// purchase runs a guest checkout (POST /orders) and its gateway's
// payment.captured webhook against app, and waits until the subscriber got
// the order.created delivery. It returns the guest's email and the
// checkout's response.
func purchase(t *testing.T, a *testkit.App, sub *subscriber) (string, *testkit.Response) {
	t.Helper()
	if err := a.DB.Create(&models.WebhookSubscription{ID: uuid.New(), URL: sub.URL, Events: models.StringArray{"order.created"},
		Secret: "whsec_" + base64.StdEncoding.EncodeToString([]byte("tracing-test-secret-0123456789ab")), IsActive: true}).Error; err != nil {
		t.Fatal(err)
	}
	p := testkit.MustStoreProduct(t, a.DB, testkit.StoreProduct{Price: 49900, GSTRate: 500})
	g := testkit.Req{Headers: map[string]string{"X-Session-Id": "guest-" + uuid.NewString()}}
	g.Body = map[string]any{"variantId": p.Variants[0].ID, "quantity": 2}
	a.Do(t, http.MethodPost, "/cart/items", g).Expect(t, http.StatusCreated)
	email := fmt.Sprintf("traced-%s@example.com", uuid.NewString()[:8])
	g.Body = map[string]any{"email": email, "name": "Traced Shopper", "phone": "+91 98765 43210", "shippingCost": 49.5,
		"address": map[string]any{"type": "shipping", "street": "12 MG Road", "city": "Bengaluru", "state": "Karnataka",
			"pincode": "560001", "district": "Bengaluru Urban", "country": "India"}}
	checkout := a.Do(t, http.MethodPost, "/orders", g).Expect(t, http.StatusCreated)

	var s models.CheckoutSession
	if err := a.DB.Where("email = ?", email).Take(&s).Error; err != nil || s.PaymentIntentID == nil {
		t.Fatalf("checkout session: %v", err)
	}
	body := gateway.BuildEvent(gateway.Simulated{Name: gateway.PaymentCaptured, EventID: gateway.NewEventID(),
		OrderID: *s.PaymentIntentID, Amount: int64(s.Total), Currency: "INR", CreatedAt: time.Now()})
	a.Do(t, http.MethodPost, gatewayapi.Path, testkit.Req{Body: body, Headers: map[string]string{
		gateway.SignatureHeader: gateway.Sign(a.Config.GatewayWebhookSecret, body)}}).Expect(t, http.StatusOK)
	select {
	case <-sub.received:
	case <-time.After(30 * time.Second):
		t.Fatal("the order.created delivery never reached the subscriber")
	}
	return email, checkout
}

func tracedApp(t *testing.T, tp *tracing.Provider, sub *subscriber) *testkit.App {
	opts := []testkit.Option{testkit.WithWorker(), testkit.WithConfig(func(c *config.Config) { c.WebhookAllowPrivateTargets = true })}
	if tp != nil {
		opts = append(opts, testkit.WithOpen(app.WithTracing(tp)))
	}
	return testkit.MustApp(t, opts...)
}

// One purchase reads as one trace: the checkout request is its root, the
// gateway's webhook continues it, the worker's finalization follows the
// queued event, and the outbound webhook delivery follows the order.created
// event the finalization published.
func TestPurchaseIsOneTrace(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	tp, err := tracing.New(context.Background(), tracing.Settings{Process: "test"}, sdktrace.NewSimpleSpanProcessor(exp))
	if err != nil {
		t.Fatal(err)
	}
	sub := newSubscriber(t)
	a := tracedApp(t, tp, sub)
	email, checkout := purchase(t, a, sub)

	// The delivery's consumer span ends just after the subscriber answered.
	var spans tracetest.SpanStubs
	deliverSpan := "process " + tasks.TypeWebhookDelivery
	testkit.Eventually(t, 10*time.Second, "the delivery task's span", func() bool {
		spans = exp.GetSpans()
		return find(spans, deliverSpan) != nil
	})
	byID := map[trace.SpanID]tracetest.SpanStub{}
	for _, s := range spans {
		byID[s.SpanContext.SpanID()] = s
	}
	root := find(spans, "POST /orders")
	if root == nil || root.Parent.IsValid() || root.SpanKind != trace.SpanKindServer {
		t.Fatalf("the checkout is not a root server span named by its route: %+v", root)
	}
	if got := checkout.Header.Get("traceparent"); !strings.Contains(got, root.SpanContext.TraceID().String()) {
		t.Errorf("the checkout's response carries traceparent %q, not its trace", got)
	}

	// The outbound call of the delivery, walked up to the root.
	var client *tracetest.SpanStub
	for i, s := range spans {
		if s.SpanKind == trace.SpanKindClient && strings.HasPrefix(s.Name, "POST 127.0.0.1") {
			client = &spans[i]
		}
	}
	if client == nil {
		t.Fatalf("no client span of the outbound delivery among %v", names(spans))
	}
	var chain []string
	for s, ok := *client, true; ok; s, ok = byID[s.Parent.SpanID()] {
		if s.SpanContext.TraceID() != root.SpanContext.TraceID() {
			t.Fatalf("%s is in trace %s, the checkout in %s", s.Name, s.SpanContext.TraceID(), root.SpanContext.TraceID())
		}
		chain = append(chain, s.Name)
	}
	want := []string{
		client.Name,
		deliverSpan, "enqueue " + tasks.TypeWebhookDelivery,
		"process " + tasks.TypeEventFanout, "enqueue " + tasks.TypeEventFanout,
		"dispatch order.created",
		"process " + tasks.TypeGatewayEvent, "enqueue " + tasks.TypeGatewayEvent,
		"POST " + gatewayapi.Path,
		"POST /orders",
	}
	if !subsequence(want, chain) || chain[len(chain)-1] != "POST /orders" {
		t.Fatalf("delivery's ancestry %v\nwant, in order, %v", chain, want)
	}
	kinds := map[string]trace.SpanKind{
		"POST " + gatewayapi.Path: trace.SpanKindServer, "enqueue " + tasks.TypeGatewayEvent: trace.SpanKindProducer,
		"process " + tasks.TypeGatewayEvent: trace.SpanKindConsumer, deliverSpan: trace.SpanKindConsumer,
	}
	for name, kind := range kinds {
		if s := find(spans, name); s == nil || s.SpanKind != kind {
			t.Errorf("%s: kind %v, want %v", name, s, kind)
		}
	}
	// The webhook's server span is the checkout's child: its trace was
	// found from the gateway order id.
	if hook := find(spans, "POST "+gatewayapi.Path); hook.Parent.SpanID() != root.SpanContext.SpanID() {
		t.Errorf("the webhook's parent is %s, want the checkout's span", byID[hook.Parent.SpanID()].Name)
	}
	// The subscriber, a third party, gets no trace context of ours.
	if sub.parents[0] != "" {
		t.Errorf("the delivery sent traceparent %q", sub.parents[0])
	}

	// SQL statements and Redis commands are spans of the requests and
	// tasks, and none carries a value: not the shopper's email or name,
	// not a key.
	var sql, rds int
	for _, s := range spans {
		for _, kv := range s.Attributes {
			switch kv.Key {
			case "db.query.text":
				sql++
				if q := kv.Value.AsString(); strings.Contains(q, email) || strings.Contains(q, "Traced Shopper") || strings.Contains(q, "MG Road") {
					t.Errorf("%s records a value: %s", s.Name, q)
				}
			case "db.system", "db.system.name":
				if kv.Value.AsString() == "redis" {
					rds++
				}
			case "db.statement":
				t.Errorf("%s records a Redis command with its arguments: %s", s.Name, kv.Value.AsString())
			}
		}
	}
	if sql < 10 || rds < 2 {
		t.Fatalf("%d SQL spans and %d Redis spans, want both kinds", sql, rds)
	}
	t.Logf("%d spans in all, %d SQL, %d Redis", len(spans), sql, rds)
	if !hasStatement(spans, root.SpanContext.TraceID(), "INSERT INTO \"orders\"", "$1") {
		t.Errorf("no INSERT INTO orders with placeholders in the trace")
	}
}

// With tracing off nothing is recorded anywhere, even with a global tracer
// provider installed, and no trace context is written into tasks, events or
// responses.
func TestTracingOffRecordsNothing(t *testing.T) {
	exp := tracetest.NewInMemoryExporter()
	global := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(global)
	t.Cleanup(func() { otel.SetTracerProvider(prev) })

	sub := newSubscriber(t)
	a := tracedApp(t, nil, sub)
	if a.Tracing.Enabled() || a.CheckoutTraces != nil {
		t.Fatal("tracing is on without OTEL_* variables")
	}
	_, checkout := purchase(t, a, sub)
	time.Sleep(200 * time.Millisecond)
	if spans := exp.GetSpans(); len(spans) != 0 {
		t.Fatalf("%d spans recorded with tracing off: %v", len(spans), names(spans))
	}
	if h := checkout.Header.Get("traceparent"); h != "" {
		t.Errorf("response traceparent %q with tracing off", h)
	}
	var traced int64
	a.DB.Model(&models.Event{}).Where("trace_context IS NOT NULL").Count(&traced)
	if traced != 0 {
		t.Errorf("%d events stored a trace context", traced)
	}
	infos, _ := a.Inspector.ListCompletedTasks(tasks.QueueCritical)
	for _, info := range infos {
		if strings.Contains(string(info.Payload), tracing.PayloadField) {
			t.Errorf("task %s carries a trace context: %s", info.Type, info.Payload)
		}
	}
}

func find(spans tracetest.SpanStubs, name string) *tracetest.SpanStub {
	for i := range spans {
		if spans[i].Name == name {
			return &spans[i]
		}
	}
	return nil
}

func names(spans tracetest.SpanStubs) []string {
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = s.Name
	}
	return out
}

// subsequence reports whether want appears in got in order.
func subsequence(want, got []string) bool {
	i := 0
	for _, g := range got {
		if i < len(want) && g == want[i] {
			i++
		}
	}
	return i == len(want)
}

func hasStatement(spans tracetest.SpanStubs, traceID trace.TraceID, parts ...string) bool {
	for _, s := range spans {
		if s.SpanContext.TraceID() != traceID {
			continue
		}
		for _, kv := range s.Attributes {
			if kv.Key == attribute.Key("db.query.text") && containsAll(kv.Value.AsString(), parts) {
				return true
			}
		}
	}
	return false
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
