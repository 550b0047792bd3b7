package courierapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// label: GET .../orders/{orderId}/fulfillments/{fulfillmentId}/label → the
// label PDF the courier made. Errors: NOT_FOUND, CONFLICT (not booked
// with a courier, or not yet), SERVICE_UNAVAILABLE.
func (h *handlers) label(c *fiber.Ctx) error {
	orderID, err := httpx.PathUUID(c, "orderId", "order")
	if err != nil {
		return err
	}
	id, err := httpx.PathUUID(c, "fulfillmentId", "fulfillment")
	if err != nil {
		return err
	}
	pdf, err := h.svc.Label(c.UserContext(), orderID, id)
	if err != nil {
		return err
	}
	return sendPDF(c, "label-"+id.String()+".pdf", pdf)
}

func sendPDF(c *fiber.Ctx, name string, pdf []byte) error {
	c.Set(fiber.HeaderContentType, "application/pdf")
	c.Set(fiber.HeaderContentDisposition, `inline; filename="`+name+`"`)
	return c.Send(pdf)
}

type fulfillmentIDsRequest struct {
	FulfillmentIDs []string `json:"fulfillmentIds" validate:"required,min=1,max=100,dive,uuid"`
}

// ids parses the request's fulfilment ids, duplicates refused.
func (r *fulfillmentIDsRequest) ids() ([]uuid.UUID, error) {
	seen := map[uuid.UUID]bool{}
	out := make([]uuid.UUID, len(r.FulfillmentIDs))
	for i, s := range r.FulfillmentIDs {
		out[i] = uuid.MustParse(s)
		if seen[out[i]] {
			return nil, apperr.Invalid("fulfillmentIds", "lists a fulfilment twice")
		}
		seen[out[i]] = true
	}
	return out, nil
}

// labels: POST /labels {fulfillmentIds} → one PDF of their labels, in that
// order, for printing at once. Errors: VALIDATION_ERROR, NOT_FOUND,
// CONFLICT (one not booked), SERVICE_UNAVAILABLE.
func (h *handlers) labels(c *fiber.Ctx) error {
	var req fulfillmentIDsRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	ids, err := req.ids()
	if err != nil {
		return err
	}
	pdf, err := h.svc.Labels(c.UserContext(), ids)
	if err != nil {
		return err
	}
	return sendPDF(c, "labels.pdf", pdf)
}
