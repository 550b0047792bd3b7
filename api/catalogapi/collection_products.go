package catalogapi

import (
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

func collectionAndProduct(c *fiber.Ctx) (collectionID, productID uuid.UUID, err error) {
	if collectionID, err = httpx.PathUUID(c, "collectionId", "collection"); err != nil {
		return
	}
	productID, err = httpx.PathUUID(c, "productId", "product")
	return
}

// addCollectionProduct is idempotent: 204 whether or not the product was
// already in the collection.
func (h *handlers) addCollectionProduct(c *fiber.Ctx) error {
	collectionID, productID, err := collectionAndProduct(c)
	if err != nil {
		return err
	}
	if err := h.catalog.AddToCollection(c.UserContext(), collectionID, productID); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

// removeCollectionProduct is idempotent: 204 whether or not the product was
// in the collection.
func (h *handlers) removeCollectionProduct(c *fiber.Ctx) error {
	collectionID, productID, err := collectionAndProduct(c)
	if err != nil {
		return err
	}
	if err := h.catalog.RemoveFromCollection(c.UserContext(), collectionID, productID); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}

func (h *handlers) listCollectionProducts(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "collectionId", "collection")
	if err != nil {
		return err
	}
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	rows, total, err := h.catalog.CollectionProducts(c.UserContext(), id, page.Window())
	if err != nil {
		return err
	}
	ids := make([]uuid.UUID, len(rows))
	for i := range rows {
		ids[i] = rows[i].ID
	}
	rules, err := h.catalog.ValueRulesOf(c.UserContext(), ids)
	if err != nil {
		return err
	}
	data := make([]productResponse, len(rows))
	for i := range rows {
		data[i] = newProduct(&rows[i])
		data[i].underRule(rules, rows[i].Price)
	}
	return c.JSON(httpx.NewList(data, page, total))
}
