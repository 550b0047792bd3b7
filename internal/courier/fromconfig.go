package courier

import (
	"fmt"
	"net/http"

	"github.com/gocommerce/shop/internal/config"
)

// FromConfig returns the courier CARRIER names: manual, the Shiprocket
// client, or that client pointed at the simulator (CARRIER_API_URL), every
// call bounded by CARRIER_TIMEOUT over transport.
func FromConfig(cfg *config.Config, transport http.RoundTripper) (Courier, error) {
	switch cfg.Carrier {
	case "", Manual:
		return NewManual(), nil
	case Shiprocket, Simulator:
		return NewShiprocket(ShiprocketConfig{BaseURL: cfg.CarrierAPIURL, Email: cfg.CarrierEmail, Password: cfg.CarrierPassword,
			Client: &http.Client{Timeout: cfg.CarrierTimeout, Transport: transport}, Name: cfg.Carrier}), nil
	}
	return nil, fmt.Errorf("courier: unknown CARRIER %q", cfg.Carrier)
}
