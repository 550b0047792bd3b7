package analyticsapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gofiber/fiber/v2"
)

type productSales struct {
	ProductID string       `json:"productId"`
	Title     string       `json:"title"`
	Orders    int64        `json:"orders"`
	Revenue   money.Amount `json:"revenue"`
	UnitsSold int64        `json:"unitsSold"`
}

type inventoryAlert struct {
	VariantID    string `json:"variantId"`
	SKU          string `json:"sku"`
	CurrentStock int    `json:"currentStock"`
	Threshold    int    `json:"threshold"`
}

type productsResponse struct {
	DateFrom        string           `json:"dateFrom"`
	DateTo          string           `json:"dateTo"`
	TopProducts     []productSales   `json:"topProducts"`
	InventoryAlerts []inventoryAlert `json:"inventoryAlerts"`
	Currency        string           `json:"currency"`
}

// products answers GET /admin/analytics/products[?locationId=]: the
// inventory alerts are over every location, or of the one named.
func (h *handlers) products(c *fiber.Ctx) error {
	r, err := h.dateRange(c)
	if err != nil {
		return err
	}
	top, err := topLimit(c)
	if err != nil {
		return err
	}
	at, err := httpx.QueryUUID(c, "locationId")
	if err != nil {
		return err
	}
	rep, err := h.stats.Products(c.UserContext(), r, top, at)
	if err != nil {
		return err
	}
	resp := productsResponse{DateFrom: day(r.From), DateTo: day(r.To), Currency: rep.Currency,
		TopProducts:     make([]productSales, len(rep.TopProducts)),
		InventoryAlerts: make([]inventoryAlert, len(rep.InventoryAlerts))}
	for i, p := range rep.TopProducts {
		resp.TopProducts[i] = productSales{ProductID: p.ProductID.String(), Title: p.Title, Orders: p.Orders,
			Revenue: p.Revenue, UnitsSold: p.UnitsSold}
	}
	for i, a := range rep.InventoryAlerts {
		resp.InventoryAlerts[i] = inventoryAlert{VariantID: a.VariantID.String(), SKU: a.SKU,
			CurrentStock: a.CurrentStock, Threshold: a.Threshold}
	}
	return c.JSON(resp)
}
