package catalogapi

import (
	"strconv"
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/bundle"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type bundleRequest struct {
	Title            string     `json:"title"`
	Description      string     `json:"description"`
	IsActive         *bool      `json:"isActive"`
	AllowMixAndMatch bool       `json:"allowMixAndMatch"`
	DiscountPercent  money.Rate `json:"discountPercent"`
}

type bundlePatchRequest struct {
	Title            patch.Field[string]     `json:"title"`
	Description      patch.Field[string]     `json:"description"`
	IsActive         patch.Field[bool]       `json:"isActive"`
	AllowMixAndMatch patch.Field[bool]       `json:"allowMixAndMatch"`
	DiscountPercent  patch.Field[money.Rate] `json:"discountPercent"`
}

type bundleResponse struct {
	ID               uuid.UUID           `json:"id"`
	Title            string              `json:"title"`
	Description      string              `json:"description"`
	IsActive         bool                `json:"isActive"`
	AllowMixAndMatch bool                `json:"allowMixAndMatch"`
	DiscountPercent  money.Rate          `json:"discountPercent"`
	Sets             []bundleSetResponse `json:"sets"`
	// DefaultSelection is each isDefault item picked once, as cart lines.
	DefaultSelection []bundle.Line `json:"defaultSelection"`
	CreatedAt        time.Time     `json:"createdAt"`
	UpdatedAt        time.Time     `json:"updatedAt"`
}

func newBundle(b *models.Bundle) bundleResponse {
	out := bundleResponse{ID: b.ID, Title: b.Title, Description: b.Description, IsActive: b.IsActive,
		AllowMixAndMatch: b.AllowMixAndMatch, DiscountPercent: b.DiscountPercent, Sets: make([]bundleSetResponse, len(b.Sets)),
		DefaultSelection: bundle.DefaultSelection(b), CreatedAt: b.CreatedAt.UTC(), UpdatedAt: b.UpdatedAt.UTC()}
	for i := range b.Sets {
		out.Sets[i] = newBundleSet(&b.Sets[i])
	}
	if out.DefaultSelection == nil {
		out.DefaultSelection = []bundle.Line{}
	}
	return out
}

func (h *handlers) createBundle(c *fiber.Ctx) error {
	var req bundleRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	b, err := h.bundles.Create(c.UserContext(), bundle.Input{Title: req.Title, Description: req.Description, IsActive: req.IsActive,
		AllowMixAndMatch: req.AllowMixAndMatch, DiscountPercent: req.DiscountPercent})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(newBundle(b))
}

func (h *handlers) listBundles(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	var active *bool
	if s := c.Query("isActive"); s != "" {
		b, err := strconv.ParseBool(s)
		if err != nil {
			return apperr.Invalid("isActive", "must be true or false")
		}
		active = &b
	}
	rows, total, err := h.bundles.List(c.UserContext(), bundle.Filter{IsActive: active, Window: page.Window()})
	if err != nil {
		return err
	}
	data := make([]bundleResponse, len(rows))
	for i := range rows {
		data[i] = newBundle(&rows[i])
	}
	return c.JSON(httpx.NewList(data, page, total))
}

func (h *handlers) getBundle(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "bundleId", "bundle")
	if err != nil {
		return err
	}
	b, err := h.bundles.Get(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(newBundle(b))
}

func (h *handlers) updateBundle(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "bundleId", "bundle")
	if err != nil {
		return err
	}
	var req bundlePatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	b, err := h.bundles.Update(c.UserContext(), id, bundle.Patch{Title: req.Title, Description: req.Description,
		IsActive: req.IsActive, AllowMixAndMatch: req.AllowMixAndMatch, DiscountPercent: req.DiscountPercent})
	if err != nil {
		return err
	}
	return c.JSON(newBundle(b))
}

func (h *handlers) deleteBundle(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "bundleId", "bundle")
	if err != nil {
		return err
	}
	if err := h.bundles.Delete(c.UserContext(), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
