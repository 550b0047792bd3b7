package catalogapi

import (
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type collectionRequest struct {
	Name        string `json:"name"`
	Slug        string `json:"slug"`
	Description string `json:"description"`
	ImageURL    string `json:"imageUrl"`
}

type collectionPatchRequest struct {
	Name        patch.Field[string] `json:"name"`
	Slug        patch.Field[string] `json:"slug"`
	Description patch.Field[string] `json:"description"`
	ImageURL    patch.Field[string] `json:"imageUrl"`
}

type collectionResponse struct {
	ID          uuid.UUID `json:"id"`
	Name        string    `json:"name"`
	Slug        string    `json:"slug"`
	Description string    `json:"description"`
	ImageURL    string    `json:"imageUrl"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

type collectionDetailResponse struct {
	collectionResponse
	ProductCount int64 `json:"productCount"`
}

func newCollection(c *models.Collection) collectionResponse {
	return collectionResponse{ID: c.ID, Name: c.Name, Slug: c.Slug, Description: c.Description, ImageURL: c.ImageURL,
		CreatedAt: c.CreatedAt.UTC(), UpdatedAt: c.UpdatedAt.UTC()}
}

func (h *handlers) createCollection(c *fiber.Ctx) error {
	var req collectionRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	col, err := h.catalog.CreateCollection(c.UserContext(), catalog.CollectionInput{
		Name: req.Name, Slug: req.Slug, Description: req.Description, ImageURL: req.ImageURL,
	})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(newCollection(col))
}

func (h *handlers) listCollections(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	rows, total, err := h.catalog.ListCollections(c.UserContext(), page.Window())
	if err != nil {
		return err
	}
	data := make([]collectionResponse, len(rows))
	for i := range rows {
		data[i] = newCollection(&rows[i])
	}
	return c.JSON(httpx.NewList(data, page, total))
}

func (h *handlers) getCollection(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "collectionId", "collection")
	if err != nil {
		return err
	}
	d, err := h.catalog.GetCollection(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(collectionDetailResponse{collectionResponse: newCollection(&d.Collection), ProductCount: d.ProductCount})
}

func (h *handlers) updateCollection(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "collectionId", "collection")
	if err != nil {
		return err
	}
	var req collectionPatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	col, err := h.catalog.UpdateCollection(c.UserContext(), id, catalog.CollectionPatch{
		Name: req.Name, Slug: req.Slug, Description: req.Description, ImageURL: req.ImageURL,
	})
	if err != nil {
		return err
	}
	return c.JSON(newCollection(col))
}

func (h *handlers) deleteCollection(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "collectionId", "collection")
	if err != nil {
		return err
	}
	if err := h.catalog.DeleteCollection(c.UserContext(), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
