// Package messageapi serves the customers' SMS and WhatsApp messages and
// the COD confirmation (docs/DECISIONS.md "Customer messages and COD
// confirmation"): the message settings and an order's messages for
// administrators, a customer's message preferences, the providers'
// receipt and reply webhooks, the COD code of POST /cart/cod-otp and the
// answer of a COD confirmation link.
package messageapi

import (
	"time"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/idempotent"
	"github.com/gocommerce/shop/api/storeapi"
	"github.com/gocommerce/shop/internal/cod"
	"github.com/gocommerce/shop/internal/customer"
	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/ratelimit"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gofiber/fiber/v2"
)

// Paths of the providers' webhooks (no version segment of their own: they
// sit under /api/v1/webhooks beside the courier's).
const (
	SMSReceiptsPath = "/api/v1/webhooks/messages/sms"
	SMSInboundPath  = "/api/v1/webhooks/messages/sms/inbound"
	WhatsAppPath    = "/api/v1/webhooks/messages/whatsapp"
)

// Audit actions.
const (
	actionSettings  = "message_settings.update"
	actionCODAnswer = "order.cod_confirmation"
)

// Services are what the routes call.
type Services struct {
	Messages  *messaging.Service
	OTPs      *cod.OTPs
	Orders    *order.Service
	Customers *customer.Service
	Limiter   *ratelimit.Limiter
	// Idempotency runs the storefront writes' Idempotency-Key.
	Idempotency *idempotent.Middleware
}

// Settings are the webhooks' secrets, the link token's key and the code
// route's rate limits.
type Settings struct {
	SMSWebhookToken     string
	WhatsAppAppSecret   string
	WhatsAppVerifyToken string
	LinkSecret          []byte
	OTPPhoneLimit       int
	OTPAddressLimit     int
	OTPWindow           time.Duration
}

type handlers struct {
	Services
	set Settings
}

// Register mounts the storefront and webhook routes on root and the admin
// routes on admin.
func Register(root fiber.Router, admin *adminroute.Router, svc Services, set Settings) {
	h := &handlers{Services: svc, set: set}
	admin.Get("/settings/messages", rbac.MessageSettingsRead, h.getSettings)
	admin.Put("/settings/messages", rbac.MessageSettingsWrite, h.putSettings, adminroute.Audit(actionSettings, ""))
	admin.Get("/orders/:orderId/messages", rbac.OrdersRead, h.orderMessages)
	admin.Post("/orders/:orderId/cod-confirmation", rbac.OrdersWrite, h.staffCODAnswer, adminroute.Audit(actionCODAnswer, "orderId"))

	auth := storeapi.RequireCustomer(svc.Customers)
	// After the customer is known, so a customer's key is the customer's.
	keyed := svc.Idempotency.Handler(storeapi.IdempotencyCaller)
	root.Get("/customers/me/message-preferences", auth, h.getPreferences)
	root.Put("/customers/me/message-preferences", auth, keyed, h.putPreferences)
	root.Post("/cart/cod-otp", keyed, h.codOTP)
	root.Post("/orders/cod-confirmation", keyed, h.codConfirmation)

	root.Post(SMSReceiptsPath, h.smsReceipts)
	root.Post(SMSInboundPath, h.smsInbound)
	root.Get(WhatsAppPath, h.whatsAppVerify)
	root.Post(WhatsAppPath, h.whatsAppEvents)
}
