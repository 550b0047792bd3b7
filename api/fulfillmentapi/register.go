// Package fulfillmentapi serves the back office's fulfilment routes: ship
// units of an order with tracking, deliver and cancel a fulfilment
// (docs/DECISIONS.md "Fulfilment", README "API overview: back office").
package fulfillmentapi

import (
	"context"
	"strings"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/audit"
	"github.com/gocommerce/shop/internal/einvoice"
	"github.com/gocommerce/shop/internal/fulfillment"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// Audit actions.
const (
	actionCreate         = "fulfillment.create"
	actionDeliver        = "fulfillment.deliver"
	actionCancel         = "fulfillment.cancel"
	actionReturnToOrigin = "fulfillment.return_to_origin"
	actionEwayBillRetry  = "fulfillment.eway_bill_retry"
)

// Services are what the fulfilment routes call.
type Services struct {
	Fulfillments *fulfillment.Service
	// EwayBills shows a fulfilment's e-way bill and generates a failed
	// one again.
	EwayBills EwayBillService
}

type handlers struct {
	svc   *fulfillment.Service
	bills EwayBillService
}

// Register mounts the fulfilment routes on a. Staff may do all of it
// (orders.write).
func Register(a *adminroute.Router, svc Services) {
	h := &handlers{svc: svc.Fulfillments, bills: svc.EwayBills}
	a.Post("/orders/:orderId/fulfillments", rbac.OrdersWrite, h.create, adminroute.Audit(actionCreate, ""))
	a.Post("/orders/:orderId/fulfillments/:fulfillmentId/eway-bill/retry", rbac.OrdersWrite, h.retryEwayBill,
		adminroute.Audit(actionEwayBillRetry, "fulfillmentId"))
	a.Post("/orders/:orderId/fulfillments/:fulfillmentId/deliver", rbac.OrdersWrite, h.deliver,
		adminroute.Audit(actionDeliver, "fulfillmentId"))
	a.Post("/orders/:orderId/fulfillments/:fulfillmentId/cancel", rbac.OrdersWrite, h.cancel,
		adminroute.Audit(actionCancel, "fulfillmentId"))
	a.Post("/orders/:orderId/fulfillments/:fulfillmentId/return-to-origin", rbac.OrdersWrite, h.returnToOrigin,
		adminroute.Audit(actionReturnToOrigin, "fulfillmentId"))
}

type itemRequest struct {
	OrderItemID string `json:"orderItemId" validate:"required,uuid"`
	Quantity    int    `json:"quantity" validate:"min=1,max=100000"`
}

type createRequest struct {
	// Items nil ships every unfulfilled unit; an empty list is refused.
	Items *[]itemRequest `json:"items" validate:"omitempty,min=1,max=500,dive"`
	// Carrier and TrackingNumber may be left out when a courier books the
	// shipment (fulfillment.Booker).
	Carrier        string `json:"carrier" validate:"max=100"`
	TrackingNumber string `json:"trackingNumber" validate:"max=100"`
	TrackingURL    string `json:"trackingUrl" validate:"omitempty,max=2000,http_url"`
	NotifyCustomer *bool  `json:"notifyCustomer"`
	// LocationID is where the units leave from; empty: the first active
	// location, by priority, that holds them all.
	LocationID string `json:"locationId" validate:"omitempty,uuid"`
	// VehicleNumber or TransporterID carry the goods and DistanceKm is how
	// far, for an e-way bill.
	VehicleNumber *string `json:"vehicleNumber" validate:"omitempty,min=4,max=20,alphanum"`
	TransporterID *string `json:"transporterId" validate:"omitempty,len=15,alphanum"`
	DistanceKm    *int    `json:"distanceKm" validate:"omitempty,min=1,max=4000"`
}

// Carriage is the request as the e-way bill takes it: the vehicle number
// and transporter id upper-cased, as the portal writes them.
func (r CarriageRequest) Carriage() einvoice.Carriage {
	c := einvoice.Carriage{DistanceKm: r.DistanceKm}
	if r.VehicleNumber != nil {
		v := strings.ToUpper(*r.VehicleNumber)
		c.VehicleNumber = &v
	}
	if r.TransporterID != nil {
		v := strings.ToUpper(*r.TransporterID)
		c.TransporterID = &v
	}
	return c
}

// create answers POST /admin/orders/{orderId}/fulfillments with 201 and the
// fulfilment.
func (h *handlers) create(c *fiber.Ctx) error {
	orderID, err := httpx.PathUUID(c, "orderId", "order")
	if err != nil {
		return err
	}
	var req createRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	sh := fulfillment.Shipment{Carrier: strings.TrimSpace(req.Carrier), TrackingNumber: strings.TrimSpace(req.TrackingNumber), TrackingURL: req.TrackingURL,
		Notify: req.NotifyCustomer == nil || *req.NotifyCustomer, By: adminroute.ActorOf(c), RequireTracking: true,
		DistanceKm: req.DistanceKm}
	if req.VehicleNumber != nil {
		v := strings.ToUpper(*req.VehicleNumber)
		sh.VehicleNumber = &v
	}
	if req.TransporterID != nil {
		v := strings.ToUpper(*req.TransporterID)
		sh.TransporterID = &v
	}
	if req.LocationID != "" {
		sh.LocationID = uuid.MustParse(req.LocationID)
	}
	if req.Items != nil {
		sh.Items = make([]fulfillment.Item, len(*req.Items))
		for i, it := range *req.Items {
			sh.Items[i] = fulfillment.Item{OrderItemID: uuid.MustParse(it.OrderItemID), Quantity: it.Quantity}
		}
	}
	f, err := h.svc.Create(c.UserContext(), orderID, sh)
	if err != nil {
		return err
	}
	v, err := h.view(c, f)
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(v)
}

// deliver answers POST .../fulfillments/{fulfillmentId}/deliver with the
// fulfilment.
func (h *handlers) deliver(c *fiber.Ctx) error {
	return h.onFulfillment(c, h.svc.Deliver)
}

// cancel answers POST .../fulfillments/{fulfillmentId}/cancel with the
// fulfilment.
func (h *handlers) cancel(c *fiber.Ctx) error {
	return h.onFulfillment(c, h.svc.Cancel)
}

// returnToOrigin answers POST .../fulfillments/{fulfillmentId}/return-to-origin
// with the fulfilment, returned_to_origin (docs/DECISIONS.md "Cash on
// delivery and offline payments").
func (h *handlers) returnToOrigin(c *fiber.Ctx) error {
	return h.onFulfillment(c, h.svc.ReturnToOrigin)
}

// move is a service call that moves one fulfilment of an order.
type move = func(ctx context.Context, orderID, id uuid.UUID, by audit.Actor) (*models.Fulfillment, error)

// onFulfillment answers a route of one fulfilment (orderId, fulfillmentId)
// with the fulfilment after do moved it.
func (h *handlers) onFulfillment(c *fiber.Ctx, do move) error {
	orderID, err := httpx.PathUUID(c, "orderId", "order")
	if err != nil {
		return err
	}
	id, err := httpx.PathUUID(c, "fulfillmentId", "fulfillment")
	if err != nil {
		return err
	}
	f, err := do(c.UserContext(), orderID, id, adminroute.ActorOf(c))
	if err != nil {
		return err
	}
	v, err := h.view(c, f)
	if err != nil {
		return err
	}
	return c.JSON(v)
}

// view is f with its e-way bill.
func (h *handlers) view(c *fiber.Ctx, f *models.Fulfillment) (View, error) {
	v := []View{NewView(f)}
	if err := WithEwayBills(c.UserContext(), h.bills, v); err != nil {
		return View{}, err
	}
	return v[0], nil
}

// CarriageRequest is the body of POST .../eway-bill/retry (of a
// fulfilment, and of a transfer in package locationapi): how the goods
// travel, where it changed.
type CarriageRequest struct {
	VehicleNumber *string `json:"vehicleNumber" validate:"omitempty,min=4,max=20,alphanum"`
	TransporterID *string `json:"transporterId" validate:"omitempty,len=15,alphanum"`
	DistanceKm    *int    `json:"distanceKm" validate:"omitempty,min=1,max=4000"`
}

// retryEwayBill answers POST .../fulfillments/{fulfillmentId}/eway-bill/retry
// with 202 and the fulfilment, its e-way bill pending again.
func (h *handlers) retryEwayBill(c *fiber.Ctx) error {
	orderID, err := httpx.PathUUID(c, "orderId", "order")
	if err != nil {
		return err
	}
	id, err := httpx.PathUUID(c, "fulfillmentId", "fulfillment")
	if err != nil {
		return err
	}
	var req CarriageRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := h.bills.RetryEwayBill(c.UserContext(), orderID, id, req.Carriage()); err != nil {
		return err
	}
	fs, err := h.svc.ForOrder(c.UserContext(), orderID)
	if err != nil {
		return err
	}
	for i := range fs {
		if fs[i].ID == id {
			v, err := h.view(c, &fs[i])
			if err != nil {
				return err
			}
			return c.Status(fiber.StatusAccepted).JSON(v)
		}
	}
	return apperr.Missing("fulfillment")
}
