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

type customerGroupRequest struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

type customerGroupPatchRequest struct {
	Name        patch.Field[string] `json:"name"`
	Description patch.Field[string] `json:"description"`
}

type customerGroupResponse struct {
	ID          uuid.UUID `json:"id"`
	Name        string    `json:"name"`
	Description string    `json:"description"`
	CreatedAt   time.Time `json:"createdAt"`
	UpdatedAt   time.Time `json:"updatedAt"`
}

type customerGroupDetailResponse struct {
	customerGroupResponse
	CustomerCount int64 `json:"customerCount"`
}

func newCustomerGroup(g *models.CustomerGroup) customerGroupResponse {
	return customerGroupResponse{ID: g.ID, Name: g.Name, Description: g.Description, CreatedAt: g.CreatedAt.UTC(), UpdatedAt: g.UpdatedAt.UTC()}
}

func (h *handlers) createCustomerGroup(c *fiber.Ctx) error {
	var req customerGroupRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	g, err := h.catalog.CreateCustomerGroup(c.UserContext(), catalog.CustomerGroupInput{Name: req.Name, Description: req.Description})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(newCustomerGroup(g))
}

func (h *handlers) listCustomerGroups(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	rows, total, err := h.catalog.ListCustomerGroups(c.UserContext(), page.Window())
	if err != nil {
		return err
	}
	data := make([]customerGroupResponse, len(rows))
	for i := range rows {
		data[i] = newCustomerGroup(&rows[i])
	}
	return c.JSON(httpx.NewList(data, page, total))
}

func (h *handlers) getCustomerGroup(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "groupId", "customer group")
	if err != nil {
		return err
	}
	d, err := h.catalog.GetCustomerGroup(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(customerGroupDetailResponse{customerGroupResponse: newCustomerGroup(&d.CustomerGroup), CustomerCount: d.CustomerCount})
}

func (h *handlers) updateCustomerGroup(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "groupId", "customer group")
	if err != nil {
		return err
	}
	var req customerGroupPatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	g, err := h.catalog.UpdateCustomerGroup(c.UserContext(), id, catalog.CustomerGroupPatch{Name: req.Name, Description: req.Description})
	if err != nil {
		return err
	}
	return c.JSON(newCustomerGroup(g))
}

func (h *handlers) deleteCustomerGroup(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "groupId", "customer group")
	if err != nil {
		return err
	}
	if err := h.catalog.DeleteCustomerGroup(c.UserContext(), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
