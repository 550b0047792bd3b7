package main_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/api/gatewayapi"
	"github.com/gocommerce/shop/internal/fixtures"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/models"
)

// `shop gateway simulate` signs a well-formed event with the configured
// secret, reads the amount from the checkout session, and the posted event
// becomes the order.
func TestGatewaySimulate(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	c := fixtures.MustCheckout(t, app.DB, fixtures.CheckoutOptions{})
	cmd := exec.Command(shopBin, "gateway", "simulate", "payment.captured", "--order-id", c.IntentID, "--url", app.URL+gatewayapi.Path)
	cmd.Env = append(os.Environ(), "APP_ENV=development", "DATABASE_URL="+app.DatabaseURL, "GATEWAY_WEBHOOK_SECRET="+app.Config.GatewayWebhookSecret)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Webhook accepted") {
		t.Fatalf("simulate: %v\n%s", err, out)
	}
	testkit.Eventually(t, 15*time.Second, "the order", func() bool {
		var o models.Order
		return app.DB.Take(&o, "payment_intent_id = ?", c.IntentID).Error == nil && o.Total == c.Total
	})

	// A wrong secret is refused by the server and the command fails.
	cmd = exec.Command(shopBin, "gateway", "simulate", "payment.failed", "--order-id", c.IntentID, "--amount", "100", "--url", app.URL+gatewayapi.Path)
	cmd.Env = append(os.Environ(), "APP_ENV=development", "GATEWAY_WEBHOOK_SECRET=not-the-right-secret")
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "Invalid webhook signature") {
		t.Fatalf("wrong secret: %v\n%s", err, out)
	}
}

// `shop gateway simulate payment_link.paid --link-id ID` pays a draft
// order's link: the event names the link in payload.payment_link.entity.id,
// the amount is read from the link's checkout session, and it becomes the
// order; without --link-id the command says what it needs.
func TestGatewaySimulatePaymentLinkPaid(t *testing.T) {
	app := testkit.MustApp(t, testkit.WithWorker())
	c := fixtures.MustCheckout(t, app.DB, fixtures.CheckoutOptions{})
	link := "plink_sim_" + strings.ReplaceAll(c.SessionID.String(), "-", "")[:14]
	app.DB.Exec(`UPDATE checkout_sessions SET payment_intent_id = ?, refund_late_payment = true WHERE id = ?`, link, c.SessionID)
	env := append(os.Environ(), "APP_ENV=development", "DATABASE_URL="+app.DatabaseURL, "GATEWAY_WEBHOOK_SECRET="+app.Config.GatewayWebhookSecret)
	cmd := exec.Command(shopBin, "gateway", "simulate", "payment_link.paid", "--url", app.URL+gatewayapi.Path)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err == nil || !strings.Contains(string(out), "--link-id") {
		t.Fatalf("without --link-id: %v\n%s", err, out)
	}
	cmd = exec.Command(shopBin, "gateway", "simulate", "payment_link.paid", "--link-id", link, "--url", app.URL+gatewayapi.Path)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "Webhook accepted") || !strings.Contains(string(out), `"payment_link"`) {
		t.Fatalf("simulate: %v\n%s", err, out)
	}
	testkit.Eventually(t, 15*time.Second, "the order", func() bool {
		var o models.Order
		return app.DB.Take(&o, "payment_intent_id = ?", link).Error == nil && o.Total == c.Total
	})
}
