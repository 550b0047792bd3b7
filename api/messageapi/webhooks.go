package messageapi

import (
	"crypto/subtle"
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gofiber/fiber/v2"
)

// maxWebhookBody bounds a provider's webhook body.
const maxWebhookBody = 1 << 20

var errUnauthorized = apperr.New(apperr.Unauthorized, "webhook not verified")

// smsToken checks MSG91's webhook token (the token query parameter of the
// webhook URL set at MSG91, which signs nothing).
func (h *handlers) smsToken(c *fiber.Ctx) error {
	got := c.Query("token")
	if got == "" {
		got = c.Get("X-Webhook-Token")
	}
	if h.set.SMSWebhookToken == "" || subtle.ConstantTimeCompare([]byte(got), []byte(h.set.SMSWebhookToken)) != 1 {
		return errUnauthorized
	}
	if len(c.Body()) > maxWebhookBody {
		return apperr.Invalid("body", "is too large")
	}
	return nil
}

// smsReceipts: POST /api/v1/webhooks/messages/sms?token= takes MSG91's
// delivery reports (a JSON array) → 200 {applied}. Errors: UNAUTHORIZED,
// VALIDATION_ERROR.
func (h *handlers) smsReceipts(c *fiber.Ctx) error {
	if err := h.smsToken(c); err != nil {
		return err
	}
	var reports []messaging.MSG91Report
	if err := json.Unmarshal(c.Body(), &reports); err != nil {
		return apperr.Invalid("body", "must be MSG91's delivery reports (a JSON array)")
	}
	applied := 0
	for _, r := range reports {
		for _, n := range r.Report {
			moved, err := h.Messages.Apply(c.UserContext(), messaging.Receipt{Channel: messaging.SMS, Ref: r.CRQID,
				ProviderRef: r.RequestID, Status: messaging.MSG91Status(n.Status, n.Desc)})
			if err != nil {
				return err
			}
			if moved {
				applied++
			}
		}
	}
	return c.JSON(fiber.Map{"applied": applied})
}

// smsInbound: POST /api/v1/webhooks/messages/sms/inbound?token= takes a
// reply MSG91 forwards ({sender, message}); STOP stops SMS to the sender.
// Errors: UNAUTHORIZED, VALIDATION_ERROR.
func (h *handlers) smsInbound(c *fiber.Ctx) error {
	if err := h.smsToken(c); err != nil {
		return err
	}
	var in messaging.MSG91Inbound
	if err := json.Unmarshal(c.Body(), &in); err != nil || in.Sender == "" {
		return apperr.Invalid("sender", "is required")
	}
	stopped := messaging.IsStop(in.Message)
	if stopped {
		if err := h.Messages.Stop(c.UserContext(), messaging.SMS, in.Sender); err != nil {
			return err
		}
	}
	return c.JSON(fiber.Map{"stopped": stopped})
}

// whatsAppVerify: GET /api/v1/webhooks/messages/whatsapp answers Meta's
// subscription check: hub.mode=subscribe with our verify token →
// hub.challenge as text. Errors: UNAUTHORIZED.
func (h *handlers) whatsAppVerify(c *fiber.Ctx) error {
	token := c.Query("hub.verify_token")
	if c.Query("hub.mode") != "subscribe" || h.set.WhatsAppVerifyToken == "" ||
		subtle.ConstantTimeCompare([]byte(token), []byte(h.set.WhatsAppVerifyToken)) != 1 {
		return errUnauthorized
	}
	c.Set(fiber.HeaderContentType, fiber.MIMETextPlainCharsetUTF8)
	return c.SendString(c.Query("hub.challenge"))
}

// whatsAppEvents: POST /api/v1/webhooks/messages/whatsapp takes the Cloud
// API's webhook, signed with the app secret (X-Hub-Signature-256):
// statuses move messages; a STOP reply stops WhatsApp to the sender →
// 200 {applied}. Errors: UNAUTHORIZED, VALIDATION_ERROR.
func (h *handlers) whatsAppEvents(c *fiber.Ctx) error {
	body := c.Body()
	if len(body) > maxWebhookBody || !messaging.ValidSignature(h.set.WhatsAppAppSecret, body, c.Get(messaging.SignatureHeader)) {
		return errUnauthorized
	}
	var wh messaging.CloudWebhook
	if err := json.Unmarshal(body, &wh); err != nil {
		return apperr.Invalid("body", "must be the Cloud API's webhook")
	}
	applied := 0
	for _, e := range wh.Entry {
		for _, ch := range e.Changes {
			if ch.Field != "messages" {
				continue
			}
			for _, st := range ch.Value.Statuses {
				var at time.Time
				if sec, err := strconv.ParseInt(st.Timestamp, 10, 64); err == nil {
					at = time.Unix(sec, 0).UTC()
				}
				moved, err := h.Messages.Apply(c.UserContext(), messaging.Receipt{Channel: messaging.WhatsApp,
					Ref: st.BizOpaqueCallbackData, ProviderRef: st.ID, Status: strings.ToLower(st.Status), At: at})
				if err != nil {
					return err
				}
				if moved {
					applied++
				}
			}
			for _, m := range ch.Value.Messages {
				if m.Text != nil && messaging.IsStop(m.Text.Body) {
					if err := h.Messages.Stop(c.UserContext(), messaging.WhatsApp, m.From); err != nil {
						return err
					}
				}
			}
		}
	}
	return c.JSON(fiber.Map{"applied": applied})
}
