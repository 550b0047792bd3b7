package messageapi_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/gocommerce/shop/api/messageapi"
	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/messaging/messagingsim"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// shop is an app whose SMS and WhatsApp providers are the simulator's
// (the real MSG91 and Cloud API adapters pointed at it), with the worker,
// and a super admin's token.
type shop struct {
	*testkit.App
	sim    *messagingsim.Server
	simURL string
	super  string
	// variant is the product the COD link test orders.
	variant uuid.UUID
}

// newShop starts the simulator (refusing WhatsApp to numbers not opted in)
// and the app, and points the simulator's receipts at the app.
func newShop(t *testing.T, worker bool, configure ...func(*config.Config)) *shop {
	t.Helper()
	sim := messagingsim.New(slog.New(slog.NewTextHandler(testkit.TestWriter(t), nil)))
	sim.RequireOptIn = true
	srv := httptest.NewServer(sim.Handler())
	t.Cleanup(srv.Close)
	opts := []testkit.Option{testkit.WithConfig(func(c *config.Config) {
		c.SMSProvider, c.WhatsAppProvider, c.MessagingSimURL = messaging.Simulator, messaging.Simulator, srv.URL
		c.AdminGeneralRateLimit = 100000
		for _, f := range configure {
			f(c)
		}
	})}
	if worker {
		opts = append(opts, testkit.WithWorker())
	}
	app := testkit.MustApp(t, opts...)
	// Receipts still being posted finish before the app stops.
	t.Cleanup(sim.Wait)
	token := url.QueryEscape(app.Config.SMSWebhookToken)
	sim.SetTargets(messagingsim.Targets{
		SMSReceipts:     app.URL + messageapi.SMSReceiptsPath + "?token=" + token,
		SMSInbound:      app.URL + messageapi.SMSInboundPath + "?token=" + token,
		WhatsAppWebhook: app.URL + messageapi.WhatsAppPath,
		AppSecret:       app.Config.WhatsAppAppSecret,
	})
	_, super := testkit.MustAdmin(t, app, string(rbac.SuperAdmin))
	return &shop{App: app, sim: sim, simURL: srv.URL, super: super}
}

// demoEvent is an event's settings with the demo templates on channels.
func demoEvent(event string, channels ...string) map[string]any {
	tpl := messaging.DemoTemplates[event]
	return map[string]any{"channels": channels,
		"sms":      map[string]any{"templateId": tpl.SMSTemplateID, "dltTemplateId": tpl.DLTTemplateID, "senderId": tpl.SenderID},
		"whatsapp": map[string]any{"template": tpl.WhatsAppName, "language": tpl.Language}}
}

// messageSettings sets the events' settings.
func (s *shop) messageSettings(t *testing.T, events map[string]any) {
	t.Helper()
	s.Do(t, http.MethodPut, "/api/v1/admin/settings/messages", testkit.Req{Token: s.super,
		Body: map[string]any{"events": events}}).Expect(t, http.StatusOK)
}

// paymentSettings sets the COD settings (enabled, no fee) with extra.
func (s *shop) paymentSettings(t *testing.T, extra map[string]any) {
	t.Helper()
	cod := map[string]any{"enabled": true, "fee": 0, "maxOpenPerCustomer": 100}
	for k, v := range extra {
		cod[k] = v
	}
	s.Do(t, http.MethodPut, "/api/v1/admin/settings/payments", testkit.Req{Token: s.super,
		Body: map[string]any{"cod": cod}}).Expect(t, http.StatusOK)
}

func guest() testkit.Req {
	return testkit.Req{Headers: map[string]string{"X-Session-Id": "guest-" + uuid.NewString()}}
}

func with(r testkit.Req, body any) testkit.Req {
	r.Body = body
	return r
}

func uniquePhone() string { return fmt.Sprintf("9%09d", uuid.New().ID()%1000000000) }

// order is what the tests read of an order.
type order struct {
	ID          uuid.UUID `json:"id"`
	OrderNumber string    `json:"orderNumber"`
	Status      string    `json:"status"`
	Total       float64   `json:"total"`
}

// codCheckoutBody is a guest's COD checkout to pincode with phone.
func codCheckoutBody(phone, pincode string, extra map[string]any) map[string]any {
	b := map[string]any{"email": fmt.Sprintf("cod-%s@example.com", uuid.NewString()[:8]), "name": "Asha Rao", "phone": phone,
		"address": map[string]any{"type": "shipping", "street": "12 MG Road", "city": "Bengaluru", "state": "Karnataka",
			"pincode": pincode, "district": "Bengaluru Urban", "country": "India"},
		"shippingCost": 0, "paymentMethod": "cod"}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

// guestCOD fills a new guest's cart with qty of variant and checks out with
// COD from phone; it returns the answer.
func (s *shop) guestCOD(t *testing.T, variant uuid.UUID, qty int, phone string, extra map[string]any) *testkit.Response {
	t.Helper()
	g := guest()
	s.Do(t, http.MethodPost, "/cart/items", with(g, map[string]any{"variantId": variant, "quantity": qty})).Expect(t, http.StatusCreated)
	return s.Do(t, http.MethodPost, "/orders", with(g, codCheckoutBody(phone, "560001", extra)))
}

// messages reads GET /admin/orders/{id}/messages.
func (s *shop) messages(t *testing.T, id uuid.UUID) []messaging.View {
	t.Helper()
	var body struct {
		Data []messaging.View `json:"data"`
	}
	s.Do(t, http.MethodGet, "/api/v1/admin/orders/"+id.String()+"/messages", testkit.Req{Token: s.super}).Expect(t, http.StatusOK).JSON(t, &body)
	return body.Data
}

// waitSim waits until the simulator holds n messages for phone.
func (s *shop) waitSim(t *testing.T, phone string, n int) []messagingsim.Record {
	t.Helper()
	testkit.Eventually(t, 20*time.Second, fmt.Sprintf("%d messages at the simulator for %s", n, phone), func() bool {
		return len(s.sim.Messages(phone)) >= n
	})
	return s.sim.Messages(phone)
}

// waitStatuses waits until every message of order id has one of statuses
// and there are n of them.
func (s *shop) waitStatuses(t *testing.T, id uuid.UUID, n int, status string) []messaging.View {
	t.Helper()
	testkit.Eventually(t, 20*time.Second, fmt.Sprintf("%d messages %s", n, status), func() bool {
		var rows []messaging.View
		s.DB.Raw(`SELECT id, channel, status FROM messages WHERE order_id = ?`, id).Scan(&rows)
		if len(rows) != n {
			return false
		}
		for _, r := range rows {
			if r.Status != status {
				return false
			}
		}
		return true
	})
	return s.messages(t, id)
}

func count(t *testing.T, s *shop, sql string, args ...any) int64 {
	t.Helper()
	var n int64
	if err := s.DB.Raw(sql, args...).Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

func committed(t *testing.T, s *shop, variant uuid.UUID) int {
	t.Helper()
	var v models.Variant
	if err := s.DB.Take(&v, "id = ?", variant).Error; err != nil {
		t.Fatal(err)
	}
	return v.Committed
}
