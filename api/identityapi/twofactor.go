package identityapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gofiber/fiber/v2"
)

type codeRequest struct {
	Code string `json:"code" validate:"required,max=64"`
}

// twoFactorStatus is GET /auth/2fa/status.
func (h *handlers) twoFactorStatus(c *fiber.Ctx) error {
	on, err := h.auth.TwoFactorStatus(c.UserContext(), adminroute.PrincipalOf(c).AdminID)
	if err != nil {
		return err
	}
	return c.JSON(fiber.Map{"enabled": on})
}

// generateSecret is POST /auth/2fa/generate-secret: a pending TOTP secret,
// its otpauth URL and QR code. 2FA stays off until enable.
func (h *handlers) generateSecret(c *fiber.Ctx) error {
	p := adminroute.PrincipalOf(c)
	setup, err := h.auth.GenerateTwoFactorSecret(c.UserContext(), p.AdminID, p.Email)
	if err != nil {
		return err
	}
	adminroute.SetAuditEntity(c, p.AdminID.String())
	noStore(c)
	return c.JSON(fiber.Map{"secret": setup.Secret, "otpauthUrl": setup.URL, "qrCode": setup.QRCode})
}

// enableTwoFactor is POST /auth/2fa/enable {code}: the backup codes, once.
func (h *handlers) enableTwoFactor(c *fiber.Ctx) error {
	p := adminroute.PrincipalOf(c)
	var req codeRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := h.limit(c, codeCheckBucket(p)); err != nil {
		return err
	}
	codes, err := h.auth.EnableTwoFactor(c.UserContext(), p.AdminID, req.Code)
	if err != nil {
		return err
	}
	adminroute.SetAuditEntity(c, p.AdminID.String())
	noStore(c)
	return c.JSON(fiber.Map{"enabled": true, "backupCodes": codes})
}

// disableTwoFactor is POST /auth/2fa/disable {code}: a TOTP or backup code.
func (h *handlers) disableTwoFactor(c *fiber.Ctx) error {
	p := adminroute.PrincipalOf(c)
	var req codeRequest
	if err := httpx.Bind(c, &req); err != nil {
		return err
	}
	if err := h.limit(c, codeCheckBucket(p)); err != nil {
		return err
	}
	if err := h.auth.DisableTwoFactor(c.UserContext(), p.AdminID, req.Code); err != nil {
		return err
	}
	adminroute.SetAuditEntity(c, p.AdminID.String())
	return c.JSON(fiber.Map{"enabled": false})
}
