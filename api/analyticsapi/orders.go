package analyticsapi

import (
	"github.com/gocommerce/shop/internal/analytics"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gofiber/fiber/v2"
)

type dayRevenue struct {
	Date    string       `json:"date"`
	Revenue money.Amount `json:"revenue"`
}

type ordersResponse struct {
	DateFrom          string           `json:"dateFrom"`
	DateTo            string           `json:"dateTo"`
	TotalOrders       int64            `json:"totalOrders"`
	TotalRevenue      money.Amount     `json:"totalRevenue"`
	AverageOrderValue money.Amount     `json:"averageOrderValue"`
	OrdersByStatus    map[string]int64 `json:"ordersByStatus"`
	RevenueByDay      []dayRevenue     `json:"revenueByDay"`
	Currency          string           `json:"currency"`
	// PaymentMethods and CODOutstanding: docs/DECISIONS.md "Cash on
	// delivery and offline payments".
	PaymentMethods []analytics.MethodTotal `json:"paymentMethods"`
	CODOutstanding analytics.Outstanding   `json:"codOutstanding"`
}

// orders answers GET /admin/analytics/orders.
func (h *handlers) orders(c *fiber.Ctx) error {
	r, err := h.dateRange(c)
	if err != nil {
		return err
	}
	rep, err := h.stats.Orders(c.UserContext(), r)
	if err != nil {
		return err
	}
	resp := ordersResponse{
		DateFrom: day(r.From), DateTo: day(r.To), TotalOrders: rep.TotalOrders, TotalRevenue: rep.TotalRevenue,
		AverageOrderValue: rep.AverageOrderValue, OrdersByStatus: rep.OrdersByStatus, Currency: rep.Currency,
		RevenueByDay: make([]dayRevenue, len(rep.RevenueByDay)), PaymentMethods: rep.PaymentMethods,
		CODOutstanding: rep.CODOutstanding,
	}
	for i, d := range rep.RevenueByDay {
		resp.RevenueByDay[i] = dayRevenue{Date: day(d.Date), Revenue: d.Revenue}
	}
	return c.JSON(resp)
}
