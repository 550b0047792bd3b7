package identityapi

import (
	"github.com/gocommerce/shop/api/adminroute"
	"github.com/gocommerce/shop/api/httpx"
	"github.com/gofiber/fiber/v2"
	"github.com/google/uuid"
)

// logout is DELETE /auth/logout: ends this session and clears the cookies.
func (h *handlers) logout(c *fiber.Ctx) error {
	p := adminroute.PrincipalOf(c)
	if err := h.auth.Logout(c.UserContext(), p.AdminID, p.SessionID); err != nil {
		return err
	}
	adminroute.SetAuditEntity(c, p.SessionID.String())
	h.clearAuthCookies(c)
	return c.SendStatus(fiber.StatusNoContent)
}

// logoutAll is DELETE /auth/logout/all: ends every session of the admin.
func (h *handlers) logoutAll(c *fiber.Ctx) error {
	p := adminroute.PrincipalOf(c)
	n, err := h.auth.LogoutAll(c.UserContext(), p.AdminID)
	if err != nil {
		return err
	}
	adminroute.SetAuditEntity(c, p.AdminID.String())
	adminroute.AddAuditMeta(c, "sessionsEnded", n)
	h.clearAuthCookies(c)
	return c.SendStatus(fiber.StatusNoContent)
}

type sessionResponse struct {
	ID         uuid.UUID `json:"id"`
	DeviceID   string    `json:"deviceId"`
	UserAgent  *string   `json:"userAgent"`
	IPAddress  *string   `json:"ipAddress"`
	CreatedAt  string    `json:"createdAt"`
	LastUsedAt string    `json:"lastUsedAt"`
	ExpiresAt  string    `json:"expiresAt"`
	Current    bool      `json:"current"`
}

// listSessions is GET /auth/sessions: the admin's active sessions.
func (h *handlers) listSessions(c *fiber.Ctx) error {
	p := adminroute.PrincipalOf(c)
	rows, err := h.auth.Sessions(c.UserContext(), p.AdminID)
	if err != nil {
		return err
	}
	data := make([]sessionResponse, len(rows))
	for i, s := range rows {
		data[i] = sessionResponse{
			ID: s.ID, DeviceID: s.DeviceID, UserAgent: s.UserAgent, IPAddress: s.IPAddress,
			CreatedAt: httpx.Timestamp(s.CreatedAt), LastUsedAt: httpx.Timestamp(s.LastUsedAt), ExpiresAt: httpx.Timestamp(s.ExpiresAt),
			Current: s.ID == p.SessionID,
		}
	}
	return c.JSON(fiber.Map{"data": data})
}

// revokeSession is DELETE /auth/sessions/:sessionId. Revoking the current
// session also clears the cookies.
func (h *handlers) revokeSession(c *fiber.Ctx) error {
	p := adminroute.PrincipalOf(c)
	sid, err := httpx.PathUUID(c, "sessionId", "session")
	if err != nil {
		return err
	}
	if err := h.auth.RevokeSession(c.UserContext(), p.AdminID, sid); err != nil {
		return err
	}
	if sid == p.SessionID {
		h.clearAuthCookies(c)
	}
	return c.SendStatus(fiber.StatusNoContent)
}
