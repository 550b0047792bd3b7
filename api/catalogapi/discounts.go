package catalogapi

import (
	"strconv"
	"time"

	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/apperr"
	"github.com/gocommerce/shop/internal/discount"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gocommerce/shop/internal/patch"
	"github.com/gocommerce/shop/models"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// discountRequest: value is a percent for PERCENTAGE, an amount for
// FIXED_AMOUNT; both parse as a number with at most 2 decimals. usageCount
// is not read: only orders move it.
type discountRequest struct {
	Code               *string      `json:"code"`
	Description        string       `json:"description"`
	Type               string       `json:"type"`
	ValueType          string       `json:"valueType"`
	Value              money.Amount `json:"value"`
	ApplicationType    string       `json:"applicationType"`
	Scope              string       `json:"scope"`
	MinOrderAmount     money.Amount `json:"minOrderAmount"`
	UsageLimit         *int         `json:"usageLimit"`
	CustomerUsageLimit *int         `json:"customerUsageLimit"`
	StartDate          *jsonTime    `json:"startDate"`
	EndDate            *jsonTime    `json:"endDate"`
	IsActive           *bool        `json:"isActive"`
	ProductIDs         []jsonUUID   `json:"productIds"`
	CategoryIDs        []jsonUUID   `json:"categoryIds"`
	promotionRequest
}

// promotionRequest is the settings of a promotion type (docs/DECISIONS.md "Promotions"):
// buy, get and maxApplications for buy_x_get_y, tiers for tiered,
// minSubtotal and zoneIds for free_shipping; combinesWith for any type.
type promotionRequest struct {
	Buy             *models.PromotionTargets `json:"buy"`
	Get             *models.PromotionGet     `json:"get"`
	MaxApplications *int                     `json:"maxApplications"`
	Tiers           []models.PromotionTier   `json:"tiers"`
	MinSubtotal     money.Amount             `json:"minSubtotal"`
	ZoneIDs         []jsonUUID               `json:"zoneIds"`
	CombinesWith    *models.CombinesWith     `json:"combinesWith"`
}

func (r promotionRequest) rules() models.DiscountRules {
	return models.DiscountRules{Buy: r.Buy, Get: r.Get, MaxApplications: r.MaxApplications, Tiers: r.Tiers,
		MinSubtotal: r.MinSubtotal, ZoneIDs: uuids(r.ZoneIDs)}
}

type discountPatchRequest struct {
	Code               patch.Field[string]       `json:"code"`
	Description        patch.Field[string]       `json:"description"`
	Type               patch.Field[string]       `json:"type"`
	ValueType          patch.Field[string]       `json:"valueType"`
	Value              patch.Field[money.Amount] `json:"value"`
	ApplicationType    patch.Field[string]       `json:"applicationType"`
	Scope              patch.Field[string]       `json:"scope"`
	MinOrderAmount     patch.Field[money.Amount] `json:"minOrderAmount"`
	UsageLimit         patch.Field[int]          `json:"usageLimit"`
	CustomerUsageLimit patch.Field[int]          `json:"customerUsageLimit"`
	StartDate          patch.Field[jsonTime]     `json:"startDate"`
	EndDate            patch.Field[jsonTime]     `json:"endDate"`
	IsActive           patch.Field[bool]         `json:"isActive"`
	ProductIDs         patch.Field[[]jsonUUID]   `json:"productIds"`
	CategoryIDs        patch.Field[[]jsonUUID]   `json:"categoryIds"`

	Buy             patch.Field[models.PromotionTargets] `json:"buy"`
	Get             patch.Field[models.PromotionGet]     `json:"get"`
	MaxApplications patch.Field[int]                     `json:"maxApplications"`
	Tiers           patch.Field[[]models.PromotionTier]  `json:"tiers"`
	MinSubtotal     patch.Field[money.Amount]            `json:"minSubtotal"`
	ZoneIDs         patch.Field[[]jsonUUID]              `json:"zoneIds"`
	CombinesWith    patch.Field[models.CombinesWith]     `json:"combinesWith"`
}

// discountResponse returns type and valueType, always equal.
type discountResponse struct {
	ID                 uuid.UUID    `json:"id"`
	Code               *string      `json:"code"`
	Description        string       `json:"description"`
	Type               string       `json:"type"`
	ValueType          string       `json:"valueType"`
	Value              money.Rate   `json:"value"`
	ApplicationType    string       `json:"applicationType"`
	Scope              string       `json:"scope"`
	MinOrderAmount     money.Amount `json:"minOrderAmount"`
	UsageLimit         *int         `json:"usageLimit"`
	CustomerUsageLimit *int         `json:"customerUsageLimit"`
	UsageCount         int          `json:"usageCount"`
	StartDate          *time.Time   `json:"startDate"`
	EndDate            *time.Time   `json:"endDate"`
	IsActive           bool         `json:"isActive"`
	ProductIDs         []uuid.UUID  `json:"productIds"`
	CategoryIDs        []uuid.UUID  `json:"categoryIds"`
	// Promotion settings: null (tiers, zoneIds: empty) unless the type
	// uses them.
	Buy             *models.PromotionTargets `json:"buy"`
	Get             *models.PromotionGet     `json:"get"`
	MaxApplications *int                     `json:"maxApplications"`
	Tiers           []models.PromotionTier   `json:"tiers"`
	MinSubtotal     money.Amount             `json:"minSubtotal"`
	ZoneIDs         []uuid.UUID              `json:"zoneIds"`
	CombinesWith    models.CombinesWith      `json:"combinesWith"`
	CreatedAt       time.Time                `json:"createdAt"`
	UpdatedAt       time.Time                `json:"updatedAt"`
}

func utc(t *time.Time) *time.Time {
	if t == nil {
		return nil
	}
	u := t.UTC()
	return &u
}

func newDiscount(d *discount.Detail) discountResponse {
	r := discountResponse{
		ID: d.ID, Code: d.Code, Description: d.Description, Type: d.Type, ValueType: d.Type, Value: money.Rate(d.Value),
		ApplicationType: d.ApplicationType, Scope: d.Scope, MinOrderAmount: d.MinOrderAmount, UsageLimit: d.UsageLimit,
		CustomerUsageLimit: d.CustomerUsageLimit, UsageCount: d.UsageCount, StartDate: utc(d.StartDate), EndDate: utc(d.EndDate),
		IsActive: d.IsActive, ProductIDs: d.ProductIDs, CategoryIDs: d.CategoryIDs,
		Buy: d.Rules.Buy, Get: d.Rules.Get, MaxApplications: d.Rules.MaxApplications, Tiers: d.Rules.Tiers,
		MinSubtotal: d.Rules.MinSubtotal, ZoneIDs: d.Rules.ZoneIDs, CombinesWith: d.CombinesWith,
		CreatedAt: d.CreatedAt.UTC(), UpdatedAt: d.UpdatedAt.UTC(),
	}
	if r.Tiers == nil {
		r.Tiers = []models.PromotionTier{}
	}
	if r.ZoneIDs == nil {
		r.ZoneIDs = []uuid.UUID{}
	}
	return r
}

func timePtr(t *jsonTime) *time.Time {
	if t == nil {
		return nil
	}
	v := t.time()
	return &v
}

func (h *handlers) createDiscount(c *fiber.Ctx) error {
	var req discountRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	active := true
	if req.IsActive != nil {
		active = *req.IsActive
	}
	var combines models.CombinesWith
	if req.CombinesWith != nil {
		combines = *req.CombinesWith
	}
	d, err := h.discounts.Create(c.UserContext(), discount.Fields{
		Code: req.Code, Description: req.Description, Type: req.Type, ValueType: req.ValueType, Value: int64(req.Value),
		ApplicationType: req.ApplicationType, Scope: req.Scope, MinOrderAmount: req.MinOrderAmount,
		UsageLimit: req.UsageLimit, CustomerUsageLimit: req.CustomerUsageLimit,
		StartDate: timePtr(req.StartDate), EndDate: timePtr(req.EndDate), IsActive: active,
		ProductIDs: uuids(req.ProductIDs), CategoryIDs: uuids(req.CategoryIDs),
		Rules: req.rules(), CombinesWith: combines,
	})
	if err != nil {
		return err
	}
	return c.Status(fiber.StatusCreated).JSON(newDiscount(d))
}

func (h *handlers) listDiscounts(c *fiber.Ctx) error {
	page, err := httpx.ParsePage(c)
	if err != nil {
		return err
	}
	appType, err := httpx.QueryEnum(c, "applicationType", models.DiscountManual, models.DiscountAutomatic)
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
	rows, total, err := h.discounts.List(c.UserContext(), discount.ListFilter{IsActive: active, ApplicationType: appType, Window: page.Window()})
	if err != nil {
		return err
	}
	data := make([]discountResponse, len(rows))
	for i := range rows {
		data[i] = newDiscount(&rows[i])
	}
	return c.JSON(httpx.NewList(data, page, total))
}

func (h *handlers) getDiscount(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "discountId", "discount")
	if err != nil {
		return err
	}
	d, err := h.discounts.Get(c.UserContext(), id)
	if err != nil {
		return err
	}
	return c.JSON(newDiscount(d))
}

