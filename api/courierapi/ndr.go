package courierapi

import (
	"time"

	"github.com/gocommerce/shop/api/fulfillmentapi"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/courier"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type ndrView struct {
	FulfillmentID uuid.UUID                         `json:"fulfillmentId"`
	OrderID       uuid.UUID                         `json:"orderId"`
	OrderNumber   string                            `json:"orderNumber"`
	AWB           *string                           `json:"awb"`
	CourierName   string                            `json:"courierName"`
	Reason        string                            `json:"reason"`
	Attempts      int                               `json:"attempts"`
	LastScan      *fulfillmentapi.ShipmentEventView `json:"lastScan"`
}

// ndrList: GET /ndr → {data, pagination}: the shipments the courier failed
// to deliver, waiting for a decision, the longest waiting first. Errors:
// VALIDATION_ERROR (page, limit).
func (h *handlers) ndrList(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	list, total, err := h.svc.NDRs(c.UserContext(), page.Window())
	if err != nil {
		return err
	}
	data := make([]ndrView, len(list))
	for i, n := range list {
		data[i] = ndrView{FulfillmentID: n.FulfillmentID, OrderID: n.OrderID, OrderNumber: n.OrderNumber, AWB: n.AWB,
			CourierName: n.CourierName, Reason: n.NDRReason, Attempts: n.NDRAttempts}
		if e := n.LastEvent; e != nil {
			data[i].LastScan = &fulfillmentapi.ShipmentEventView{Status: e.Status, At: e.At.UTC(), Location: e.Location, Remark: e.Remark}
		}
	}
	return c.JSON(httpx.NewList(data, page, total))
}

type ndrActionRequest struct {
	Action  string `json:"action" validate:"required,oneof=reattempt return"`
	Date    string `json:"date" validate:"omitempty,datetime=2006-01-02"`
	Phone   string `json:"phone" validate:"omitempty,max=20"`
	Address string `json:"address" validate:"omitempty,max=300"`
}

// ndrAction: POST .../fulfillments/{fulfillmentId}/ndr-action {action:
// reattempt | return, date?, phone?, address?} → the fulfilment's
// shipment; the decision is sent to the courier. A reattempt's date is
// today or later. Errors: VALIDATION_ERROR, NOT_FOUND, CONFLICT (not
// undelivered; the courier refusing), SERVICE_UNAVAILABLE.
func (h *handlers) ndrAction(c *fiber.Ctx) error {
	orderID, err := httpx.PathUUID(c, "orderId", "order")
	if err != nil {
		return err
	}
	id, err := httpx.PathUUID(c, "fulfillmentId", "fulfillment")
	if err != nil {
		return err
	}
	var req ndrActionRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if req.Action == courier.NDRReturn && (req.Date != "" || req.Phone != "" || req.Address != "") {
		return apperr.Invalid("action", "a return takes no date, phone or address")
	}
	if req.Date != "" {
		d, _ := time.Parse("2006-01-02", req.Date)
		if d.Before(time.Now().UTC().Truncate(24 * time.Hour)) {
			return apperr.Invalid("date", "must be today or later")
		}
	}
	sh, err := h.svc.DecideNDR(c.UserContext(), orderID, id, courier.NDRAction{Action: req.Action, Date: req.Date,
		Phone: req.Phone, Address: req.Address, Comment: "decided in the shop's back office"})
	if err != nil {
		return err
	}
	return c.JSON(fulfillmentapi.NewShipmentView(sh))
}
