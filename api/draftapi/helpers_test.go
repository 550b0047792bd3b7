package draftapi_test

import (
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/gocommerce/shop/api/gatewayapi"
	"github.com/gocommerce/shop/internal/gateway"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

const draftsPath = "/api/v1/admin/draft-orders"

// env is an app with an admin (pricing allowed) and a staff member.
type env struct {
	app   *testkit.App
	admin string
	staff string
}

func newEnv(t *testing.T, opts ...testkit.Option) *env {
	t.Helper()
	app := testkit.MustApp(t, opts...)
	_, admin := testkit.MustAdmin(t, app, string(rbac.Admin))
	_, staff := testkit.MustAdmin(t, app, string(rbac.Staff))
	return &env{app: app, admin: admin, staff: staff}
}

func (e *env) do(t *testing.T, method, path, token string, body any) *testkit.Response {
	t.Helper()
	return e.app.Do(t, method, path, testkit.Req{Token: token, Body: body})
}

// createDraft posts body as staff and expects 201.
func (e *env) createDraft(t *testing.T, token string, body map[string]any) map[string]any {
	t.Helper()
	return e.do(t, http.MethodPost, draftsPath, token, body).Expect(t, http.StatusCreated).Map(t)
}

// complete completes draft id with a payment link and expects 200.
func (e *env) complete(t *testing.T, id string) map[string]any {
	t.Helper()
	return e.do(t, http.MethodPost, draftsPath+"/"+id+"/complete", e.staff, map[string]any{"payment": "link"}).
		Expect(t, http.StatusOK).Map(t)
}

// deliver posts a signed gateway event and returns the answer.
func (e *env) deliver(t *testing.T, body []byte) *testkit.Response {
	t.Helper()
	return e.app.Do(t, http.MethodPost, gatewayapi.Path, testkit.Req{Body: body,
		Headers: map[string]string{gateway.SignatureHeader: gateway.Sign(e.app.Config.GatewayWebhookSecret, body)}})
}

// linkPaid builds payment_link.paid for link id, paid paise by paymentID.
func linkPaid(linkID, paymentID string, paise int64) []byte {
	return gateway.BuildEvent(gateway.Simulated{Name: gateway.PaymentLinkPaid, EventID: gateway.NewEventID(), LinkID: linkID,
		PaymentID: paymentID, Amount: paise, Currency: "INR"})
}

func paise(v any) int64 { return int64(math.Round(v.(float64) * 100)) }

func address(state string) map[string]any {
	return map[string]any{"type": "shipping", "street": "12 MG Road", "city": "Bengaluru", "state": state,
		"pincode": "560001", "district": "Bengaluru Urban", "country": "India"}
}

// counters reads a variant's stock counters.
func counters(t *testing.T, app *testkit.App, id uuid.UUID) (inventory, reserved, committed int) {
	t.Helper()
	var v models.Variant
	if err := app.DB.Take(&v, "id = ?", id).Error; err != nil {
		t.Fatal(err)
	}
	return v.Inventory, v.Reserved, v.Committed
}

// ordersOfSession waits up to 10 s for the orders of checkout session id
// to reach want and returns them.
func ordersOfSession(t *testing.T, app *testkit.App, sessionID string, want int) []models.Order {
	t.Helper()
	var orders []models.Order
	testkit.Eventually(t, 10*time.Second, "orders of the session", func() bool {
		orders = nil
		app.DB.Preload("Items").Where("checkout_session_id = ?", sessionID).Find(&orders)
		return len(orders) >= want
	})
	return orders
}
