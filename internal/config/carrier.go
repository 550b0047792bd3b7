package config

import (
	"net/url"
	"regexp"
	"strings"
)

// Development defaults of the courier simulator (`make run`): shop dev
// starts it on devCarrierSimAddr when CARRIER=simulator.
const (
	DevCarrierSimAddr  = "127.0.0.1:4011"
	devCarrierEmail    = "sim@example.com"
	devCarrierPassword = "dev-only-carrier-password"
	devCarrierToken    = "dev-only-carrier-webhook-token"
)

var pincodePattern = regexp.MustCompile(`^[1-9][0-9]{5}$`)

// validateCarrier checks the courier's settings (docs/DECISIONS.md
// "Couriers"); with the simulator in development the account, the token and
// the addresses default to the ones `shop dev` starts it with.
func (c *Config) validateCarrier() error {
	switch c.Carrier {
	case "manual":
	case "simulator":
		if c.IsDev() {
			if c.CarrierAPIURL == "" {
				c.CarrierAPIURL = "http://" + DevCarrierSimAddr
			}
			if c.CarrierEmail == "" && c.CarrierPassword == "" {
				c.CarrierEmail, c.CarrierPassword = devCarrierEmail, devCarrierPassword
			}
			if c.CarrierWebhookToken == "" {
				c.CarrierWebhookToken = devCarrierToken
			}
		}
		fallthrough
	case "shiprocket":
		if c.Carrier == "shiprocket" && c.CarrierAPIURL == "" {
			c.CarrierAPIURL = "https://apiv2.shiprocket.in"
		}
		if u, err := url.Parse(c.CarrierAPIURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fieldErr("CARRIER_API_URL", "must be an http:// or https:// URL")
		}
		if c.CarrierEmail == "" || c.CarrierPassword == "" {
			return fieldErr("CARRIER_EMAIL", "and CARRIER_PASSWORD must be set (the courier account's API user)")
		}
		if len(c.CarrierWebhookToken) < 16 {
			return fieldErr("CARRIER_WEBHOOK_TOKEN", "must be at least 16 characters: the token the courier sends in X-Api-Key")
		}
	default:
		return fieldErr("CARRIER", "must be manual, shiprocket or simulator")
	}
	if c.CarrierWebhookURL != "" {
		if u, err := url.Parse(c.CarrierWebhookURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") {
			return fieldErr("CARRIER_WEBHOOK_URL", "must be an http:// or https:// URL")
		}
	}
	if c.CarrierTimeout <= 0 {
		return fieldErr("CARRIER_TIMEOUT", "must be positive")
	}
	for name, pins := range map[string][]string{"CARRIER_SIM_UNSERVICEABLE": c.CarrierSimUnserviceable, "CARRIER_SIM_NO_COD": c.CarrierSimNoCOD} {
		for _, p := range pins {
			if !pincodePattern.MatchString(strings.TrimSpace(p)) {
				return fieldErr(name, "must be six-digit pincodes separated by commas")
			}
		}
	}
	if c.ShipmentStaleDays < 1 || c.ShipmentStaleDays > 365 {
		return fieldErr("SHIPMENT_STALE_DAYS", "must be between 1 and 365")
	}
	if c.CODRemitDays < 1 || c.CODRemitDays > 365 {
		return fieldErr("COD_REMIT_DAYS", "must be between 1 and 365")
	}
	return nil
}
