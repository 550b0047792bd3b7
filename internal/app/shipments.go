package app

import (
	"github.com/gocommerce/shop/internal/courier"
	"github.com/gocommerce/shop/internal/shipment"
)

// buildShipments builds the courier of CARRIER and the shipment service on
// it, and has fulfilments booked and checkouts checked through it
// (docs/DECISIONS.md "Couriers"). The courier's calls are client spans
// that carry the trace context.
func (a *App) buildShipments() error {
	cfg := a.Config
	c, err := courier.FromConfig(cfg, a.Tracing.Transport(nil, true))
	if err != nil {
		return err
	}
	a.Shipments = shipment.New(a.DB, c, a.CacheRedis, a.Tasks, a.Fulfillments, shipment.Settings{
		WebhookToken: cfg.CarrierWebhookToken, CachePrefix: cfg.CachePrefix,
		StaleDays: cfg.ShipmentStaleDays, RemitDays: cfg.CODRemitDays,
	}, a.Log.With("component", "shipment"))
	a.Fulfillments.WithBooker(a.Shipments)
	// A booking waiting for its e-way bill goes when the bill is generated.
	a.Shipments.WithTaskRunner(a.Inspector)
	a.EInvoices.WithHandOff(a.Shipments)
	if a.Shipments.Configured() {
		// Without a courier a checkout asks nothing more.
		a.Checkout.WithCouriers(a.Shipments)
	}
	return nil
}
