package webhookapi_test

import (
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/internal/webhooks"
	"github.com/gocommerce/shop/models"
)

func TestSubscriptionLifecycle(t *testing.T) {
	a := testkit.MustApp(t) // strict: private targets refused
	_, token := testkit.MustAdmin(t, a, "admin")

	s := create(t, a, token, map[string]any{"url": "https://8.8.8.8/hooks", "events": []string{"order.created", "order.shipped", "order.created"}, "description": "ERP"})
	if !strings.HasPrefix(s.Secret, "whsec_") || !s.IsActive || len(s.Events) != 2 || s.Description != "ERP" {
		t.Fatalf("created %+v", s)
	}
	if _, err := webhooks.SecretKey(s.Secret); err != nil {
		t.Fatalf("generated secret: %v", err)
	}
	var got subscription
	a.Do(t, "GET", "/api/v1/admin/webhooks/"+s.ID, testkit.Req{Token: token}).Expect(t, 200).JSON(t, &got)
	if got.Secret != "" || got.URL != s.URL {
		t.Fatalf("GET shows %+v", got)
	}
	list := a.Do(t, "GET", "/api/v1/admin/webhooks?limit=10", testkit.Req{Token: token}).Expect(t, 200)
	if strings.Contains(string(list.Body), "whsec_") || !strings.Contains(string(list.Body), `"total":1`) {
		t.Fatalf("list %s", list.Body)
	}

	var upd subscription
	a.Do(t, "PATCH", "/api/v1/admin/webhooks/"+s.ID, testkit.Req{Token: token, Body: map[string]any{
		"events": []string{"payment.failed"}, "isActive": false, "secret": webhooks.NewSecret(),
	}}).Expect(t, 200).JSON(t, &upd)
	if upd.IsActive || len(upd.Events) != 1 || upd.Events[0] != "payment.failed" || upd.Secret != "" {
		t.Fatalf("updated %+v", upd)
	}
	a.Do(t, "POST", "/api/v1/admin/webhooks/"+s.ID+"/test", testkit.Req{Token: token}).ExpectError(t, 409, "CONFLICT")

	// The audit log has the actions but never a secret.
	var logs []models.AdminAuditLog
	a.DB.Where("action LIKE 'webhook.%'").Find(&logs)
	if len(logs) != 2 {
		t.Fatalf("%d audit entries", len(logs))
	}
	for _, l := range logs {
		if strings.Contains(string(l.Metadata), "whsec_") {
			t.Fatalf("secret in audit metadata: %s", l.Metadata)
		}
	}

	a.Do(t, "DELETE", "/api/v1/admin/webhooks/"+s.ID, testkit.Req{Token: token}).Expect(t, 204)
	a.Do(t, "GET", "/api/v1/admin/webhooks/"+s.ID, testkit.Req{Token: token}).ExpectError(t, 404, "NOT_FOUND")
	a.Do(t, "DELETE", "/api/v1/admin/webhooks/"+s.ID, testkit.Req{Token: token}).ExpectError(t, 404, "NOT_FOUND")
	a.Do(t, "GET", "/api/v1/admin/webhooks/not-a-uuid/deliveries", testkit.Req{Token: token, Invalid: true}).ExpectError(t, 404, "NOT_FOUND")
}

func TestSubscriptionValidation(t *testing.T) {
	a := testkit.MustApp(t)
	_, token := testkit.MustAdmin(t, a, "admin")
	tests := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"no url", map[string]any{"events": []string{"order.created"}}, "url"},
		{"no events", map[string]any{"url": "https://8.8.8.8/"}, "events"},
		{"empty events", map[string]any{"url": "https://8.8.8.8/", "events": []string{}}, "events"},
		{"unknown event", map[string]any{"url": "https://8.8.8.8/", "events": []string{"order.created", "order.exploded"}}, "events[1]"},
		{"ftp", map[string]any{"url": "ftp://8.8.8.8/", "events": []string{"order.created"}}, "url"},
		{"loopback", map[string]any{"url": "http://127.0.0.1:8080/", "events": []string{"order.created"}}, "url"},
		{"localhost", map[string]any{"url": "http://localhost/", "events": []string{"order.created"}}, "url"},
		{"metadata", map[string]any{"url": "http://169.254.169.254/latest/meta-data", "events": []string{"order.created"}}, "url"},
		{"private", map[string]any{"url": "http://192.168.0.10/", "events": []string{"order.created"}}, "url"},
		{"weak secret", map[string]any{"url": "https://8.8.8.8/", "events": []string{"order.created"}, "secret": "hunter2"}, "secret"},
		{"events not an array", map[string]any{"url": "https://8.8.8.8/", "events": "order.created"}, "events"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a.Do(t, "POST", "/api/v1/admin/webhooks", testkit.Req{Token: token, Body: tt.body, Invalid: true}).ExpectField(t, tt.field)
		})
	}
	// A secret of the admin's own choosing is kept (and verified by receivers).
	own := webhooks.NewSecret()
	s := create(t, a, token, map[string]any{"url": "https://8.8.8.8/", "events": []string{"order.created"}, "secret": own})
	if s.Secret != own {
		t.Fatal("the given secret was not kept")
	}
	a.Do(t, "PATCH", "/api/v1/admin/webhooks/"+s.ID, testkit.Req{Token: token, Body: map[string]any{"url": "http://10.0.0.1/"}}).ExpectField(t, "url")
}

func TestWebhooksNeedTheAdminRole(t *testing.T) {
	a := testkit.MustApp(t)
	for _, role := range []string{"viewer", "staff"} {
		_, token := testkit.MustAdmin(t, a, role)
		a.Do(t, "GET", "/api/v1/admin/webhooks", testkit.Req{Token: token}).ExpectError(t, 403, "FORBIDDEN")
		a.Do(t, "POST", "/api/v1/admin/webhooks", testkit.Req{Token: token, Body: map[string]any{
			"url": "https://8.8.8.8/", "events": []string{"order.created"}}}).ExpectError(t, 403, "FORBIDDEN")
	}
	a.Do(t, "GET", "/api/v1/admin/webhooks", testkit.Req{}).ExpectError(t, 401, "UNAUTHORIZED")
}
