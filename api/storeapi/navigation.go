package storeapi

import (
	"encoding/json"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gofiber/fiber/v2"
)

// listCategories: GET /categories → {data: [category with children]}, the
// whole tree, siblings by name (cached; docs/DECISIONS.md "Storefront
// basics").
func (h *handlers) listCategories(c *fiber.Ctx) error {
	tree, err := h.browse.Categories(c.UserContext())
	if err != nil {
		return err
	}
	return sendJSON(c, tree.AppendJSON)
}

// listCollections: GET /collections?page=&limit= → paged list of
// collections, newest first (cached). Errors: VALIDATION_ERROR.
func (h *handlers) listCollections(c *fiber.Ctx) error {
	p, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	page, err := h.browse.Collections(c.UserContext(), p.Window())
	if err != nil {
		return err
	}
	pagination, err := paginationJSON(p, page.Total)
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

// getCollection: GET /collections/{slug}?page=&limit= → {collection, data:
// [active products as GET /products lists them, most recently added first],
// pagination}, priced for the caller's group (cached). Errors:
// VALIDATION_ERROR, NOT_FOUND.
func (h *handlers) getCollection(c *fiber.Ctx) error {
	p, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	got, err := h.browse.Collection(c.UserContext(), group(c), c.Params("slug"), p.Window())
	if err != nil {
		return err
	}
	pagination, err := paginationJSON(p, got.Products.Total)
	if err != nil {
		return err
	}
	return sendJSON(c, func(buf []byte) []byte {
		buf = append(buf, `{"collection":`...)
		buf = got.Collection.AppendJSON(buf)
		buf = append(buf, `,"data":`...)
		buf = got.Products.AppendJSON(buf)
		buf = append(buf, `,"pagination":`...)
		buf = append(buf, pagination...)
		return append(buf, '}')
	})
}

// paginationJSON renders a list's pagination object.
func paginationJSON(p httpx.Page, total int64) ([]byte, error) {
	return json.Marshal(httpx.NewList([]struct{}{}, p, total).Pagination)
}
