package order

import (
	"github.com/gocommerce/shop/models"
	"github.com/google/uuid"
)

// Line is an order line as both APIs answer it: the customer's order and
// the administrator's order detail show the same snapshot of price and tax.
type Line struct {
	ID        uuid.UUID  `json:"id"`
	ProductID *uuid.UUID `json:"productId"`
	VariantID *uuid.UUID `json:"variantId"`
	models.PricedLine
	// CancelledQuantity is the line's units cancelled before they shipped.
	CancelledQuantity int `json:"cancelledQuantity"`
}

// Lines maps an order's items to their answer, never nil.
func Lines(items []models.OrderItem) []Line {
	out := make([]Line, len(items))
	for i, it := range items {
		out[i] = Line{ID: it.ID, ProductID: it.ProductID, VariantID: it.VariantID, PricedLine: it.PricedLine,
			CancelledQuantity: it.CancelledQuantity}
	}
	return out
}
