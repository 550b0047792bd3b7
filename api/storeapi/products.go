package storeapi

import (
	"encoding/json"
	"sync"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/browse"
	"github.com/gocommerce/shop/internal/database"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// group is the pricing group of the request's customer (nil for guests).
func group(c *fiber.Ctx) *uuid.UUID {
	if cu := customerOf(c); cu != nil {
		return cu.CustomerGroupID
	}
	return nil
}

// listProducts: GET /products?category=&search=&page=&limit= → paged list of
// active products, newest first. Errors: VALIDATION_ERROR.
func (h *handlers) listProducts(c *fiber.Ctx) error {
	p, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	search, err := httpx.QuerySearch(c, "search")
	if err != nil {
		return err
	}
	category, err := httpx.QueryText(c, "category")
	if err != nil {
		return err
	}
	if len(category) > 200 {
		return apperr.Invalid("category", "must be a category id or slug")
	}
	q := browse.ListQuery{Group: group(c), Category: category, Window: p.Window()}
	if search != "" {
		q.Pattern = database.LikeContains(search)
	}
	page, err := h.browse.List(c.UserContext(), q)
	if err != nil {
		return err
	}
	pagination, err := json.Marshal(httpx.NewList([]struct{}{}, p, page.Total).Pagination)
	if err != nil {
		return err
	}
	return sendJSON(c, func(buf []byte) []byte {
		buf = append(buf, `{"data":`...)
		buf = page.AppendJSON(buf)
		buf = append(buf, `,"pagination":`...)
		buf = append(buf, pagination...)
		return append(buf, '}')
	})
}

// renderBuffers recycles the buffers pages are rendered into: a list page is
// tens of KiB, and allocating one per request kept the collector busy.
var renderBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 64<<10); return &b }}

// sendJSON answers 200 with a body rendered by render into a pooled buffer;
// fasthttp copies it into its own pooled response body.
func sendJSON(c *fiber.Ctx, render func([]byte) []byte) error {
	bp := renderBuffers.Get().(*[]byte)
	body := render((*bp)[:0])
	c.Set(fiber.HeaderContentType, fiber.MIMEApplicationJSON)
	c.Response().SetBody(body)
	if cap(body) <= 1<<20 { // an outsized buffer is left to the collector
		*bp = body[:0]
		renderBuffers.Put(bp)
	}
	return nil
}

// getProduct: GET /products/{id} (id or slug) → the product with variants,
// prices for the caller and availability. Errors: NOT_FOUND.
func (h *handlers) getProduct(c *fiber.Ctx) error {
	p, err := h.browse.Product(c.UserContext(), group(c), c.Params("id"))
	if err != nil {
		return err
	}
	return sendJSON(c, p.AppendJSON)
}
