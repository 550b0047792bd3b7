package catalogapi

import (
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/catalog"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type priceRuleRequest struct {
	VariantID      jsonUUID      `json:"variantId"`
	Price          money.Amount  `json:"price"`
	CompareAtPrice *money.Amount `json:"compareAtPrice"`
}

type priceListRequest struct {
	Name            string             `json:"name"`
	Description     string             `json:"description"`
	CustomerGroupID jsonUUID           `json:"customerGroupId"`
	Rules           []priceRuleRequest `json:"rules"`
	IsActive        *bool              `json:"isActive"`
	Priority        int                `json:"priority"`
}

type priceListPatchRequest struct {
	Name            patch.Field[string]             `json:"name"`
	Description     patch.Field[string]             `json:"description"`
	CustomerGroupID patch.Field[jsonUUID]           `json:"customerGroupId"`
	Rules           patch.Field[[]priceRuleRequest] `json:"rules"`
	IsActive        patch.Field[bool]               `json:"isActive"`
	Priority        patch.Field[int]                `json:"priority"`
}

type priceRuleResponse struct {
	VariantID      uuid.UUID     `json:"variantId"`
	Price          money.Amount  `json:"price"`
	CompareAtPrice *money.Amount `json:"compareAtPrice"`
}

type priceListResponse struct {
	ID              uuid.UUID           `json:"id"`
	Name            string              `json:"name"`
	Description     string              `json:"description"`
	CustomerGroupID uuid.UUID           `json:"customerGroupId"`
	Rules           []priceRuleResponse `json:"rules"`
	IsActive        bool                `json:"isActive"`
	Priority        int                 `json:"priority"`
	CreatedAt       time.Time           `json:"createdAt"`
	UpdatedAt       time.Time           `json:"updatedAt"`
}

func priceRules(in []priceRuleRequest) []catalog.PriceRule {
	out := make([]catalog.PriceRule, len(in))
	for i, r := range in {
		out[i] = catalog.PriceRule{VariantID: r.VariantID.id(), Price: r.Price, CompareAtPrice: r.CompareAtPrice}
	}
	return out
}

func newPriceList(l *models.PriceList) priceListResponse {
	out := priceListResponse{ID: l.ID, Name: l.Name, Description: l.Description, CustomerGroupID: l.CustomerGroupID,
		Rules: make([]priceRuleResponse, len(l.Rules)), IsActive: l.IsActive, Priority: l.Priority,
		CreatedAt: l.CreatedAt.UTC(), UpdatedAt: l.UpdatedAt.UTC()}
	for i, r := range l.Rules {
		out.Rules[i] = priceRuleResponse{VariantID: r.VariantID, Price: r.Price, CompareAtPrice: r.CompareAtPrice}
	}
	return out
}

func (h *handlers) createPriceList(c *fiber.Ctx) error {
	var req priceListRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	l, err := h.catalog.CreatePriceList(c.UserContext(), catalog.PriceListInput{
		Name: req.Name, Description: req.Description, CustomerGroupID: req.CustomerGroupID.id(),
		Rules: priceRules(req.Rules), IsActive: req.IsActive, Priority: req.Priority,
	})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(newPriceList(l))
}

func (h *handlers) listPriceLists(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	groupID, err := httpx.QueryUUID(c, "customerGroupId")
	if err != nil {
		return err
	}
	rows, total, err := h.catalog.ListPriceLists(c.UserContext(), catalog.PriceListFilter{CustomerGroupID: groupID, Window: page.Window()})
	if err != nil {
		return err
	}
	data := make([]priceListResponse, len(rows))
	for i := range rows {
		data[i] = newPriceList(&rows[i])
	}
	return c.JSON(httpx.NewList(data, page, total))
}

func (h *handlers) getPriceList(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "priceListId", "price list")
	if err != nil {
		return err
	}
	l, err := h.catalog.GetPriceList(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(newPriceList(l))
}

func (h *handlers) updatePriceList(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "priceListId", "price list")
	if err != nil {
		return err
	}
	var req priceListPatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	l, err := h.catalog.UpdatePriceList(c.UserContext(), id, catalog.PriceListPatch{
		Name: req.Name, Description: req.Description, CustomerGroupID: patch.Map(req.CustomerGroupID, jsonUUID.id),
		Rules: patch.Map(req.Rules, priceRules), IsActive: req.IsActive, Priority: req.Priority,
	})
	if err != nil {
		return err
	}
	return c.JSON(newPriceList(l))
}

func (h *handlers) deletePriceList(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "priceListId", "price list")
	if err != nil {
		return err
	}
	if err := h.catalog.DeletePriceList(c.UserContext(), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
