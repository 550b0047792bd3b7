package api

import (
	"time"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/codconfirmpage"
	"github.com/gocommerce/shop/api/idempotent"
	"github.com/gocommerce/shop/api/messageapi"
	"github.com/gocommerce/shop/internal/app"
	"github.com/gofiber/fiber/v2"
)

// registerMessages mounts the customer messages' and COD confirmation's
// routes (api/messageapi) and the confirmation link's page.
func registerMessages(root fiber.Router, admin *adminroute.Router, a *app.App, keyed *idempotent.Middleware) {
	cfg := a.Config
	messageapi.Register(root, admin, messageapi.Services{Messages: a.Messages, OTPs: a.CODOTPs, Orders: a.Orders,
		Customers: a.Customers, Limiter: a.Limiter, Idempotency: keyed}, messageapi.Settings{
		SMSWebhookToken: cfg.SMSWebhookToken, WhatsAppAppSecret: cfg.WhatsAppAppSecret, WhatsAppVerifyToken: cfg.WhatsAppVerifyToken,
		LinkSecret: []byte(cfg.CustomerJWTSecret), OTPPhoneLimit: cfg.CODOTPPhoneLimit, OTPAddressLimit: cfg.CODOTPAddressLimit,
		OTPWindow: time.Duration(cfg.CODOTPWindowS) * time.Second,
	})
	codconfirmpage.Register(root)
}
