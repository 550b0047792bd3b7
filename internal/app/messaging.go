package app

import (
	"net/http"
	"time"

	"github.com/gocommerce/shop/internal/cod"
	"github.com/gocommerce/shop/internal/messaging"
	"github.com/gocommerce/shop/internal/messaging/messagingsim"
	"github.com/google/uuid"
)

// buildMessaging builds the message providers of SMS_PROVIDER and
// WHATSAPP_PROVIDER (the simulator providers are the real adapters pointed
// at MESSAGING_SIM_URL), the message service and the COD codes, and gives
// checkout the codes and draft orders the messages.
func (a *App) buildMessaging() {
	cfg := a.Config
	// Many sends run at once against one host: keep their connections.
	base := http.DefaultTransport.(*http.Transport).Clone()
	base.MaxIdleConnsPerHost = 64
	// Providers are third parties: spans of ours, not our trace ids.
	transport := a.Tracing.Transport(base, false)
	if transport == nil {
		transport = base
	}
	client := &http.Client{Timeout: cfg.MessagingTimeout, Transport: transport}
	var providers []messaging.Provider
	switch cfg.SMSProvider {
	case messaging.MSG91:
		providers = append(providers, messaging.NewMSG91(messaging.MSG91Config{BaseURL: cfg.MSG91BaseURL, AuthKey: cfg.MSG91AuthKey}, client))
	case messaging.Simulator:
		providers = append(providers, messaging.NewMSG91(messaging.MSG91Config{BaseURL: cfg.MessagingSimURL, AuthKey: messagingsim.AuthKey}, client))
	}
	switch cfg.WhatsAppProvider {
	case messaging.Cloud:
		providers = append(providers, messaging.NewCloud(messaging.CloudConfig{BaseURL: cfg.WhatsAppAPIURL, Version: cfg.WhatsAppAPIVersion,
			PhoneNumberID: cfg.WhatsAppPhoneNumberID, AccessToken: cfg.WhatsAppAccessToken}, client))
	case messaging.Simulator:
		providers = append(providers, messaging.NewCloud(messaging.CloudConfig{BaseURL: cfg.MessagingSimURL, Version: messagingsim.APIVersion,
			PhoneNumberID: messagingsim.PhoneNumberID, AccessToken: messagingsim.AccessToken}, client))
	}
	secret := []byte(cfg.CustomerJWTSecret)
	a.Messages = messaging.New(a.DB, a.Tasks, a.Log.With("component", "messaging"), providers...).
		WithCODLink(func(id uuid.UUID) string {
			return cfg.PublicURL + "/cod-confirm?token=" + cod.ConfirmToken(secret, id)
		})
	a.CODOTPs = cod.NewOTPs(a.DB, a.Tasks, a.Log.With("component", "cod"), a.Messages, secret)
	a.Checkout.WithOTPs(a.CODOTPs)
	a.Drafts.WithMessages(a.Messages)
	// Out for delivery and a failed delivery's question reach the customer
	// from the courier's scans (docs/DECISIONS.md "Couriers").
	if a.Shipments != nil {
		a.Shipments.WithScanMessages(a.Messages)
	}
}

// CODConfirmWindow is how long a COD order waits for its confirmation
// (COD_CONFIRM_HOURS).
func (a *App) CODConfirmWindow() time.Duration {
	return time.Duration(a.Config.CODConfirmHours) * time.Hour
}
