package gatewayapi_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/gocommerce/shop/api/gatewayapi"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
)

// answer is the webhook's {processed, message} body.
type answer struct {
	Processed bool   `json:"processed"`
	Message   string `json:"message"`
}

// event builds a signed-to-be event for checkout c.
func event(name string, c fixtures.Checkout, eventID string) []byte {
	return gateway.BuildEvent(gateway.Simulated{Name: name, EventID: eventID, OrderID: c.IntentID,
		Amount: int64(c.Total), Currency: c.Currency})
}

// post sends body signed with the app's secret.
func post(t *testing.T, app *testkit.App, body []byte) *testkit.Response {
	t.Helper()
	return postSigned(t, app, body, gateway.Sign(app.Config.GatewayWebhookSecret, body))
}

func postSigned(t *testing.T, app *testkit.App, body []byte, sig string) *testkit.Response {
	t.Helper()
	return app.Do(t, "POST", gatewayapi.Path, testkit.Req{Body: body, Headers: map[string]string{gateway.SignatureHeader: sig}})
}

// postMalformed posts a body that deliberately breaks docs/openapi.yaml
// (the response is still checked against it).
func postMalformed(t *testing.T, app *testkit.App, body []byte, sig string) *testkit.Response {
	t.Helper()
	return app.Do(t, "POST", gatewayapi.Path, testkit.Req{Body: body, Headers: map[string]string{gateway.SignatureHeader: sig}, Invalid: true})
}

func expectAnswer(t *testing.T, r *testkit.Response, status int, processed bool, message string) {
	t.Helper()
	r.Expect(t, status)
	var a answer
	r.JSON(t, &a)
	if a.Processed != processed || a.Message != message {
		t.Fatalf("answer %+v, want processed=%v %q", a, processed, message)
	}
}

// waitOrder polls until the order of intent exists.
func waitOrder(t *testing.T, app *testkit.App, intent string) models.Order {
	t.Helper()
	var o models.Order
	testkit.Eventually(t, 15*time.Second, "the order of "+intent, func() bool {
		return app.DB.Take(&o, "payment_intent_id = ?", intent).Error == nil
	})
	return o
}

func countOrders(t *testing.T, app *testkit.App) int64 {
	t.Helper()
	var n int64
	app.DB.Model(&models.Order{}).Count(&n)
	return n
}

// queued is the number of gateway tasks in any state.
func queued(t *testing.T, app *testkit.App) int {
	t.Helper()
	info := queueInfo(t, app)
	return info.Size + info.Completed
}

// queueInfo describes the critical queue (zero before its first task).
func queueInfo(t *testing.T, app *testkit.App) asynq.QueueInfo {
	t.Helper()
	names, err := app.Inspector.Queues()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(names, tasks.QueueCritical) {
		return asynq.QueueInfo{}
	}
	info, err := app.Inspector.GetQueueInfo(tasks.QueueCritical)
	if err != nil {
		t.Fatal(err)
	}
	return *info
}

// markers is the number of duplicate markers in Redis.
func markers(t *testing.T, app *testkit.App) int {
	t.Helper()
	keys, err := app.Redis.Keys(context.Background(), "shop:webhook:gateway:*").Result()
	if err != nil {
		t.Fatal(err)
	}
	return len(keys)
}
