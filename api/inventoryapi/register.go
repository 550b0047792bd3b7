// Package inventoryapi serves the back office's catalog-wide stock
// endpoints: the overview and bulk updates queued as jobs (README "API
// overview: back office", docs/DECISIONS.md "Back office").
package inventoryapi

import (
	"strconv"

	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/rbac"
	"github.com/gocommerce/shop/internal/stock"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

const actionBulkUpdate = "inventory.bulk_update"

// Services are what the inventory routes call.
type Services struct {
	Inventory *stock.Levels
}

type handlers struct {
	stock *stock.Levels
}

// Register mounts the inventory routes on a.
func Register(a *adminroute.Router, svc Services) {
	h := &handlers{stock: svc.Inventory}
	a.Get("/inventory/overview", rbac.CatalogRead, h.overview)
	a.Post("/inventory/bulk-update", rbac.InventoryBulk, h.bulkUpdate,
		adminroute.Audit(actionBulkUpdate, ""), adminroute.RateBucket(adminroute.Bulk))
}

type reservedView struct {
	Total   int64 `json:"total"`
	ByCart  int64 `json:"byCart"`
	ByOrder int64 `json:"byOrder"`
}

type overviewResponse struct {
	TotalVariants      int64        `json:"totalVariants"`
	InStockVariants    int64        `json:"inStockVariants"`
	OutOfStockVariants int64        `json:"outOfStockVariants"`
	LowStockVariants   int64        `json:"lowStockVariants"`
	TotalValue         money.Amount `json:"totalValue"`
	ReservedInventory  reservedView `json:"reservedInventory"`
	Currency           string       `json:"currency"`
}

// overview answers GET /admin/inventory/overview[?locationId=]: the
// catalog's figures, or one location's.
func (h *handlers) overview(c *fiber.Ctx) error {
	at, err := httpx.QueryUUID(c, "locationId")
	if err != nil {
		return err
	}
	var o *stock.Overview
	if at != nil {
		o, err = h.stock.LocationOverview(c.UserContext(), *at)
	} else {
		o, err = h.stock.Overview(c.UserContext())
	}
	if err != nil {
		return err
	}
	return c.JSON(overviewResponse{
		TotalVariants: o.TotalVariants, InStockVariants: o.InStockVariants, OutOfStockVariants: o.OutOfStockVariants,
		LowStockVariants: o.LowStockVariants, TotalValue: o.TotalValue, Currency: o.Currency,
		ReservedInventory: reservedView{Total: o.ReservedByCart + o.ReservedByOrder, ByCart: o.ReservedByCart, ByOrder: o.ReservedByOrder},
	})
}

// bulkLine names its variant by id or, as a stock sheet does, by SKU.
type bulkLine struct {
	VariantID string `json:"variantId" validate:"omitempty,uuid"`
	SKU       string `json:"sku" validate:"omitempty,max=64"`
	Inventory *int   `json:"inventory" validate:"required,min=0,max=1000000000"`
	Operation string `json:"operation" validate:"required"` // stock.Ops, checked by SubmitBulk
	// LocationID is where the units are; empty: the default location.
	LocationID string `json:"locationId" validate:"omitempty,uuid"`
}

type bulkRequest struct {
	Updates []bulkLine `json:"updates" validate:"required,min=1,max=1000,dive"`
}

// JobAccepted is the 202 answer of queued work (docs/openapi.yaml, JobAccepted).
type JobAccepted struct {
	JobID  string `json:"jobId"`
	Status string `json:"status"`
}

// bulkUpdate answers POST /admin/inventory/bulk-update: 202 with the job id
// once every update is checked and the job queued.
func (h *handlers) bulkUpdate(c *fiber.Ctx) error {
	var req bulkRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	updates, err := h.adjustments(c, req.Updates)
	if err != nil {
		return err
	}
	jobID, err := h.stock.SubmitBulk(c.UserContext(), updates)
	if err != nil {
		return err
	}
	adminroute.SetAuditEntity(c, jobID)
	adminroute.AddAuditMeta(c, "updates", len(updates))
	return c.Status(fiber.StatusAccepted).JSON(JobAccepted{JobID: jobID, Status: "queued"})
}

// adjustments turns the lines into stock adjustments, finding the variant of
// each line named by SKU. Errors: VALIDATION_ERROR naming updates[i].variantId
// or .sku (neither or both given, unknown SKU).
func (h *handlers) adjustments(c *fiber.Ctx, lines []bulkLine) ([]stock.Adjustment, error) {
	var skus []string
	for i, l := range lines {
		field := "updates[" + strconv.Itoa(i) + "]."
		switch {
		case l.VariantID == "" && l.SKU == "":
			return nil, apperr.Invalid(field+"variantId", "is required unless sku names the variant")
		case l.VariantID != "" && l.SKU != "":
			return nil, apperr.Invalid(field+"sku", "must not be given with variantId")
		case l.SKU != "":
			skus = append(skus, l.SKU)
		}
	}
	bySKU, err := h.stock.VariantsBySKU(c.UserContext(), skus)
	if err != nil {
		return nil, err
	}
	updates := make([]stock.Adjustment, len(lines))
	for i, l := range lines {
		id, ok := bySKU[l.SKU]
		if l.SKU == "" {
			if id, err = uuid.Parse(l.VariantID); err != nil {
				return nil, apperr.Invalid("updates["+strconv.Itoa(i)+"].variantId", "must be a UUID")
			}
		} else if !ok {
			return nil, apperr.Invalid("updates["+strconv.Itoa(i)+"].sku", "is not the SKU of any variant")
		}
		updates[i] = stock.Adjustment{VariantID: id, Quantity: *l.Inventory, Operation: l.Operation}
		if l.LocationID != "" {
			updates[i].LocationID = uuid.MustParse(l.LocationID)
		}
	}
	return updates, nil
}
