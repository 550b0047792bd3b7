package paymentapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gocommerce/shop/internal/cod"
	"github.com/gocommerce/shop/internal/money"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// codRequest is the cod member of PUT /admin/settings/payments: every
// field but enabled falls back to its default when absent.
type codRequest struct {
	Enabled            *bool         `json:"enabled" validate:"required"`
	MaxOrderAmount     *money.Amount `json:"maxOrderAmount" validate:"omitempty,gte=0"`
	Fee                *money.Amount `json:"fee" validate:"omitempty,gte=0"`
	FeeGSTRate         *money.Rate   `json:"feeGstRate"`
	ZoneIDs            []string      `json:"zoneIds" validate:"omitempty,max=100,dive,uuid"`
	MaxOpenPerCustomer *int          `json:"maxOpenPerCustomer" validate:"omitempty,gte=0,lte=1000"`
	// COD confirmation (internal/cod/confirm.go).
	Confirmation      *string       `json:"confirmation" validate:"omitempty,oneof=none otp link"`
	ConfirmAbove      *money.Amount `json:"confirmAbove" validate:"omitempty,gte=0"`
	ConfirmFirstOrder *bool         `json:"confirmFirstOrder"`
	BlockedPincodes   []string      `json:"blockedPincodes" validate:"omitempty,max=5000"`
}

type settingsRequest struct {
	COD *codRequest `json:"cod" validate:"required"`
}

// getSettings: GET /admin/settings/payments → the settings in force.
func (h *handlers) getSettings(c *fiber.Ctx) error {
	s, err := h.settings.Settings(c.UserContext())
	if err != nil {
		return err
	}
	return c.JSON(s)
}

// putSettings: PUT /admin/settings/payments → the settings now in force.
// Errors: VALIDATION_ERROR naming cod.<field>.
func (h *handlers) putSettings(c *fiber.Ctx) error {
	var req settingsRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	r := req.COD
	in := cod.Defaults()
	in.COD.Enabled = *r.Enabled
	if r.MaxOrderAmount != nil {
		in.COD.MaxOrderAmount = *r.MaxOrderAmount
	}
	if r.Fee != nil {
		in.COD.Fee = *r.Fee
	}
	if r.FeeGSTRate != nil {
		in.COD.FeeGSTRate = *r.FeeGSTRate
	}
	if r.MaxOpenPerCustomer != nil {
		in.COD.MaxOpenPerCustomer = *r.MaxOpenPerCustomer
	}
	for _, z := range r.ZoneIDs {
		in.COD.ZoneIDs = append(in.COD.ZoneIDs, uuid.MustParse(z))
	}
	if r.Confirmation != nil {
		in.COD.Confirmation = *r.Confirmation
	}
	if r.ConfirmAbove != nil {
		in.COD.ConfirmAbove = *r.ConfirmAbove
	}
	if r.ConfirmFirstOrder != nil {
		in.COD.ConfirmFirstOrder = *r.ConfirmFirstOrder
	}
	if r.BlockedPincodes != nil {
		in.COD.BlockedPincodes = r.BlockedPincodes
	}
	s, err := h.settings.Put(c.UserContext(), in)
	if err != nil {
		return err
	}
	adminroute.SetAuditEntity(c, "payments")
	return c.JSON(s)
}
