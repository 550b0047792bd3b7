package config

import (
	"net/url"
	"regexp"
)

// Development secrets of the message webhooks, so that `make run` and the
// simulator agree without setup.
const (
	devSMSWebhookToken     = "dev-sms-webhook-token"
	devWhatsAppAppSecret   = "dev-whatsapp-app-secret"
	devWhatsAppVerifyToken = "dev-whatsapp-verify-token"
)

// applyMessagingDevDefaults makes `make run` send through the simulator
// that `shop dev` starts, unless the providers are set.
func (c *Config) applyMessagingDevDefaults() {
	if !envSet("SMS_PROVIDER") {
		c.SMSProvider = "simulator"
	}
	if !envSet("WHATSAPP_PROVIDER") {
		c.WhatsAppProvider = "simulator"
	}
	if c.SMSWebhookToken == "" {
		c.SMSWebhookToken = devSMSWebhookToken
	}
	if c.WhatsAppAppSecret == "" {
		c.WhatsAppAppSecret = devWhatsAppAppSecret
	}
	if c.WhatsAppVerifyToken == "" {
		c.WhatsAppVerifyToken = devWhatsAppVerifyToken
	}
}

var apiVersion = regexp.MustCompile(`^v[0-9]+\.[0-9]+$`)

// validateMessaging checks the message providers' settings and the COD
// confirmation's.
func (c *Config) validateMessaging() error {
	usesSim := false
	switch c.SMSProvider {
	case "none":
	case "simulator":
		usesSim = true
	case "msg91":
		if c.MSG91AuthKey == "" {
			return fieldErr("MSG91_AUTH_KEY", "must be set when SMS_PROVIDER=msg91")
		}
		if u, err := url.Parse(c.MSG91BaseURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fieldErr("MSG91_BASE_URL", "must be an https:// URL")
		}
	default:
		return fieldErr("SMS_PROVIDER", "must be none, msg91 or simulator")
	}
	if c.SMSProvider != "none" && len(c.SMSWebhookToken) < 16 {
		return fieldErr("SMS_WEBHOOK_TOKEN", "must be at least 16 characters when SMS_PROVIDER is set: it guards the delivery report webhook")
	}
	switch c.WhatsAppProvider {
	case "none":
	case "simulator":
		usesSim = true
	case "cloud":
		if c.WhatsAppPhoneNumberID == "" || c.WhatsAppAccessToken == "" {
			return fieldErr("WHATSAPP_PHONE_NUMBER_ID", "and WHATSAPP_ACCESS_TOKEN must be set when WHATSAPP_PROVIDER=cloud")
		}
		if u, err := url.Parse(c.WhatsAppAPIURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fieldErr("WHATSAPP_API_URL", "must be an https:// URL")
		}
		if !apiVersion.MatchString(c.WhatsAppAPIVersion) {
			return fieldErr("WHATSAPP_API_VERSION", "must be a Graph API version such as v21.0")
		}
	default:
		return fieldErr("WHATSAPP_PROVIDER", "must be none, cloud or simulator")
	}
	if c.WhatsAppProvider != "none" && (c.WhatsAppAppSecret == "" || c.WhatsAppVerifyToken == "") {
		return fieldErr("WHATSAPP_APP_SECRET", "and WHATSAPP_VERIFY_TOKEN must be set when WHATSAPP_PROVIDER is set: they verify its webhook")
	}
	if usesSim {
		if u, err := url.Parse(c.MessagingSimURL); err != nil || u.Scheme != "http" || u.Host == "" {
			return fieldErr("MESSAGING_SIM_URL", "must be an http:// URL (the messaging simulator)")
		}
	}
	if c.MessagingTimeout <= 0 {
		return fieldErr("MESSAGING_TIMEOUT", "must be a positive duration such as 10s")
	}
	if c.CODConfirmHours < 1 || c.CODConfirmHours > 720 {
		return fieldErr("COD_CONFIRM_HOURS", "must be between 1 and 720")
	}
	for name, n := range map[string]int{"COD_OTP_PHONE_RATE_LIMIT": c.CODOTPPhoneLimit,
		"COD_OTP_ADDRESS_RATE_LIMIT": c.CODOTPAddressLimit, "COD_OTP_RATE_WINDOW": c.CODOTPWindowS} {
		if n < 1 {
			return fieldErr(name, "must be a positive integer")
		}
	}
	return nil
}
