package courierapi_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/testkit"
)

// The courier's scans message the customer (docs/DECISIONS.md "Couriers",
// "Customer messages and COD confirmation"): out for delivery once per
// delivery run, and after a failed delivery the question what to do, once
// per attempt with the courier's reason.
func TestScansMessageTheCustomer(t *testing.T) {
	e := mustEnv(t, testkit.WithConfig(func(c *config.Config) {
		// Staged only: the messages are rows of the scan's transaction,
		// which the worker (not run here) sends.
		c.SMSProvider = messaging.Simulator
	}))
	events := map[string]any{}
	for _, ev := range []string{messaging.EventOutForDelivery, messaging.EventNDR} {
		tpl := messaging.DemoTemplates[ev]
		events[ev] = map[string]any{"channels": []string{"sms"},
			"sms":      map[string]any{"templateId": tpl.SMSTemplateID, "dltTemplateId": tpl.DLTTemplateID, "senderId": tpl.SenderID},
			"whatsapp": map[string]any{"template": tpl.WhatsAppName, "language": tpl.Language}}
	}
	e.app.Do(t, http.MethodPut, "/api/v1/admin/settings/messages", testkit.Req{Token: e.super,
		Body: map[string]any{"events": events}}).Expect(t, http.StatusOK)
	o, _, _ := e.customerCOD(t, 1)
	fid := e.fulfil(t, o)
	if err := e.book(t, fid); err != nil {
		t.Fatal(err)
	}
	awb := *e.shipment(t, fid).AWB
	staged := func() map[string]int64 {
		var rows []struct {
			Event string
			N     int64
		}
		e.app.DB.Raw(`SELECT event, count(*) AS n FROM messages WHERE order_id = ? AND channel = 'sms' GROUP BY event`, o.ID).Scan(&rows)
		out := map[string]int64{}
		for _, r := range rows {
			out[r.Event] = r.N
		}
		return out
	}
	e.scan(t, awb, "picked_up", "")
	if got := staged(); got[messaging.EventOutForDelivery] != 0 || got[messaging.EventNDR] != 0 {
		t.Fatalf("before the delivery run: %v", got)
	}
	e.scan(t, awb, "out_for_delivery", "")
	e.scan(t, awb, "undelivered", "Customer not available")
	if got := staged(); got[messaging.EventOutForDelivery] != 1 || got[messaging.EventNDR] != 1 {
		t.Fatalf("after one failed run: %v", got)
	}
	var reason string
	e.app.DB.Raw(`SELECT variables::text FROM messages WHERE order_id = ? AND event = ?`, o.ID, messaging.EventNDR).Scan(&reason)
	if !strings.Contains(reason, "Customer not available") {
		t.Fatalf("the NDR message's variables %s lack the courier's reason", reason)
	}
	e.scan(t, awb, "out_for_delivery", "")
	e.scan(t, awb, "undelivered", "Address not found")
	if got := staged(); got[messaging.EventOutForDelivery] != 2 || got[messaging.EventNDR] != 2 {
		t.Fatalf("after the second failed run: %v", got)
	}
}