func (h *handlers) updateDiscount(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "discountId", "discount")
	if err != nil {
		return err
	}
	var req discountPatchRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	d, err := h.discounts.Update(c.UserContext(), id, discount.Patch{
		Code: req.Code, Description: req.Description, Type: req.Type, ValueType: req.ValueType, Value: req.Value,
		ApplicationType: req.ApplicationType, Scope: req.Scope, MinOrderAmount: req.MinOrderAmount,
		UsageLimit: req.UsageLimit, CustomerUsageLimit: req.CustomerUsageLimit,
		StartDate: patch.Map(req.StartDate, jsonTime.time), EndDate: patch.Map(req.EndDate, jsonTime.time),
		IsActive: req.IsActive, ProductIDs: patch.Map(req.ProductIDs, uuids), CategoryIDs: patch.Map(req.CategoryIDs, uuids),
		Buy: req.Buy, Get: req.Get, MaxApplications: req.MaxApplications, Tiers: req.Tiers, MinSubtotal: req.MinSubtotal,
		ZoneIDs: patch.Map(req.ZoneIDs, uuids), CombinesWith: req.CombinesWith,
	})
	if err != nil {
		return err
	}
	return c.JSON(newDiscount(d))
}

func (h *handlers) deleteDiscount(c *fiber.Ctx) error {
	id, err := httpx.PathUUID(c, "discountId", "discount")
	if err != nil {
		return err
	}
	if err := h.discounts.Delete(c.UserContext(), id); err != nil {
		return err
	}
	return c.SendStatus(fiber.StatusNoContent)
}
