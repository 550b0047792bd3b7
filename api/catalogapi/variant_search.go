package catalogapi

import (
	"fmt"
	"strings"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// variantRef is a variant as a picker shows it: named by its product,
// size, colour and SKU.
type variantRef struct {
	ID            uuid.UUID     `json:"id"`
	ProductID     uuid.UUID     `json:"productId"`
	ProductTitle  string        `json:"productTitle"`
	ProductStatus string        `json:"productStatus"`
	SKU           string        `json:"sku"`
	Size          string        `json:"size"`
	Color         string        `json:"color"`
	Price         *money.Amount `json:"price"`
	ProductPrice  money.Amount  `json:"productPrice"`
	Inventory     int           `json:"inventory"`
	Available     int           `json:"available"`
	// ProductThumbnail is the URL of its product's thumbnail (as the
	// product list's thumbnail); nil without one.
	ProductThumbnail *string `json:"productThumbnail"`
}

// searchVariants is GET /admin/variants?search=&ids=&skus=&page=&limit=:
// variants by part of their SKU or of their product's title, or by id or
// exact SKU, ordered by product title and SKU, each with its product's
// thumbnail. Errors: VALIDATION_ERROR.
func (h *handlers) searchVariants(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	search, err := httpx.QuerySearch(c, "search")
	if err != nil {
		return err
	}
	ids, err := httpx.QueryIDs(c, "ids", catalog.MaxListIDs)
	if err != nil {
		return err
	}
	skus, err := querySKUs(c)
	if err != nil {
		return err
	}
	rows, total, err := h.catalog.SearchVariants(c.UserContext(), catalog.VariantFilter{Search: search, IDs: ids, SKUs: skus, Window: page.Window()})
	if err != nil {
		return err
	}
	products := make([]uuid.UUID, len(rows))
	for i, r := range rows {
		products[i] = r.ProductID
	}
	thumbs, err := h.thumbnailsOf(c.UserContext(), products)
	if err != nil {
		return err
	}
	data := make([]variantRef, len(rows))
	for i, r := range rows {
		data[i] = variantRef{ID: r.ID, ProductID: r.ProductID, ProductTitle: r.ProductTitle, ProductStatus: r.ProductStatus,
			SKU: r.SKU, Size: r.Size, Color: r.Color, Price: r.Price, ProductPrice: r.ProductPrice,
			Inventory: r.Inventory, Available: r.Available, ProductThumbnail: thumbs[r.ProductID]}
	}
	return c.JSON(httpx.NewList(data, page, total))
}

// querySKUs parses ?skus=A,B (exact SKUs, at most catalog.MaxListIDs); nil
// when absent. Errors: VALIDATION_ERROR on skus.
func querySKUs(c *fiber.Ctx) ([]string, error) {
	s, err := httpx.QueryText(c, "skus")
	if err != nil || s == "" {
		return nil, err
	}
	skus := strings.Split(s, ",")
	if len(skus) > catalog.MaxListIDs {
		return nil, apperr.Invalid("skus", fmt.Sprintf("must list at most %d SKUs", catalog.MaxListIDs))
	}
	for i := range skus {
		skus[i] = strings.TrimSpace(skus[i])
	}
	return skus, nil
}
