package courierapi

import (
	"strings"
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/courier"
	"github.com/gocommerce/shop/internal/shipment"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type shipmentRow struct {
	FulfillmentID      uuid.UUID  `json:"fulfillmentId"`
	OrderID            uuid.UUID  `json:"orderId"`
	OrderNumber        string     `json:"orderNumber"`
	CustomerName       string     `json:"customerName"`
	Status             string     `json:"status"`
	AWB                *string    `json:"awb"`
	CourierName        string     `json:"courierName"`
	PickupScheduledFor *time.Time `json:"pickupScheduledFor"`
	ManifestURL        string     `json:"manifestUrl"`
	LastError          string     `json:"lastError"`
	CreatedAt          time.Time  `json:"createdAt"`
}

// shipments: GET /shipments?status= (default booked) → {data, pagination}:
// the shipments in that status, the oldest first, for printing their
// labels and scheduling their pickup together. Errors: VALIDATION_ERROR
// (status, page, limit).
func (h *handlers) shipments(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	status, err := httpx.QueryEnum(c, "status", shipment.Statuses...)
	if err != nil {
		return err
	}
	if status == "" {
		status = courier.StatusBooked
	}
	// c.Query's string lives in Fiber's buffer; the service keeps nothing,
	// but a copy costs nothing and outlives the handler safely.
	list, total, err := h.svc.List(c.UserContext(), strings.Clone(status), page.Window())
	if err != nil {
		return err
	}
	data := make([]shipmentRow, len(list))
	for i, s := range list {
		data[i] = shipmentRow{FulfillmentID: s.FulfillmentID, OrderID: s.OrderID, OrderNumber: s.OrderNumber, CustomerName: s.CustomerName,
			Status: s.Status, AWB: s.AWB, CourierName: s.CourierName, ManifestURL: s.ManifestURL, LastError: s.LastError,
			CreatedAt: s.CreatedAt.UTC()}
		if p := s.PickupScheduledFor; p != nil {
			at := p.UTC()
			data[i].PickupScheduledFor = &at
		}
	}
	return c.JSON(httpx.NewList(data, page, total))
}

type courierSettingsBody struct {
	Carrier           string `json:"carrier"`
	BooksShipments    bool   `json:"booksShipments"`
	WebhookPath       string `json:"webhookPath"`
	WebhookTokenSet   bool   `json:"webhookTokenSet"`
	ShipmentStaleDays int    `json:"shipmentStaleDays"`
	CODRemitDays      int    `json:"codRemitDays"`
}

// settings: GET /settings/courier → how the courier is configured (CARRIER
// and its variables, read at start: changed by the server's configuration,
// not by a request). Which locations book is their pickupCode
// (GET/PATCH /locations). No errors of its own.
func (h *handlers) settings(c *fiber.Ctx) error {
	s := h.svc.Setup()
	return c.JSON(courierSettingsBody{Carrier: s.Carrier, BooksShipments: s.Books, WebhookPath: WebhookPath,
		WebhookTokenSet: s.WebhookTokenSet, ShipmentStaleDays: s.StaleDays, CODRemitDays: s.RemitDays})
}
