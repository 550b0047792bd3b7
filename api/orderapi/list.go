package orderapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/analytics"
	"github.com/gocommerce/shop/internal/orders"
	"github.com/gofiber/fiber/v2"
)

// list answers GET /admin/orders: page, limit, status, customerId,
// orderNumber, dateFrom, dateTo (YYYY-MM-DD UTC, inclusive).
func (h *handlers) list(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	var f orders.Filter
	if f.Status, err = httpx.QueryEnum(c, "status", analytics.OrderStatuses...); err != nil {
		return err
	}
	if f.CustomerID, err = httpx.QueryUUID(c, "customerId"); err != nil {
		return err
	}
	if f.OrderNumber, err = httpx.QuerySearch(c, "orderNumber"); err != nil {
		return err
	}
	if f.From, err = httpx.QueryDate(c, "dateFrom"); err != nil {
		return err
	}
	if f.To, err = httpx.QueryDate(c, "dateTo"); err != nil {
		return err
	}
	rows, total, err := h.orders.List(c.UserContext(), f, page.Page, page.Limit)
	if err != nil {
		return err
	}
	views := make([]summaryView, len(rows))
	for i, r := range rows {
		views[i] = newSummaryView(r)
	}
	return c.JSON(httpx.NewList(views, page, total))
}

// get answers GET /admin/orders/{orderId}.
func (h *handlers) get(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "orderId", "order")
	if err != nil {
		return err
	}
	d, err := h.orders.Get(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(newDetailView(d))
}
