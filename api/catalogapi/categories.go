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

type categoryRequest struct {
	Name        string    `json:"name"`
	Description string    `json:"description"`
	Slug        string    `json:"slug"`
	ParentID    *jsonUUID `json:"parentId"`
}

type categoryPatchRequest struct {
	Name        patch.Field[string]   `json:"name"`
	Description patch.Field[string]   `json:"description"`
	Slug        patch.Field[string]   `json:"slug"`
	ParentID    patch.Field[jsonUUID] `json:"parentId"`
}

type categoryResponse struct {
	ID          uuid.UUID  `json:"id"`
	Name        string     `json:"name"`
	Description string     `json:"description"`
	Slug        string     `json:"slug"`
	ParentID    *uuid.UUID `json:"parentId"`
	CreatedAt   time.Time  `json:"createdAt"`
	UpdatedAt   time.Time  `json:"updatedAt"`
}

func newCategory(c *models.Category) categoryResponse {
	return categoryResponse{ID: c.ID, Name: c.Name, Description: c.Description, Slug: c.Slug, ParentID: c.ParentID,
		CreatedAt: c.CreatedAt.UTC(), UpdatedAt: c.UpdatedAt.UTC()}
}

func (h *handlers) createCategory(c *fiber.Ctx) error {
	var req categoryRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	cat, err := h.catalog.CreateCategory(c.UserContext(), catalog.CategoryInput{
		Name: req.Name, Description: req.Description, Slug: req.Slug, ParentID: uuidPtr(req.ParentID),
	})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(newCategory(cat))
}

func (h *handlers) listCategories(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	parentID, err := httpx.QueryUUID(c, "parentId")
	if err != nil {
		return err
	}
	rows, total, err := h.catalog.ListCategories(c.UserContext(), catalog.CategoryFilter{ParentID: parentID, Window: page.Window()})
	if err != nil {
		return err
	}
	data := make([]categoryResponse, len(rows))
	for i := range rows {
		data[i] = newCategory(&rows[i])
	}
	return c.JSON(httpx.NewList(data, page, total))
}

func (h *handlers) getCategory(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "categoryId", "category")
	if err != nil {
		return err
	}
	cat, err := h.catalog.GetCategory(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(newCategory(cat))
}

func (h *handlers) updateCategory(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "categoryId", "category")
	if err != nil {
		return err
	}
	var req categoryPatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	cat, err := h.catalog.UpdateCategory(c.UserContext(), id, catalog.CategoryPatch{
		Name: req.Name, Description: req.Description, Slug: req.Slug, ParentID: patch.Map(req.ParentID, jsonUUID.id),
	})
	if err != nil {
		return err
	}
	return c.JSON(newCategory(cat))
}

func (h *handlers) deleteCategory(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "categoryId", "category")
	if err != nil {
		return err
	}
	if err := h.catalog.DeleteCategory(c.UserContext(), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
