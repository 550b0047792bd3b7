package order

import (
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Line is an order line as both APIs answer it: the customer's order and
// the administrator's order detail show the same snapshot of price and tax.
type Line struct {
	ID             uuid.UUID    `json:"id"`
	ProductID      *uuid.UUID   `json:"productId"`
	VariantID      *uuid.UUID   `json:"variantId"`
	Title          string       `json:"title"`
	SKU            string       `json:"sku"`
	Quantity       int          `json:"quantity"`
	UnitPrice      money.Amount `json:"unitPrice"`
	DiscountAmount money.Amount `json:"discountAmount"`
	LineTotal      money.Amount `json:"lineTotal"`
	GSTRate        money.Rate   `json:"gstRate"`
	TaxAmount      money.Amount `json:"taxAmount"`
	HSNCode        string       `json:"hsnCode"`
}

// Lines maps an order's items to their answer, never nil.
func Lines(items []models.OrderItem) []Line {
	out := make([]Line, len(items))
	for i, it := range items {
		out[i] = Line{ID: it.ID, ProductID: it.ProductID, VariantID: it.VariantID, Title: it.Title, SKU: it.SKU,
			Quantity: it.Quantity, UnitPrice: it.UnitPrice, DiscountAmount: it.DiscountAmount, LineTotal: it.LineTotal,
			GSTRate: it.GSTRate, TaxAmount: it.TaxAmount, HSNCode: it.HSNCode}
	}
	return out
}
