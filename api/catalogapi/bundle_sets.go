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

type bundleSetRequest struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	MinQuantity *int   `json:"minQuantity"`
	MaxQuantity *int   `json:"maxQuantity"`
	SortOrder   int    `json:"sortOrder"`
}

type bundleSetPatchRequest struct {
	Title       patch.Field[string] `json:"title"`
	Description patch.Field[string] `json:"description"`
	MinQuantity patch.Field[int]    `json:"minQuantity"`
	MaxQuantity patch.Field[int]    `json:"maxQuantity"`
	SortOrder   patch.Field[int]    `json:"sortOrder"`
}

type bundleSetResponse struct {
	ID          uuid.UUID            `json:"id"`
	BundleID    uuid.UUID            `json:"bundleId"`
	Title       string               `json:"title"`
	Description string               `json:"description"`
	MinQuantity int                  `json:"minQuantity"`
	MaxQuantity int                  `json:"maxQuantity"`
	SortOrder   int                  `json:"sortOrder"`
	Items       []bundleItemResponse `json:"items"`
	CreatedAt   time.Time            `json:"createdAt"`
	UpdatedAt   time.Time            `json:"updatedAt"`
}

func newBundleSet(s *models.BundleSet) bundleSetResponse {
	out := bundleSetResponse{ID: s.ID, BundleID: s.BundleID, Title: s.Title, Description: s.Description,
		MinQuantity: s.MinQuantity, MaxQuantity: s.MaxQuantity, SortOrder: s.SortOrder,
		Items: make([]bundleItemResponse, len(s.Items)), CreatedAt: s.CreatedAt.UTC(), UpdatedAt: s.UpdatedAt.UTC()}
	for i := range s.Items {
		out.Items[i] = newBundleItem(&s.Items[i])
	}
	return out
}

func bundleAndSet(c *fiber.Ctx) (bundleID, setID uuid.UUID, err error) {
	if bundleID, err = httpx.PathUUID(c, "bundleId", "bundle"); err != nil {
		return
	}
	setID, err = httpx.PathUUID(c, "setId", "bundle set")
	return
}

func (h *handlers) createBundleSet(c *fiber.Ctx) error {
	bundleID, err := httpx.PathUUID(c, "bundleId", "bundle")
	if err != nil {
		return err
	}
	var req bundleSetRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	s, err := h.bundles.CreateSet(c.UserContext(), bundleID, bundle.SetInput{Title: req.Title, Description: req.Description,
		MinQuantity: req.MinQuantity, MaxQuantity: req.MaxQuantity, SortOrder: req.SortOrder})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(newBundleSet(s))
}

// listBundleSets answers {data: [...]}: a bundle has few sets, unpaged.
func (h *handlers) listBundleSets(c *fiber.Ctx) error {
	bundleID, err := httpx.PathUUID(c, "bundleId", "bundle")
	if err != nil {
		return err
	}
	sets, err := h.bundles.ListSets(c.UserContext(), bundleID)
	if err != nil {
		return err
	}
	data := make([]bundleSetResponse, len(sets))
	for i := range sets {
		data[i] = newBundleSet(&sets[i])
	}
	return c.JSON(fiber.Map{"data": data})
}

func (h *handlers) getBundleSet(c *fiber.Ctx) error {
	bundleID, setID, err := bundleAndSet(c)
	if err != nil {
		return err
	}
	s, err := h.bundles.GetSet(c.UserContext(), bundleID, setID)
	if err != nil {
		return err
	}
	return c.JSON(newBundleSet(s))
}

func (h *handlers) updateBundleSet(c *fiber.Ctx) error {
	bundleID, setID, err := bundleAndSet(c)
	if err != nil {
		return err
	}
	var req bundleSetPatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	s, err := h.bundles.UpdateSet(c.UserContext(), bundleID, setID, bundle.SetPatch{Title: req.Title, Description: req.Description,
		MinQuantity: req.MinQuantity, MaxQuantity: req.MaxQuantity, SortOrder: req.SortOrder})
	if err != nil {
		return err
	}
	return c.JSON(newBundleSet(s))
}

func (h *handlers) deleteBundleSet(c *fiber.Ctx) error {
	bundleID, setID, err := bundleAndSet(c)
	if err != nil {
		return err
	}
	if err := h.bundles.DeleteSet(c.UserContext(), bundleID, setID); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
