package storeapi

import (
	"encoding/json"
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/orders"
	"github.com/gocommerce/shop/internal/shipping"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// orderBody is a customer's order as answered (docs/openapi.yaml, StoreOrder).
type orderBody struct {
	ID              uuid.UUID       `json:"id"`
	OrderNumber     string          `json:"orderNumber"`
	Status          string          `json:"status"`
	PaymentStatus   string          `json:"paymentStatus"`
	Items           []orders.Line   `json:"items"`
	Subtotal        money.Amount    `json:"subtotal"`
	DiscountTotal   money.Amount    `json:"discountTotal"`
	TaxTotal        money.Amount    `json:"taxTotal"`
	ShippingCost    money.Amount    `json:"shippingCost"`
	ShippingMethod  *shipping.Ref   `json:"shippingMethod"`
	Total           money.Amount    `json:"total"`
	Currency        string          `json:"currency"`
	DiscountCode    *string         `json:"discountCode"`
	ShippingAddress json.RawMessage `json:"shippingAddress"`
	CreatedAt       time.Time       `json:"createdAt"`
}

func toOrder(o *models.Order) orderBody {
	b := orderBody{ID: o.ID, OrderNumber: o.OrderNumber, Status: o.Status, PaymentStatus: o.PaymentStatus,
		Items: orders.Lines(o.Items), Subtotal: o.Subtotal, DiscountTotal: o.DiscountTotal, TaxTotal: o.TaxTotal,
		ShippingCost: o.ShippingCost, ShippingMethod: shipping.RefOf(o.ShippingChoice), Total: o.Total, Currency: o.Currency, DiscountCode: o.DiscountCode,
		ShippingAddress: json.RawMessage(o.ShippingAddress), CreatedAt: o.CreatedAt.UTC()}
	if len(b.ShippingAddress) == 0 {
		b.ShippingAddress = json.RawMessage("null")
	}
	return b
}

// listOrders: GET /orders → the customer's orders, paged, newest first.
// Errors: UNAUTHORIZED, VALIDATION_ERROR.
func (h *handlers) listOrders(c *fiber.Ctx) error {
	p, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	orders, total, err := h.customers.Orders(c.UserContext(), customerOf(c).ID, p.Limit, p.Offset())
	if err != nil {
		return err
	}
	out := make([]orderBody, len(orders))
	for i := range orders {
		out[i] = toOrder(&orders[i])
	}
	return c.JSON(httpx.NewList(out, p, total))
}

// getOrder: GET /orders/{id} → one of the customer's orders; another
// customer's is NOT_FOUND. Errors: UNAUTHORIZED, NOT_FOUND.
func (h *handlers) getOrder(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "id", "order")
	if err != nil {
		return err
	}
	o, err := h.customers.Order(c.UserContext(), customerOf(c).ID, id)
	if err != nil {
		return err
	}
	return c.JSON(toOrder(o))
}

// iso formats a time for responses: ISO 8601 UTC.
func iso(t time.Time) string { return t.UTC().Format(time.RFC3339) }
