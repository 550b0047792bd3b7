package identityapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

type meResponse struct {
	ID               uuid.UUID `json:"id"`
	Email            string    `json:"email"`
	Name             string    `json:"name"`
	Role             string    `json:"role"`
	TwoFactorEnabled bool      `json:"twoFactorEnabled"`
	CreatedAt        string    `json:"createdAt"`
	// StoreTimezone is the store's zone (STORE_TIMEZONE): the console
	// shows times and days in it, as the API's date filters read them.
	StoreTimezone string `json:"storeTimezone"`
}

// me is GET /auth/me: the signed-in admin.
func (h *handlers) me(c *fiber.Ctx) error {
	acc, err := h.auth.Me(c.UserContext(), adminroute.PrincipalOf(c).AdminID)
	if err != nil {
		return err
	}
	return c.JSON(meResponse{
		ID: acc.ID, Email: acc.Email, Name: acc.Name, Role: acc.Role,
		TwoFactorEnabled: acc.TwoFactorEnabled, CreatedAt: httpx.Timestamp(acc.CreatedAt), StoreTimezone: h.set.StoreTimezone,
	})
}
