package catalogapi

import (
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/bundle"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type bundleItemRequest struct {
	VariantID *jsonUUID `json:"variantId"`
	Quantity  *int      `json:"quantity"`
	IsDefault bool      `json:"isDefault"`
	SortOrder int       `json:"sortOrder"`
}

type bundleItemPatchRequest struct {
	VariantID patch.Field[jsonUUID] `json:"variantId"`
	Quantity  patch.Field[int]      `json:"quantity"`
	IsDefault patch.Field[bool]     `json:"isDefault"`
	SortOrder patch.Field[int]      `json:"sortOrder"`
}

// bundleItemResponse: quantity is the units of the variant one pick of the
// item puts in the cart.
type bundleItemResponse struct {
	ID        uuid.UUID `json:"id"`
	SetID     uuid.UUID `json:"setId"`
	VariantID uuid.UUID `json:"variantId"`
	Quantity  int       `json:"quantity"`
	IsDefault bool      `json:"isDefault"`
	SortOrder int       `json:"sortOrder"`
	CreatedAt time.Time `json:"createdAt"`
	UpdatedAt time.Time `json:"updatedAt"`
}

func newBundleItem(it *models.BundleSetItem) bundleItemResponse {
	return bundleItemResponse{ID: it.ID, SetID: it.SetID, VariantID: it.VariantID, Quantity: it.Quantity,
		IsDefault: it.IsDefault, SortOrder: it.SortOrder, CreatedAt: it.CreatedAt.UTC(), UpdatedAt: it.UpdatedAt.UTC()}
}

func (h *handlers) createBundleItem(c *fiber.Ctx) error {
	bundleID, setID, err := bundleAndSet(c)
	if err != nil {
		return err
	}
	var req bundleItemRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	var variantID uuid.UUID
	if req.VariantID != nil {
		variantID = req.VariantID.id()
	}
	it, err := h.bundles.CreateItem(c.UserContext(), bundleID, setID, bundle.ItemInput{VariantID: variantID, Quantity: req.Quantity,
		IsDefault: req.IsDefault, SortOrder: req.SortOrder})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(newBundleItem(it))
}

func (h *handlers) updateBundleItem(c *fiber.Ctx) error {
	bundleID, setID, err := bundleAndSet(c)
	if err != nil {
		return err
	}
	itemID, err := httpx.PathUUID(c, "itemId", "bundle set item")
	if err != nil {
		return err
	}
	var req bundleItemPatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	it, err := h.bundles.UpdateItem(c.UserContext(), bundleID, setID, itemID, bundle.ItemPatch{
		VariantID: patch.Map(req.VariantID, jsonUUID.id), Quantity: req.Quantity, IsDefault: req.IsDefault, SortOrder: req.SortOrder})
	if err != nil {
		return err
	}
	return c.JSON(newBundleItem(it))
}

func (h *handlers) deleteBundleItem(c *fiber.Ctx) error {
	bundleID, setID, err := bundleAndSet(c)
	if err != nil {
		return err
	}
	itemID, err := httpx.PathUUID(c, "itemId", "bundle set item")
	if err != nil {
		return err
	}
	if err := h.bundles.DeleteItem(c.UserContext(), bundleID, setID, itemID); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
