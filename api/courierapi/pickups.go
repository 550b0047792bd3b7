package courierapi

import (
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type manifestShipment struct {
	FulfillmentID uuid.UUID `json:"fulfillmentId"`
	OrderID       uuid.UUID `json:"orderId"`
	AWB           *string   `json:"awb"`
	CourierName   string    `json:"courierName"`
}

type pickupBody struct {
	PickupScheduledFor time.Time          `json:"pickupScheduledFor"`
	ManifestURL        string             `json:"manifestUrl"`
	Shipments          []manifestShipment `json:"shipments"`
}

// pickups: POST /pickups {fulfillmentIds} → 201 the pickup the courier
// scheduled and its manifest. Errors: VALIDATION_ERROR, NOT_FOUND,
// CONFLICT (one not booked, or with the courier already; the courier
// refusing), SERVICE_UNAVAILABLE.
func (h *handlers) pickups(c *fiber.Ctx) error {
	var req fulfillmentIDsRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	ids, err := req.ids()
	if err != nil {
		return err
	}
	p, err := h.svc.SchedulePickup(c.UserContext(), ids)
	if err != nil {
		return err
	}
	body := pickupBody{PickupScheduledFor: p.ScheduledFor.UTC(), ManifestURL: p.ManifestURL,
		Shipments: make([]manifestShipment, len(p.Shipments))}
	for i, s := range p.Shipments {
		body.Shipments[i] = manifestShipment{FulfillmentID: s.FulfillmentID, OrderID: s.OrderID, AWB: s.AWB, CourierName: s.CourierName}
	}
	return c.Status(fiber.StatusCreated).JSON(body)
}
