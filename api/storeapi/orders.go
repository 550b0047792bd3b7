package storeapi

import (
	"encoding/json"
	"time"

	"github.com/gocommerce/shop/api/fulfillmentapi"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/invoice"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/order"
	"github.com/gocommerce/shop/internal/shipping"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// orderBody is a customer's order as answered (docs/openapi.yaml, StoreOrder).
type orderBody struct {
	// Object is "order": it tells an order from a checkout session in the
	// 201 of POST /orders, which is either (openapi's discriminator).
	Object            string        `json:"object"`
	ID                uuid.UUID     `json:"id"`
	OrderNumber       string        `json:"orderNumber"`
	Status            string        `json:"status"`
	PaymentStatus     string        `json:"paymentStatus"`
	PaymentMethod     string        `json:"paymentMethod"`
	CODFee            money.Amount  `json:"codFee"`
	FulfillmentStatus string        `json:"fulfillmentStatus"`
	Items             []order.Line  `json:"items"`
	Subtotal          money.Amount  `json:"subtotal"`
	DiscountTotal     money.Amount  `json:"discountTotal"`
	TaxTotal          money.Amount  `json:"taxTotal"`
	ShippingCost      money.Amount  `json:"shippingCost"`
	ShippingMethod    *shipping.Ref `json:"shippingMethod"`
	Total             money.Amount  `json:"total"`
	// BalanceDue is what an edit that raised the total left to pay.
	BalanceDue   money.Amount `json:"balanceDue"`
	Currency     string       `json:"currency"`
	DiscountCode *string      `json:"discountCode"`
	// Discounts are every discount the order applied (a free-shipping
	// one's amount is the shipping it waived).
	Discounts       []models.AppliedDiscount `json:"discounts"`
	ShippingAddress json.RawMessage          `json:"shippingAddress"`
	CreatedAt       time.Time                `json:"createdAt"`

	// BuyerGSTIN and BuyerName: the B2B buyer given at checkout.
	BuyerGSTIN *string `json:"buyerGstin"`
	BuyerName  string  `json:"buyerName"`
}

func toOrder(o *models.Order) orderBody {
	b := orderBody{Object: "order", ID: o.ID, OrderNumber: o.OrderNumber, Status: o.Status, PaymentStatus: o.PaymentStatus,
		PaymentMethod: o.PaymentMethod, CODFee: o.CODFee, FulfillmentStatus: o.FulfillmentStatus,
		Items: order.Lines(o.Items), Subtotal: o.Subtotal, DiscountTotal: o.DiscountTotal, TaxTotal: o.TaxTotal,
		ShippingCost: o.ShippingCost, ShippingMethod: shipping.RefOf(o.ShippingChoice), Total: o.Total, BalanceDue: o.BalanceDue, Currency: o.Currency, DiscountCode: o.DiscountCode,
		Discounts: o.AppliedDiscounts.OrEmpty(), ShippingAddress: json.RawMessage(o.ShippingAddress), BuyerGSTIN: o.BuyerGSTIN, BuyerName: o.BuyerName, CreatedAt: o.CreatedAt.UTC()}
	if len(b.ShippingAddress) == 0 {
		b.ShippingAddress = json.RawMessage("null")
	}
	return b
}

// orderDetailBody is one customer order with its shipments
// (docs/openapi.yaml, StoreOrderDetail).
type orderDetailBody struct {
	orderBody
	Fulfillments []fulfillmentapi.View `json:"fulfillments"`
	// TaxSplit is the GST as the issued invoices divide it once any
	// exist, else as the order was priced (invoice.TaxSplit).
	TaxSplit invoice.TaxSplit `json:"taxSplit"`
}

// listOrders: GET /orders → the customer's orders, paged, newest first.
// Errors: UNAUTHORIZED, VALIDATION_ERROR.
func (h *handlers) listOrders(c *fiber.Ctx) error {
	p, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	list, total, err := h.orders.CustomerOrders(c.UserContext(), customerOf(c).ID, p.Window())
	if err != nil {
		return err
	}
	out := make([]orderBody, len(list))
	for i := range list {
		out[i] = toOrder(&list[i])
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
	o, err := h.orders.CustomerOrder(c.UserContext(), customerOf(c).ID, id)
	if err != nil {
		return err
	}
	fs, err := h.shipments.ForOrder(c.UserContext(), o.ID)
	if err != nil {
		return err
	}
	split, err := h.invoices.TaxSplit(c.UserContext(), o)
	if err != nil {
		return err
	}
	return c.JSON(orderDetailBody{orderBody: toOrder(o), Fulfillments: fulfillmentapi.Views(fs), TaxSplit: split})
}
